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

/** What one action on a server needs: the card it came from, to show a refusal on. */
interface ActionContext {
  call: Call;
  card: McpServerCardElement;
  serverId: string;
  server: ServerView | undefined;
  report: (r: { ok: true } | { ok: false; message: string }) => void;
}

/** Grant access: Chrome's host-permission dialog, then the connect it allows. */
function grant({ call, card, serverId, server, report }: ActionContext) {
  if (!server) return;
  void requestOrigin(server.url).then(async (granted) => {
    if (granted) report(await call('panel:connect', { serverId }));
    else card.showActionError(t('permissionDenied', new URL(server.url).origin));
  });
}

/**
 * Authorize. Asked inside the click, before any await (SPEC L1): the MCP origin and any
 * authorization server origin an earlier attempt found missing (`authOrigins`, kept per server).
 * The window itself opens in the worker (E2).
 */
function authorize({ call, serverId, server, report }: ActionContext, authOrigins: Map<string, string[]>) {
  const origins = server ? [originPattern(server.url), ...(authOrigins.get(serverId) ?? [])] : [];
  const permission = origins.length ? chrome.permissions.request({ origins }).catch(() => false) : Promise.resolve(false);
  void permission.then(async () => {
    // A server set up without authorization that challenged Bearer: this click switches it to OAuth (E3).
    const r = await call('panel:authorize', { serverId, ...(server?.authKind === 'none' ? { switchToOAuth: true } : {}) });
    if (r.ok && r.value.missingOrigins) authOrigins.set(serverId, r.value.missingOrigins);
    report(r);
  });
}

/** The row switch and the detail's actions. */
function wireServerActions({ call, servers, ping }: Pick<ServerActionDeps, 'call' | 'servers' | 'ping'>) {
  /** Authorization-server origins the worker said are not granted yet, asked for on the next Authorize click. */
  const authOrigins = new Map<string, string[]>();
  document.addEventListener(ServerActionEvent.type, (e) => {
    const card = source<McpServerCardElement>(e);
    const serverId = e.serverId;
    const ctx: ActionContext = {
      call,
      card,
      serverId,
      server: servers().find((s) => s.id === serverId),
      report: (r) => {
        if (!r.ok) card.showActionError(r.message);
      },
    };
    switch (e.action) {
      case 'grant':
        return grant(ctx);
      case 'connect':
        return void call('panel:connect', { serverId }).then(ctx.report);
      case 'disconnect':
        return void call('panel:disconnect', { serverId }).then(ctx.report);
      case 'enable':
      case 'disable':
        return void call('panel:set-enabled', { serverId, enabled: e.action === 'enable' }).then(ctx.report);
      case 'delete':
        return void call('panel:remove-server', { serverId }).then(ctx.report);
      case 'ping':
        return ping(serverId, card);
      case 'authorize':
        return authorize(ctx, authOrigins);
      case 'forget-auth':
        return void call('panel:forget-authorization', { serverId }).then(ctx.report);
    }
  });
}

/** A tool's switch and a server's "all tools" switch; a refusal shows on the list. */
function wireToolToggles(call: Call) {
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
}

/** Run in the tool runner. */
function wireRun({ call, runner, stepUp }: Pick<ServerActionDeps, 'call' | 'runner' | 'stepUp'>) {
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

export function setUpServerActions(deps: ServerActionDeps) {
  wireServerActions(deps);
  wireToolToggles(deps.call);
  wireRun(deps);
}
