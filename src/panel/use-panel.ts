/**
 * Panel side of using servers (SPEC G1, G2, G3, H1, H2, I1–I3, K3, K4): approval cards from
 * `panel:approvals` pushes, elicitation cards from `panel:elicitations`, progress for the tool
 * runner, the Abort button → `panel:cancel-call`, answers and re-runs of interactions, the
 * composer's ContextBlock requests and the result viewer's resource reads. A question raised by
 * the call the user started in the tool runner is shown inside the runner, next to its buttons,
 * and focused; every other one stays in the elicitations container. `main.ts` gives it its `call`
 * and routes it the pushes, each validated once on receipt (push-router.ts).
 */
import {
  ApprovalDecisionEvent,
  ApprovalDismissEvent,
  CancelToolEvent,
  ClearTasksEvent,
  ComposerRequestEvent,
  CompletionRequestEvent,
  ElicitationAnswerEvent,
  InteractionActionEvent,
  ReadResourceEvent,
} from '../components/events.js';
import type { McpElicitationCardElement } from '../components/mcp-elicitation-card.js';
import type { McpResultViewElement } from '../components/mcp-result-view.js';
import type { McpComposerElement } from '../components/mcp-composer.js';
import type { McpToolRunnerElement } from '../components/mcp-tool-runner.js';
import type { ApprovalView, ElicitationView, UsePanelPush } from '../protocol/panel-use.js';
import type { Call } from './call.js';

export interface UsePanelElements {
  runner: McpToolRunnerElement;
  /** Where approval cards go; one card per pending approval, oldest first. */
  approvals: HTMLElement;
  /** Where elicitation cards go: pending questions and failed ones, oldest first. */
  elicitations: HTMLElement;
  /** Approvals shown elsewhere (the chat's, inside the conversation), left out of `approvals`. */
  shownElsewhere?: (approval: ApprovalView) => boolean;
  call: Call;
}

function renderApprovals(container: HTMLElement, approvals: ApprovalView[]) {
  const existing = new Map([...container.querySelectorAll('mcp-approval-card')].map((c) => [c.approval?.id, c]));
  const cards = approvals.map((a) => {
    const card = existing.get(a.id) ?? document.createElement('mcp-approval-card');
    // A coalesced repeat changes the count on the open card (U1).
    if (card.approval?.id !== a.id || card.approval.status !== a.status || card.approval.repeats !== a.repeats) card.approval = a;
    return card;
  });
  for (const c of cards) c.removeAttribute('slot');
  // Re-inserting a card that is already in place would disconnect and reconnect it, rebuilding
  // what the user may be about to click; a push that changes neither the cards nor their order
  // leaves the container as it is.
  const inPlace = cards.length === container.children.length && cards.every((c, i) => container.children[i] === c);
  if (!inPlace) container.replaceChildren(...cards);
}

/**
 * Keeps a card whose id and status did not change, so a half-filled form survives a push. A
 * pending question of the runner's call in flight goes into the runner (`slot="question"`) and
 * is focused when it arrives there; the others go to the container.
 */
function renderElicitations(container: HTMLElement, runner: McpToolRunnerElement, views: ElicitationView[]) {
  const shown = [...container.querySelectorAll('mcp-elicitation-card'), ...runner.querySelectorAll('mcp-elicitation-card')];
  const existing = new Map(shown.map((c) => [c.interaction?.id, c]));
  const inRunner: McpElicitationCardElement[] = [];
  const cards: McpElicitationCardElement[] = [];
  for (const v of views) {
    const card = existing.get(v.id) ?? document.createElement('mcp-elicitation-card');
    if (card.interaction?.id !== v.id || card.interaction.status !== v.status) card.interaction = v;
    const mine = v.status === 'pending' && v.operationId !== undefined && v.operationId === runner.operationId;
    (mine ? inRunner : cards).push(card);
  }
  // A re-run card stays (showing its outcome) until it is dismissed.
  for (const c of existing.values()) if (c.dataset.rerun && !cards.includes(c) && !inRunner.includes(c)) cards.push(c);
  for (const c of cards) c.removeAttribute('slot');
  container.replaceChildren(...cards);
  for (const c of runner.querySelectorAll('mcp-elicitation-card')) if (!inRunner.includes(c)) c.remove();
  for (const card of inRunner) {
    if (card.parentElement === runner) continue;
    card.slot = 'question';
    runner.append(card);
    // The card renders in a microtask; focus once its question is there.
    queueMicrotask(() => card.focusQuestion());
  }
}

