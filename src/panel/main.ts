/**
 * Side-panel entry: wires the custom elements to the service worker through the typed panel
 * protocol. The host-permission request is made here, synchronously inside the user's click
 * (SPEC L1), before anything is awaited.
 */
import { defineAll } from '../components/define.js';
import { RunToolEvent, ServerActionEvent, ToolToggleEvent } from '../components/events.js';
import { t, tReason } from '../components/i18n.js';
import { PANEL_PORT, PanelPushSchema, panelResultSchema, type PanelMethod, type PanelParams, type PanelValue } from '../protocol/panel.js';
import { originPattern } from '../common/url-rules.js';
import type { WireErrorCode } from '../protocol/error-codes.js';
import { setUpUsePanel } from './use-servers.js';
import { setUpManagePanel } from './manage-panel.js';
import { setUpStepUp } from './step-up.js';
import { setUpChat } from './chat.js';
import { isChatApproval } from './chat-approvals.js';
import { setUpServerForms } from './server-forms.js';
import { setUpActivity } from './activity.js';

defineAll();

async function call<M extends PanelMethod>(
  type: M,
  params: PanelParams<M>,
): Promise<{ ok: true; value: PanelValue<M> } | { ok: false; message: string; code?: WireErrorCode }> {
  try {
    const raw: unknown = await chrome.runtime.sendMessage({ type, params });
    const parsed = panelResultSchema(type).safeParse(raw);
    if (!parsed.success) return { ok: false, message: t('malformedAnswer') };
    return parsed.data.ok
      ? { ok: true, value: parsed.data.value as PanelValue<M> }
      : { ok: false, message: tReason(parsed.data.error), code: parsed.data.error.code };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // The worker stopped after it took the request: it may have acted on it, and it is not retried.
    if (WORKER_GONE.test(message)) return { ok: false, message: t(type === 'panel:call-tool' ? 'workerRestartedCall' : 'workerRestarted') };
    return { ok: false, message };
  }
}

/** Chrome's errors for a message whose receiver went away before answering. */
const WORKER_GONE = /message (channel|port) closed before a response was received/i;

const list = document.querySelector('mcp-server-list')!;
const runner = document.querySelector('mcp-tool-runner')!;
const configErrors = document.querySelector<HTMLElement>('#config-errors')!;
document.title = t('panelTitle');
document.querySelector('h1')!.textContent = t('panelTitle');

const composer = document.querySelector('mcp-composer')!;
const onUsePush = setUpUsePanel({
  runner,
  approvals: document.querySelector<HTMLElement>('#approvals')!,
  elicitations: document.querySelector<HTMLElement>('#elicitations')!,
  composer,
  shownElsewhere: isChatApproval,
});
const chat = setUpChat({ call, fallbackHost: document.querySelector('main')! });
const stepUp = setUpStepUp({ call, after: runner });
setUpServerForms({ call });
const ping = setUpManagePanel({ call, list, importer: document.querySelector('mcp-import')! });
const onActivityPush = setUpActivity({ call });

let connected = false;
function connectPort() {
  if (connected) chat.reattach();
  connected = true;
  const port = chrome.runtime.connect({ name: PANEL_PORT });
  port.onMessage.addListener(onUsePush);
  port.onMessage.addListener(chat.onPush);
  port.onMessage.addListener(onActivityPush);
  port.onMessage.addListener((message) => {
    const push = PanelPushSchema.safeParse(message);
    if (!push.success) return;
    list.servers = push.data.state.servers;
    runner.servers = push.data.state.servers;
    composer.servers = push.data.state.servers;
    configErrors.replaceChildren(
      ...push.data.state.configErrors.map((c) =>
        Object.assign(document.createElement('p'), { className: 'error', textContent: `${t('configError')} ${c.message}` }),
      ),
    );
  });
  // The worker was stopped: reconnecting wakes it again and brings a fresh state.
  port.onDisconnect.addListener(() => setTimeout(connectPort, 250));
}
connectPort();

function requestOrigin(url: string): Promise<boolean> {
  return chrome.permissions.request({ origins: [originPattern(url)] }).catch(() => false);
}

/** Authorization-server origins the worker said are not granted yet, asked for on the next Authorize click. */
const authOrigins = new Map<string, string[]>();

document.addEventListener(ServerActionEvent.type, (e) => {
  const serverId = e.serverId;
  switch (e.action) {
    case 'grant': {
      const server = list.servers.find((s) => s.id === serverId);
      if (server) {
        void requestOrigin(server.url).then(async (granted) => {
          if (granted) await call('panel:connect', { serverId });
        });
      }
      return;
    }
    case 'connect':
      void call('panel:connect', { serverId });
      return;
    case 'disconnect':
      void call('panel:disconnect', { serverId });
      return;
    case 'enable':
    case 'disable':
      void call('panel:set-enabled', { serverId, enabled: e.action === 'enable' });
      return;
    case 'delete':
      void call('panel:remove-server', { serverId });
      return;
    case 'ping':
      ping(serverId);
      return;
    case 'authorize': {
      // Asked inside the click, before any await (SPEC L1): the MCP origin and any authorization
      // server origin an earlier attempt found missing. The window itself opens in the worker (E2).
      const server = list.servers.find((s) => s.id === serverId);
      const origins = server ? [originPattern(server.url), ...(authOrigins.get(serverId) ?? [])] : [];
      const permission = origins.length ? chrome.permissions.request({ origins }).catch(() => false) : Promise.resolve(false);
      void permission.then(async () => {
        // A server set up without authorization that challenged Bearer: this click switches it to OAuth (E3).
        const r = await call('panel:authorize', { serverId, ...(server?.authKind === 'none' ? { switchToOAuth: true } : {}) });
        if (r.ok && r.value.missingOrigins) authOrigins.set(serverId, r.value.missingOrigins);
      });
      return;
    }
    case 'forget-auth':
      void call('panel:forget-authorization', { serverId });
  }
});

document.addEventListener(ToolToggleEvent.type, (e) => {
  void call('panel:set-tool-enabled', { serverId: e.serverId, tool: e.tool, enabled: e.enabled });
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
