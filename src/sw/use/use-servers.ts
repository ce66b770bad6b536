/**
 * Wires the "use the servers" features into the worker (SPEC G1, H1, H2, K3): the approval
 * broker over the approval store, the elicitations, the AgentTool registry, progress forwarding
 * to the panels, and the panel handlers for approvals and cancellation. `main.ts` builds the
 * stores over chrome storage and calls {@link setUpUseServers} with them; it also exposes the
 * returned registry to an agent engine.
 *
 * Calls started from the panel's own tool runner are NOT routed through the approval policy:
 * the user picked the tool, saw and edited the arguments, and clicked Run — that click is the
 * approval of exactly that call, and a second prompt for it would teach people to click through
 * prompts. The policy guards calls the user did not compose: those of an agent engine.
 */
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { UsePanelPush } from '../../protocol/panel-use.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import { ApprovalBroker } from './approval-broker.js';
import type { ApprovalStore } from './approval-store.js';
import { PendingApprovals } from './pending-approvals.js';
import type { McpManager } from '../manager/mcp-manager.js';
import { AgentToolRegistry } from './tool-registry.js';
import type { InteractionStore } from '../../storage/interaction-store.js';
import { composerHandlers, liveServer } from '../handlers/panel-composer.js';
import { appViewHandlers } from './app-views.js';
import { Elicitations, type CallInfo, type ElicitationDeps } from './elicitations.js';

export interface UseServersDeps {
  manager: McpManager;
  /** "Always allow" grants, over `chrome.storage.local` (G1). */
  approvals: ApprovalStore;
  /** Elicitation questions and their answers (I1–I3). */
  interactions: InteractionStore;
  /** `chrome.storage.session`: ids of failed interactions and the approval cards still shown. */
  session: ElicitationDeps['session'];
  // Plain functions, not methods: they are handed on without their object.
  request: <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => Promise<OffscreenValue<M>>;
  onWorkerEvent(listener: (event: OffscreenEvent) => void): void;
  /** Sends a push message to every open panel. */
  push(message: UsePanelPush): void;
  newId: () => string;
}

