/**
 * Wires what the user does to servers to the worker: the row switch and the detail's
 * actions (connect, disconnect, enable, delete, authorize, forget, grant access), tool toggles
 * and Run. A refusal is shown on the element the click came from (the row, the detail header,
 * Settings, the tool list), never dropped. Host-permission requests are made synchronously
 * inside the user's click (SPEC L1), before anything is awaited.
 */
import { BulkToolToggleEvent, RunToolEvent, ServerActionEvent, ToolToggleEvent } from '../components/events.js';
import { t } from '../components/i18n.js';
import type { McpServerCardElement } from '../components/mcp-server-card.js';
import type { McpToolListElement } from '../components/mcp-tool-list.js';
import type { McpToolRunnerElement } from '../components/mcp-tool-runner.js';
import type { ServerView } from '../protocol/panel.js';
import { originPattern } from '../common/url-rules.js';
import type { Call } from './call.js';
import type { StepUpOffer } from './step-up.js';

export interface ServerActionDeps {
  call: Call;
  servers: () => ServerView[];
  runner: McpToolRunnerElement;
  stepUp: StepUpOffer;
  /** "Test connection" (J3), wired by manage-panel. */
  ping: (serverId: string, card: McpServerCardElement) => void;
}

function requestOrigin(url: string): Promise<boolean> {
  return chrome.permissions.request({ origins: [originPattern(url)] }).catch(() => false);
}

/** The element an event came from, inside whatever shadow roots hold it. */
const source = <T>(e: Event) => e.composedPath()[0] as T;

export function setUpServerActions({ call, servers, runner, stepUp, ping }: ServerActionDeps) {
  /** Authorization-server origins the worker said are not granted yet, asked for on the next Authorize click. */
  const authOrigins = new Map<string, string[]>();

  document.addEventListener(ServerActionEvent.type, (e) => {
    const card = source<McpServerCardElement>(e);
    const report = (r: { ok: true } | { ok: false; message: string }) => {
      if (!r.ok) card.showActionError(r.message);
    };
    const serverId = e.serverId;
    const server = servers().find((s) => s.id === serverId);
    switch (e.action) {
      case 'grant': {
        if (!server) return;
        void requestOrigin(server.url).then(async (granted) => {
          if (granted) report(await call('panel:connect', { serverId }));
          else card.showActionError(t('permissionDenied', new URL(server.url).origin));
        });
        return;
      }
      case 'connect':
        void call('panel:connect', { serverId }).then(report);
        return;
      case 'disconnect':
        void call('panel:disconnect', { serverId }).then(report);
        return;
      case 'enable':
      case 'disable':
        void call('panel:set-enabled', { serverId, enabled: e.action === 'enable' }).then(report);
        return;
      case 'delete':
        void call('panel:remove-server', { serverId }).then(report);
        return;
      case 'ping':
        ping(serverId, card);
        return;
      case 'authorize': {
        // Asked inside the click, before any await (SPEC L1): the MCP origin and any authorization
        // server origin an earlier attempt found missing. The window itself opens in the worker (E2).
        const origins = server ? [originPattern(server.url), ...(authOrigins.get(serverId) ?? [])] : [];
        const permission = origins.length ? chrome.permissions.request({ origins }).catch(() => false) : Promise.resolve(false);
        void permission.then(async () => {
          // A server set up without authorization that challenged Bearer: this click switches it to OAuth (E3).
          const r = await call('panel:authorize', { serverId, ...(server?.authKind === 'none' ? { switchToOAuth: true } : {}) });
          if (r.ok && r.value.missingOrigins) authOrigins.set(serverId, r.value.missingOrigins);
          report(r);
        });
        return;
      }
      case 'forget-auth':
        void call('panel:forget-authorization', { serverId }).then(report);
    }
  });

  document.addEventListener(ToolToggleEvent.type, (e) => {
    const list = source<McpToolListElement>(e);
    void call('panel:set-tool-enabled', { serverId: e.serverId, tool: e.tool, enabled: e.enabled }).then((r) => {
      if (!r.ok) list.showError(r.message);
    });
  });

  document.addEventListener(BulkToolToggleEvent.type, (e) => {
    const list = source<McpToolListElement>(e);
    void call('panel:set-disabled-tools', { serverId: e.serverId, disabledTools: e.disabledTools }).then((r) => {
      if (!r.ok) list.showError(r.message);
    });
  });

  document.addEventListener(RunToolEvent.type, (e) => {
    stepUp.clear();
    void call('panel:call-tool', {
      serverId: e.serverId,
      tool: e.tool,
      arguments: e.args,
      ...(e.operationId ? { operationId: e.operationId } : {}),
    }).then((r) => {
      if (r.ok) runner.showResult(r.value);
      else runner.showError(r.message);
      // Refused for missing scope: offer the step-up; the user re-runs the call afterwards (E7, H3).
      if (!r.ok && r.code === 'insufficient-scope') stepUp.offer(e.serverId, e.tool);
    });
  });
}
