/**
 * Wires the "use the servers" features into the worker (SPEC G1, H1, H2, K3): the approval
 * broker over the approval store, the elicitations, the AgentTool registry, progress forwarding
 * to the panels, and the panel handlers for approvals and cancellation. `main.ts` builds the
 * stores over chrome storage and calls {@link setUpUseService} with them; it also exposes the
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
import { ApprovalBroker, type ApprovalRequest } from './approval-broker.js';
import type { ApprovalStore } from './approval-store.js';
import { PendingApprovals } from './pending-approvals.js';
import { ViewGrants } from './view-grants.js';
import type { McpManager } from '../manager/mcp-manager.js';
import { AgentToolRegistry } from './tool-registry.js';
import type { InteractionStore } from '../../storage/interaction-store.js';
import { composerHandlers, liveServer } from '../handlers/panel-composer.js';
import { appViewHandlers } from './app-views.js';
import { Elicitations, type ElicitationDeps } from './elicitations.js';
import { CallsInFlight } from './calls-in-flight.js';
import { WaitingForUser } from './waiting-for-user.js';
import { cancelCall } from './cancel-call.js';
import { serverOfConnection, useEventListener } from './worker-events.js';
import type { TaskBoard } from './task-board.js';

export interface UseServiceDeps {
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
  /** "Always" on the card of a tool whose definition changed accepts the new definition (S2). */
  acceptDefinition?(serverId: string, tool: string): Promise<unknown>;
  /** The offscreen document's tasks, fed by main.ts from each claim (R6). */
  tasks: TaskBoard;
  /** The worker's start-up (sessions adopted); questions wait for it (R6). */
  started?: Promise<unknown>;
  /** Whether a panel shows this call's progress: the runner's calls only (runner-calls.ts). */
  shownProgress: (operationId: string) => boolean;
}

export function setUpUseService(deps: UseServiceDeps) {
  const { manager } = deps;
  const store = deps.approvals;
  const broker = new ApprovalBroker(store, deps.newId, Date.now, new PendingApprovals(deps.session), new ViewGrants(deps.session), {
    changed: (serverId, tool) => manager.definitionChanged(serverId, tool),
    accept: (serverId, tool) => deps.acceptDefinition?.(serverId, tool) ?? Promise.resolve(),
  });
  const waits = new WaitingForUser();
  const calls = new CallsInFlight((operationId, error) => {
    // One task later, after the answer has gone out: expiring this call's open questions reads
    // IndexedDB (~0.4 ms), which need not delay the result. A call that asked nothing needs
    // neither that nor a timer.
    if (elicitations.asked(operationId)) setTimeout(() => void elicitations.callEnded(operationId, error), 0);
  });
  manager.observeCalls(calls);
  const elicitations = newElicitations(deps, calls, waits);
  const { appViews, cancel, registry } = newCallPaths(deps, broker);

  broker.onChange((approvals) => {
    waits.changed();
    deps.push({ type: 'panel:approvals', approvals });
  });
  deps.onWorkerEvent(useEventListener(elicitations, (message) => deps.push(message), deps.shownProgress));
  deps.onWorkerEvent((event) => deps.tasks.onEvent(event));
  // A URL change or a removed server invalidates its "always" grants (G1).
  manager.onChange(() => void store.pruneServers(manager.views()).catch(() => undefined));

  return {
    registry,
    broker,
    store,
    handlers: {
      ...useHandlers(broker, elicitations, cancel),
      'panel:clear-tasks': async (p: PanelParams<'panel:clear-tasks'>): Promise<PanelValue<'panel:clear-tasks'>> => {
        const { tasks } = await deps.request('offscreen:clear-tasks', p);
        deps.tasks.adopt(tasks);
        return { tasks };
      },
      ...composerHandlers({ manager, request: deps.request }),
      ...appViews.handlers,
    },
    pendingApprovals: () => broker.pending(),
    /** Approvals and questions waiting for the user now; `onWaitingChange` tells when they may have changed. */
    waiting: () => ({ approvals: broker.waiting(), questions: waits.questions }),
    onWaitingChange: (listener: () => void) => waits.onChange(listener),
    /** Everything a newly opened panel needs pushed at once (approvals are sent by main.ts). */
    panelOpened: async (send: (message: UsePanelPush) => void) => {
      send(deps.tasks.message());
      send({ type: 'panel:elicitations', elicitations: await elicitations.views() });
    },
  };
}

/**
 * The three ways a tool call arrives besides the panel's own runner, all through the same manager
 * and approvals: MCP App views, the AgentTool registry, and a cancel of either.
 */
function newCallPaths(deps: UseServiceDeps, broker: ApprovalBroker) {
  const { manager } = deps;
  const callTool = (serverId: string, tool: string, args: Record<string, unknown>, operationId: string) =>
    manager.callTool(serverId, tool, args, operationId);
  const approve = (request: ApprovalRequest, signal?: AbortSignal) => broker.approve(request, signal);

  // Calls from MCP App views: the same manager, approvals and result budget as an agent's.
  const appViews = appViewHandlers({
    views: () => manager.views(),
    live: (serverId) => liveServer(manager, serverId),
    request: deps.request,
    callTool,
    approve,
    endViewSession: (viewSession) => broker.endViewSession(viewSession),
  });
  const cancel = (serverId: string, operationId: string) =>
    cancelCall({ manager, cancelWaiting: (id) => appViews.cancelWaiting(id), request: deps.request }, serverId, operationId);
  const registry = new AgentToolRegistry({
    views: () => manager.views(),
    wakeLazyServers: () => manager.wakeLazyServers(),
    onChange: (l) => manager.onChange(l),
    callTool,
    cancel,
    approve,
    newOperationId: deps.newId,
  });

  return { appViews, cancel, registry };
}

/** The server questions (I1–I3): each names its server and the call in flight that asked it. */
function newElicitations(deps: UseServiceDeps, calls: CallsInFlight, waits: WaitingForUser): Elicitations {
  const { manager } = deps;
  return new Elicitations({
    store: deps.interactions,
    session: deps.session,
    request: deps.request,
    serverOf: (connectionId) => serverOfConnection(manager, connectionId),
    serverName: (serverId) => manager.views().find((v) => v.id === serverId)?.name ?? serverId,
    callOf: (operationId) => calls.get(operationId),
    callTool: (serverId, tool, args, operationId) => manager.callTool(serverId, tool, args, operationId),
    push: (views) => {
      waits.setQuestions(views.filter((v) => v.status === 'pending').length);
      deps.push({ type: 'panel:elicitations', elicitations: views });
    },
    newId: deps.newId,
    ...(deps.started ? { started: deps.started } : {}),
  });
}

/** The panel's requests about approvals, cancellation and questions. */
function useHandlers(
  broker: ApprovalBroker,
  elicitations: Elicitations,
  cancel: (serverId: string, operationId: string) => Promise<boolean>,
) {
  return {
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
  };
}
