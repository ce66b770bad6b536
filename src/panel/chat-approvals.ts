/**
 * Which approval cards a chat shows (section P). A chat's run asks with the chat's id as its
 * `runId`, so a card is matched to its run, never by the agent's name: two chats, or a chat and
 * another agent that happens to call itself "Chat", cannot take each other's cards. Cards of the
 * other chats' runs are only counted here (the view offers to open those chats); cards without a
 * run stay in the panel's general approval list.
 */
import type { ApprovalView } from '../protocol/panel-use.js';

/** A card that belongs to some chat's run: the chat view shows it, the general list does not. */
export function isChatApproval(a: ApprovalView): boolean {
  return a.runId !== undefined;
}

export function approvalsForChat(
  approvals: readonly ApprovalView[],
  chatId: string | undefined,
): { own: ApprovalView[]; otherChats: string[] } {
  const own: ApprovalView[] = [];
  const otherChats = new Set<string>();
  for (const a of approvals) {
    if (a.runId === undefined) continue;
    if (a.runId === chatId) own.push(a);
    else if (a.status !== 'gone') otherChats.add(a.runId);
  }
  return { own, otherChats: [...otherChats] };
}
