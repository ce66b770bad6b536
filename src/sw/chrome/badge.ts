/**
 * The toolbar badge counts what waits for the user (SPEC K7): tool calls waiting for approval,
 * open questions from servers, and servers that need authorization or failed — the number on the
 * icon and a tooltip saying what it is ("2 approvals, 1 question waiting", then one line per
 * server), so nothing waiting in the background is silent.
 */
import type { ServerView } from '../../protocol/panel.js';

/** Approvals and elicitation questions waiting for the user's answer. */
export interface Waiting {
  approvals: number;
  questions: number;
}

type Message = (key: string, subs?: string[]) => string;

export function badgeFor(servers: readonly ServerView[], waiting: Waiting, msg: Message): { text: string; title: string } {
  const attention = servers.filter((s) => s.enabled && (s.status === 'needs-auth' || s.status === 'error'));
  const count = waiting.approvals + waiting.questions + attention.length;
  if (count === 0) return { text: '', title: msg('extName') };
  const parts: string[] = [];
  if (waiting.approvals) parts.push(waiting.approvals === 1 ? msg('badgeApprovalOne') : msg('badgeApprovals', [String(waiting.approvals)]));
  if (waiting.questions) parts.push(waiting.questions === 1 ? msg('badgeQuestionOne') : msg('badgeQuestions', [String(waiting.questions)]));
  const lines = parts.length === 2 ? [msg('badgeWaitingBoth', parts)] : parts.length ? [msg('badgeWaiting', parts)] : [];
  for (const s of attention) lines.push(`${s.name}: ${msg(s.status === 'needs-auth' ? 'statusNeedsAuth' : 'statusError')}`);
  return { text: String(count), title: lines.join('\n') };
}

/** The worker's badge writer; it skips the chrome.action calls when nothing changed since the last one. */
export function badgeApplier(): (servers: readonly ServerView[], waiting: Waiting) => void {
  let last = '';
  return (servers, waiting) => {
    const { text, title } = badgeFor(servers, waiting, (key, subs) => chrome.i18n.getMessage(key, subs));
    if (text + title === last) return;
    last = text + title;
    void chrome.action.setBadgeText({ text });
    void chrome.action.setBadgeBackgroundColor({ color: '#b3261e' });
    void chrome.action.setTitle({ title });
  };
}
