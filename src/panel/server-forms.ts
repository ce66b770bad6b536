/**
 * Wires the guided add and the settings forms to the worker (section K). Chrome's host-permission
 * dialog is opened synchronously inside the click that needs it (SPEC L1) — Continue of the add,
 * and the Save that moves a server to another origin — before anything is awaited.
 */
import { AddServerEvent, ProbeServerEvent, ServerSettingsRequestEvent, UpdateServerEvent } from '../components/events.js';
import { t } from '../components/i18n.js';
import type { McpAddServerElement } from '../components/mcp-add-server.js';
import type { McpServerSettingsElement } from '../components/mcp-server-settings.js';
import { originPattern } from '../common/url-rules.js';
import type { Call } from './call.js';

export interface ServerFormsDeps {
  call: Call;
  /** The view shown now (an identity: the same object while that view stays open). */
  shown: () => object;
  /**
   * A server was added from the view `from`: the panel shows its detail in its place, if that
   * view is still open (shell.ts `showAdded`), with a note to show there.
   */
  added: (serverId: string, from: object, note?: string) => void;
}

function requestOrigin(url: string): Promise<boolean> {
  return chrome.permissions.request({ origins: [originPattern(url)] }).catch(() => false);
}

/** The element an event came from (events are composed: it is the first of the path). */
const sourceOf = <T>(e: Event) => e.composedPath()[0] as T;

/** The add form's authorization as `panel:add-server` takes it: only what the user filled in. */
function authOf({ authKind, token, clientId, clientSecret, scopes, clientMetadataUrl }: AddServerEvent['detail']) {
  if (authKind === 'oauth')
    return {
      kind: 'oauth' as const,
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(scopes ? { scopes } : {}),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    };
  return authKind === 'bearer' && token ? { kind: 'bearer' as const, token } : { kind: 'none' as const };
}

/** Continue of the guided add: the origin's permission, then the probe of the server. */
function wireProbe(call: Call) {
  document.addEventListener(ProbeServerEvent.type, (e) => {
    const form = sourceOf<McpAddServerElement>(e);
    const permission = requestOrigin(e.url);
    void (async () => {
      if (!(await permission)) return form.showProbe({ denied: new URL(e.url).origin });
      form.showChecking();
      const r = await call('panel:probe-server', { url: e.url });
      form.showProbe(r.ok ? { ok: true, ...r.value } : r);
    })();
  });
}

function wireAdd({ call, added, shown }: ServerFormsDeps) {
  document.addEventListener(AddServerEvent.type, (e) => {
    const form = sourceOf<McpAddServerElement>(e);
    const { name, url, headers, connectTimeoutMs } = e.detail;
    // Usually granted at Continue already; asked again in this click in case it was refused there.
    const permission = requestOrigin(url);
    const from = shown();
    void (async () => {
      const granted = await permission;
      const r = await call('panel:add-server', {
        name,
        url,
        auth: authOf(e.detail),
        ...(headers ? { headers } : {}),
        ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
      });
      if (!r.ok) return form.showResult(r);
      // Added either way; without the origin the detail offers "Grant access" as its next step.
      form.showResult({ ok: true });
      added(r.value.serverId, from, granted ? undefined : t('permissionDenied', new URL(url).origin));
    })();
  });
}

/** The settings form: its stored settings when it opens, and Save (moving origin asks for the new one). */
function wireSettings(call: Call) {
  document.addEventListener(ServerSettingsRequestEvent.type, (e) => {
    const form = sourceOf<McpServerSettingsElement>(e);
    void call('panel:get-server-settings', { serverId: e.serverId }).then((r) => {
      if (form.server?.id !== e.serverId) return;
      if (r.ok) form.settings = r.value;
      else form.showError(r.message);
    });
  });

  document.addEventListener(UpdateServerEvent.type, (e) => {
    const form = sourceOf<McpServerSettingsElement>(e);
    const permission = e.newOrigin ? requestOrigin(e.detail.url) : Promise.resolve(true);
    void (async () => {
      const granted = await permission;
      const r = await call('panel:update-server', e.detail);
      if (!r.ok) return form.showSaveResult(r);
      form.showSaveResult(granted ? { ok: true } : { ok: true, note: t('permissionDeniedSaved', new URL(e.detail.url).origin) });
    })();
  });
}

export function setUpServerForms(deps: ServerFormsDeps) {
  const { call } = deps;
  wireProbe(call);
  wireAdd(deps);
  wireSettings(call);
}
