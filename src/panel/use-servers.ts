/**
 * Panel side of using servers (SPEC G1, H1, H2, K3): approval cards from `panel:approvals`
 * pushes, progress for the tool runner, and the Abort button → `panel:cancel-call`.
 * `main.ts` feeds it the panel Port's messages; pushes are validated on receipt.
 */
import { ApprovalDecisionEvent, CancelToolEvent } from '../components/events.js';
import type { McpToolRunnerElement } from '../components/mcp-tool-runner.js';
import { UsePanelPushSchema, type ApprovalView } from '../protocol/panel-use.js';

export interface UsePanelElements {
  runner: McpToolRunnerElement;
  /** Where approval cards go; one card per pending approval, oldest first. */
  approvals: HTMLElement;
}

function renderApprovals(container: HTMLElement, approvals: ApprovalView[]) {
  const existing = new Map([...container.querySelectorAll('mcp-approval-card')].map((c) => [c.approval?.id, c]));
  const cards = approvals.map((a) => {
    const card = existing.get(a.id) ?? document.createElement('mcp-approval-card');
    if (card.approval?.id !== a.id) card.approval = a;
    return card;
  });
  container.replaceChildren(...cards);
}

export function setUpUsePanel({ runner, approvals }: UsePanelElements): (message: unknown) => void {
  document.addEventListener(ApprovalDecisionEvent.type, (e) => {
    void chrome.runtime.sendMessage({ type: 'panel:answer-approval', params: { approvalId: e.approvalId, decision: e.decision } }).catch(() => undefined);
  });
  document.addEventListener(CancelToolEvent.type, (e) => {
    void chrome.runtime.sendMessage({ type: 'panel:cancel-call', params: { serverId: e.serverId, operationId: e.operationId } }).catch(() => undefined);
  });
  return (message) => {
    const push = UsePanelPushSchema.safeParse(message);
    if (!push.success) return;
    if (push.data.type === 'panel:approvals') renderApprovals(approvals, push.data.approvals);
    else runner.showProgress(push.data.operationId, push.data.progress, push.data.total, push.data.message);
  };
}
