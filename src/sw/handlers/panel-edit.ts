/**
 * Handlers of src/protocol/panel-edit.ts: the settings of a saved server (secrets reported only
 * as present), saving an edit, and the guided add's probe. An edit keeps the server's id (its tool
 * names), disabled tools and, while the URL stays, its "always allow" grants; what it would lose
 * is computed by edit-drops.ts and refused unless the panel confirmed it. Writing the entry
 * reconciles the manager (McpManager.reconcile): a changed binding closes the old session first
 * and reconnects.
 */
import type * as z from 'zod/mini';
import type { EditPanelRequestSchemas, EditPanelResponseSchemas } from '../../protocol/panel-edit.js';
import { RemoteError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { ConfigStore } from '../../storage/config-store.js';
import { sealHeader } from '../../storage/seal.js';
import { checkServerUrl } from '../../common/url-rules.js';
import { duplicateOf } from '../../common/accounts.js';
import { say } from '../../protocol/wording.js';
import { editDrops, oauthBindingChanged, originChanged, type EditBefore } from '../../common/edit-drops.js';
import { sealBearer } from '../chrome/credentials.js';
import { authConfigOf } from '../chrome/oauth-runtime.js';
import type { AuthManager } from '../auth/auth-manager.js';
import type { ApprovalStore } from '../use/approval-store.js';
import type { FetchLike } from '../auth/ports.js';
import { probeServer } from '../auth/server-probe.js';
import { newOAuthAuth } from './panel-oauth.js';

type Req = typeof EditPanelRequestSchemas;
type Res = typeof EditPanelResponseSchemas;
type EditHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };
type Update = z.infer<Req['panel:update-server']>;

export interface EditHandlerDeps {
  configStore: Pick<ConfigStore, 'read' | 'update'>;
  auth: Pick<AuthManager, 'forget'>;
  approvals: Pick<ApprovalStore, 'list'>;
  /** The worker's outgoing fetch (credentials omitted), for the probe. */
  probeFetch: FetchLike;
}

const authorizedOf = (c: McpServerConfig) => c.auth.kind === 'oauth' && !!(c.auth.binding ?? c.auth.registration ?? c.auth.tokens);

async function beforeOf(deps: EditHandlerDeps, c: McpServerConfig): Promise<EditBefore> {
  const grants = (await deps.approvals.list()).filter((g) => g.serverId === c.id).length;
  return {
    url: c.url,
    authKind: c.auth.kind,
    clientId: c.auth.kind === 'oauth' ? c.auth.clientId : undefined,
    hasClientSecret: c.auth.kind === 'oauth' && !!c.auth.clientSecret,
    clientMetadataUrl: c.auth.kind === 'oauth' ? c.auth.clientMetadataUrl : undefined,
    authorized: authorizedOf(c),
    alwaysGrants: grants,
  };
}

function afterOf(p: Update, url: string) {
  const a = p.auth;
  return {
    url,
    authKind: a.kind,
    clientId: a.kind === 'oauth' ? a.clientId?.trim() || undefined : undefined,
    newClientSecret: a.kind === 'oauth' && !!a.clientSecret?.trim(),
    removeClientSecret: a.kind === 'oauth' && !!a.removeClientSecret,
    clientMetadataUrl: a.kind === 'oauth' ? a.clientMetadataUrl?.trim() || undefined : undefined,
  };
}

/** The new `auth`: secrets left out of the request are carried over only where they still apply. */
async function nextAuth(old: McpServerConfig, p: Update, url: string, keepOAuth: boolean): Promise<McpServerConfig['auth']> {
  const a = p.auth;
  if (a.kind === 'none') return { kind: 'none' };
  if (a.kind === 'bearer') {
    if (a.token?.trim()) return { kind: 'bearer', token: await sealBearer(old.id, a.token.trim()) };
    // A token is only ever sent to the origin it was given for.
    if (old.auth.kind === 'bearer' && !originChanged(old.url, url)) return old.auth;
    throw new RemoteError({ code: 'bad-request', message: 'Enter the bearer token for this address.' });
  }
  const scopes = (a.scopes ?? []).map((s) => s.trim()).filter(Boolean);
  if (keepOAuth && old.auth.kind === 'oauth') {
    const { scopes: _s, ...rest } = old.auth;
    return { ...rest, ...(scopes.length ? { scopes } : {}) };
  }
  const clientId = a.clientId?.trim();
  const fresh = await newOAuthAuth(old.id, { ...a, clientSecret: a.clientSecret?.trim() || undefined, scopes });
  // The stored secret stays with its client id unless the user removed or replaced it.
  if (
    fresh.kind === 'oauth' &&
    !fresh.clientSecret &&
    !a.removeClientSecret &&
    clientId &&
    old.auth.kind === 'oauth' &&
    old.auth.clientId === clientId &&
    old.auth.clientSecret
  )
    return { ...fresh, clientSecret: old.auth.clientSecret };
  return fresh;
}

