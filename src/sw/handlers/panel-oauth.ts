/**
 * The panel's OAuth actions in the worker (SPEC E2, E9, E11, K1): adding an OAuth server with an
 * optional pre-registered client (its secret sealed at once, F2), "Authorize" — the only path
 * that opens the authorization window, reached from a click — and "Forget authorization".
 */
import { RemoteError, toWireError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import { configStore } from '../chrome/config-access.js';
import type { McpManager } from '../manager/mcp-manager.js';
import { originPattern } from '../../shared/url-rules.js';
import { missingAuthOrigins } from '../chrome/as-permission.js';
import { handTokenToLiveSessions } from '../offscreen-link/oauth-requests.js';
import { authConfigOf, authManager, sealClientSecret } from '../chrome/oauth-runtime.js';

export interface OAuthAddParams {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  scopes?: string[] | undefined;
}

/** The stored `auth` of a new OAuth server: no binding, no tokens yet (needs-auth until authorized). */
export async function newOAuthAuth(serverId: string, p: OAuthAddParams): Promise<McpServerConfig['auth']> {
  const clientId = p.clientId?.trim();
  const secret = p.clientSecret?.trim();
  if (secret && !clientId) throw new RemoteError({ code: 'bad-request', message: 'A client secret needs its client ID.' });
  const scopes = (p.scopes ?? []).map((s) => s.trim()).filter(Boolean);
  return {
    kind: 'oauth',
    ...(clientId ? { clientId } : {}),
    ...(clientId && secret ? { clientSecret: await sealClientSecret(serverId, secret) } : {}),
    ...(scopes.length ? { scopes } : {}),
  };
}

async function oauthConfig(serverId: string): Promise<McpServerConfig> {
  const config = (await configStore.read()).servers.find((s) => s.id === serverId);
  if (!config) throw new RemoteError({ code: 'unknown-server', message: `No server with id "${serverId}".` });
  if (config.auth.kind !== 'oauth') throw new RemoteError({ code: 'bad-request', message: `"${config.name}" does not use OAuth.` });
  return config;
}

/**
 * Runs the interactive authorization, then connects. A cancelled or refused authorization
 * leaves the server in `needs-auth` with that reason. Writing the new binding reconciles the
 * server (disconnect barrier, C3), which can supersede our first connect: it is retried.
 */
async function authorizeServer(
  manager: McpManager,
  serverId: string,
): Promise<{ status: 'ready' | 'needs-auth'; missingOrigins?: string[] }> {
  const config = await oauthConfig(serverId);
  const missingOrigins = await missingAuthOrigins(
    { fetch: (url, init) => fetch(url, init), contains: (origins) => chrome.permissions.contains({ origins }) },
    config.url,
    config.auth.kind === 'oauth' ? config.auth.binding?.issuer : undefined,
  );
  if (missingOrigins.length > 0) {
    const message = `Chrome has not granted access to the authorization server (${missingOrigins.join(', ')}). Click "Authorize" again and allow it.`;
    manager.authFailed(serverId, { kind: 'auth', message });
    return { status: 'needs-auth', missingOrigins: [originPattern(config.url), ...missingOrigins] };
  }
  let token: string;
  try {
    token = await authManager.authorize(await authConfigOf(config));
  } catch (e) {
    const w = toWireError(e, 'auth');
    const kind =
      w.code === 'auth-cancelled' || w.code === 'auth-denied' ? 'auth-denied' : w.code === 'auth-discovery' ? 'auth-discovery' : 'auth';
    const message = w.code === 'auth-cancelled' ? `Authorization cancelled: ${w.message} Click "Authorize" to try again.` : w.message;
    manager.authFailed(serverId, { kind, message });
    throw new RemoteError({ code: w.code, message });
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await manager.connect(serverId);
      // "Re-authorize" on a ready server: its live session switches to the new token now.
      await handTokenToLiveSessions(serverId, token);
      return { status: 'ready' as const };
    } catch (e) {
      if (toWireError(e).code !== 'superseded' || attempt >= 2) throw e;
    }
  }
}

/** Revokes at the AS when it can, and always deletes the local credentials. */
async function forgetAuthorization(serverId: string) {
  const config = await oauthConfig(serverId);
  return authManager.forget(await authConfigOf(config));
}

/** The handlers of src/protocol/panel-oauth.ts, spread into the panel API. */
export function oauthPanelHandlers(manager: McpManager) {
  return {
    'panel:authorize': (p: { serverId: string }) => authorizeServer(manager, p.serverId),
    'panel:forget-authorization': async (p: { serverId: string }) => {
      const r = await forgetAuthorization(p.serverId);
      return { revoked: r.revoked, ...(r.revokeError !== undefined ? { revokeError: r.revokeError.slice(0, 4096) } : {}) };
    },
  };
}