/** Approval and elicitation answers, Abort, and the dismissals of cards the user has read. */
function wireAnswers(call: Call) {
  document.addEventListener(ApprovalDecisionEvent.type, (e) => {
    void call('panel:answer-approval', { approvalId: e.approvalId, decision: e.decision });
  });
  document.addEventListener(ApprovalDismissEvent.type, (e) => {
    (e.target as HTMLElement).remove();
    void call('panel:dismiss-approval', { approvalId: e.approvalId });
  });
  document.addEventListener(CancelToolEvent.type, (e) => {
    void call('panel:cancel-call', { serverId: e.serverId, operationId: e.operationId });
  });
  // The list follows from the push that the clearing causes.
  document.addEventListener(ClearTasksEvent.type, (e) => void call('panel:clear-tasks', { serverId: e.serverId }));
  document.addEventListener(ElicitationAnswerEvent.type, (e) => {
    void call('panel:answer-elicitation', {
      interactionId: e.interactionId,
      action: e.action,
      ...(e.content ? { content: e.content } : {}),
    });
  });
}

/** Dismiss or re-run of a failed interaction's card; a re-run shows its outcome on the card. */
function wireInteractionActions(call: Call) {
  document.addEventListener(InteractionActionEvent.type, (e) => {
    const card = e.target as HTMLElement & { showRerunOutcome?(text: string, isError: boolean): void; remove(): void };
    if (e.action === 'dismiss') {
      card.remove();
      void call('panel:dismiss-interaction', { interactionId: e.interactionId });
      return;
    }
    card.dataset.rerun = 'true';
    void call('panel:rerun-interaction', { interactionId: e.interactionId, confirmSafe: true }).then((r) => {
      if (r.ok)
        card.showRerunOutcome?.(
          r.value.content.map((c) => (typeof c.text === 'string' ? c.text : `[${c.type}]`)).join('\n'),
          r.value.isError === true,
        );
      else card.showRerunOutcome?.(r.message, true);
    });
  });
}

/** The composer's prompt and resource blocks and the result viewer's resource reads. */
function wireReads(call: Call) {
  document.addEventListener(ComposerRequestEvent.type, (e) => {
    const d = e.detail;
    const pending =
      d.kind === 'prompt'
        ? call('panel:get-prompt-block', { serverId: d.serverId, prompt: d.prompt, arguments: d.arguments })
        : call('panel:read-resource-block', { serverId: d.serverId, uri: d.uri });
    // The composer that asked (the Chat view's, inside its shadow root).
    const target = e.composedPath()[0] as McpComposerElement;
    void pending.then((r) => (r.ok ? target.addBlock(r.value) : target.showError(r.message)));
  });
  // Suggestions are best effort: a failure offers none, and the field keeps what was typed (R8).
  document.addEventListener(CompletionRequestEvent.type, (e) => {
    void call('panel:complete', e.detail).then((r) => e.respond(r.ok ? r.value.values : []));
  });
  document.addEventListener(ReadResourceEvent.type, (e) => {
    const view = e.composedPath()[0] as McpResultViewElement;
    void call('panel:read-resource', { serverId: e.serverId, uri: e.uri }).then((r) =>
      view.showResource(e.uri, r.ok ? { parts: r.value.parts, fenced: r.value.block.text } : { error: r.message }),
    );
  });
}

/** The handlers of the use area's pushes (push-router.ts). */
export interface UsePanel {
  showApprovals(approvals: ApprovalView[]): void;
  showElicitations(elicitations: ElicitationView[]): void;
  showProgress(push: Omit<Extract<UsePanelPush, { type: 'panel:progress' }>, 'type'>): void;
}

export function setUpUsePanel({ runner, approvals, elicitations, shownElsewhere, call }: UsePanelElements): UsePanel {
  wireAnswers(call);
  wireInteractionActions(call);
  wireReads(call);
  return {
    showApprovals: (list) => renderApprovals(approvals, shownElsewhere ? list.filter((a) => !shownElsewhere(a)) : list),
    showElicitations: (list) => renderElicitations(elicitations, runner, list),
    showProgress: (p) => runner.showProgress(p.operationId, p.progress, p.total, p.message),
  };
}