export function setUpUseServers(deps: UseServersDeps) {
  const { manager } = deps;
  const store = deps.approvals;
  const broker = new ApprovalBroker(store, deps.newId, Date.now, new PendingApprovals(deps.session));

  // What waits for the user, for the toolbar badge (K7): approvals and open questions.
  let openQuestions = 0;
  const waitingListeners = new Set<() => void>();
  const waitingChanged = () => {
    for (const l of waitingListeners) l();
  };

  // Calls in flight, so a server's question during one can name it and keep it for a re-run (I3).
  // The manager tells its observers of every call, whichever path (panel runner, AgentTools, re-runs) started it.
  const calls = new Map<string, CallInfo>();
  manager.observeCalls({
    started: (operationId, call) => void calls.set(operationId, { tool: call.tool, arguments: call.arguments }),
    settled: (operationId) => {
      calls.delete(operationId);
      // One task later, after the answer has gone out: expiring this call's open questions reads
      // IndexedDB (~0.4 ms), which need not delay the result. A call that asked nothing needs
      // neither that nor a timer.
      if (elicitations.asked(operationId)) setTimeout(() => void elicitations.callEnded(operationId), 0);
    },
  });
  const elicitations = new Elicitations({
    store: deps.interactions,
    session: deps.session,
    request: deps.request,
    serverOf: (connectionId) => {
      for (const v of manager.views()) {
        const st = manager.state(v.id);
        if (st?.status === 'ready' && st.connectionId === connectionId) return { serverId: v.id, serverName: v.name };
      }
      return undefined;
    },
    serverName: (serverId) => manager.views().find((v) => v.id === serverId)?.name ?? serverId,
    callOf: (operationId) => calls.get(operationId),
    callTool: (serverId, tool, args, operationId) => manager.callTool(serverId, tool, args, operationId),
    push: (views) => {
      openQuestions = views.filter((v) => v.status === 'pending').length;
      waitingChanged();
      deps.push({ type: 'panel:elicitations', elicitations: views });
    },
    newId: deps.newId,
  });

  // Calls from MCP App views: the same manager, approvals and result budget as an agent's.
  const appViews = appViewHandlers({
    views: () => manager.views(),
    live: (serverId) => liveServer(manager, serverId),
    request: deps.request,
    callTool: (serverId, tool, args, operationId) => manager.callTool(serverId, tool, args, operationId),
    approve: (request, signal) => broker.approve(request, signal),
  });

  /** `offscreen:cancel` on the server's live connection; the offscreen side also records early cancels. */
  const cancel = async (serverId: string, operationId: string): Promise<boolean> => {
    // A view's call still waiting for the user's approval: its card goes away and nothing is sent.
    if (appViews.cancelWaiting(operationId)) return true;
    // Still waiting for a connect, a recovery or the queue: it is never sent (H2).
    if (manager.cancelUnsent(operationId)) return true;
    const state = manager.state(serverId);
    if (state?.status !== 'ready') return false;
    return (await deps.request('offscreen:cancel', { connectionId: state.connectionId, operationId })).cancelled;
  };

  const registry = new AgentToolRegistry({
    views: () => manager.views(),
    wakeLazyServers: () => manager.wakeLazyServers(),
    onChange: (l) => manager.onChange(l),
    callTool: (serverId, tool, args, operationId) => manager.callTool(serverId, tool, args, operationId),
    cancel,
    approve: (request, signal) => broker.approve(request, signal),
    newOperationId: deps.newId,
  });

  broker.onChange((approvals) => {
    waitingChanged();
    deps.push({ type: 'panel:approvals', approvals });
  });
  deps.onWorkerEvent((event) => {
    if (event.type === 'offscreen:elicitation')
      void elicitations.onEvent(event).catch((e) => console.error('[use-servers] elicitation failed', e));
    if (event.type !== 'offscreen:progress') return;
    deps.push({
      type: 'panel:progress',
      operationId: event.operationId,
      progress: event.progress,
      ...(event.total !== undefined ? { total: event.total } : {}),
      ...(event.message !== undefined ? { message: event.message } : {}),
    });
  });
  // A URL change or a removed server invalidates its "always" grants (G1).
  manager.onChange(() => void store.pruneServers(manager.views()).catch(() => undefined));

  const handlers = {
    'panel:answer-approval': async (p: PanelParams<'panel:answer-approval'>): Promise<PanelValue<'panel:answer-approval'>> => ({
      settled: broker.answer(p.approvalId, p.decision),
    }),
    'panel:dismiss-approval': async (p: PanelParams<'panel:dismiss-approval'>): Promise<PanelValue<'panel:dismiss-approval'>> => ({
      dismissed: broker.dismiss(p.approvalId),
    }),
    'panel:cancel-call': async (p: PanelParams<'panel:cancel-call'>): Promise<PanelValue<'panel:cancel-call'>> => ({
      cancelled: await cancel(p.serverId, p.operationId),
    }),
    'panel:answer-elicitation': (p: PanelParams<'panel:answer-elicitation'>) => elicitations.answer(p),
    'panel:rerun-interaction': (p: PanelParams<'panel:rerun-interaction'>) => elicitations.rerun(p),
    'panel:dismiss-interaction': (p: PanelParams<'panel:dismiss-interaction'>) => elicitations.dismiss(p),
    ...composerHandlers({ manager, request: deps.request }),
    ...appViews.handlers,
  };
  return {
    registry,
    broker,
    store,
    handlers,
    pendingApprovals: () => broker.pending(),
    /** Approvals and questions waiting for the user now; `onWaitingChange` tells when they may have changed. */
    waiting: () => ({ approvals: broker.waiting(), questions: openQuestions }),
    onWaitingChange: (listener: () => void) => void waitingListeners.add(listener),
    /** Everything a newly opened panel needs pushed at once (approvals are sent by main.ts). */
    panelOpened: async (send: (message: UsePanelPush) => void) =>
      send({ type: 'panel:elicitations', elicitations: await elicitations.views() }),
  };
}