async function nextHeaders(old: McpServerConfig, p: Update): Promise<McpServerConfig['headers']> {
  if (!p.headers) return old.headers;
  const stored = new Map((old.headers ?? []).map((h) => [h.name.toLowerCase(), h]));
  const out: NonNullable<McpServerConfig['headers']> = [];
  for (const h of p.headers) {
    if (h.value !== undefined && h.value !== '') {
      out.push({ name: h.name, value: await sealHeader(old.id, h.name, h.value) });
      continue;
    }
    const kept = stored.get(h.name.toLowerCase());
    if (!kept) throw new RemoteError({ code: 'bad-request', message: `Enter a value for the header ${h.name}.` });
    out.push(kept);
  }
  return out.length ? out : undefined;
}

async function updateServer(deps: EditHandlerDeps, p: Update) {
  const checked = checkServerUrl(p.url);
  if (!checked.ok) throw new RemoteError({ code: 'invalid-url', message: checked.message });
  const url = checked.url;
  const found = (await deps.configStore.read()).servers.find((s) => s.id === p.serverId);
  if (!found) throw new RemoteError({ code: 'unknown-server', message: `No server with id "${p.serverId}".` });
  const before = await beforeOf(deps, found);
  const after = afterOf(p, url);
  const dropped = editDrops(before, after);
  if (dropped.length > 0 && !p.confirmDrops) {
    throw new RemoteError({ code: 'bad-request', message: `Saving would drop: ${dropped.join(', ')}. Confirm to save.` });
  }
  const bindingChanged = oauthBindingChanged(before, after);
  // Revoked while the entry still names its binding (auth-manager reads it); best effort, bounded.
  if (bindingChanged && before.authorized) {
    await Promise.race([
      authConfigOf(found)
        .then((c) => deps.auth.forget(c))
        .catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]);
  }
  await deps.configStore.update(async (servers) => {
    const old = servers.find((s) => s.id === p.serverId);
    if (!old) throw new RemoteError({ code: 'unknown-server', message: `No server with id "${p.serverId}".` });
    const twin = duplicateOf(servers, { id: p.serverId, name: p.name, url });
    if (twin) throw new RemoteError({ code: 'duplicate', ...say('reasonDuplicateAccount', { name: twin.name.slice(0, 120) }) });
    const { connectTimeoutMs: _t, ...rest } = old;
    const headers = await nextHeaders(old, p);
    const next: McpServerConfig = {
      ...rest,
      name: p.name.trim(),
      url,
      auth: await nextAuth(old, p, url, !bindingChanged),
      connectOnStartup: p.connectOnStartup,
      ...(p.connectTimeoutMs !== null ? { connectTimeoutMs: p.connectTimeoutMs } : {}),
    };
    if (headers) next.headers = headers;
    else delete next.headers;
    return servers.map((s) => (s.id === p.serverId ? next : s));
  });
  return { dropped };
}

export function editPanelHandlers(deps: EditHandlerDeps): EditHandlers {
  return {
    'panel:get-server-settings': async (p) => {
      const c = (await deps.configStore.read()).servers.find((s) => s.id === p.serverId);
      if (!c) throw new RemoteError({ code: 'unknown-server', message: `No server with id "${p.serverId}".` });
      const before = await beforeOf(deps, c);
      return {
        name: c.name,
        url: c.url,
        authKind: c.auth.kind,
        ...(before.clientId ? { clientId: before.clientId } : {}),
        hasClientSecret: before.hasClientSecret,
        ...(c.auth.kind === 'oauth' && c.auth.scopes?.length ? { scopes: c.auth.scopes } : {}),
        ...(before.clientMetadataUrl ? { clientMetadataUrl: before.clientMetadataUrl } : {}),
        authorized: before.authorized,
        headers: (c.headers ?? []).map((h) => h.name),
        ...(c.connectTimeoutMs !== undefined ? { connectTimeoutMs: c.connectTimeoutMs } : {}),
        connectOnStartup: c.connectOnStartup,
        alwaysGrants: before.alwaysGrants,
      };
    },
    'panel:update-server': (p) => updateServer(deps, p),
    'panel:probe-server': async (p) => {
      const checked = checkServerUrl(p.url);
      if (!checked.ok) throw new RemoteError({ code: 'invalid-url', message: checked.message });
      return probeServer(deps.probeFetch, checked.url);
    },
  };
}
