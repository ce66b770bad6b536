/**
 * The toolbar badge counts servers that need the user's attention (SPEC K7): the number on the
 * icon and a tooltip naming them, so a failure in the background is never silent.
 */
import type { ServerView } from '../../protocol/panel.js';

function badgeFor(servers: ServerView[]): { text: string; title: string } {
  const attention = servers.filter((s) => s.enabled && (s.status === 'needs-auth' || s.status === 'error'));
  if (attention.length === 0) return { text: '', title: chrome.i18n.getMessage('extName') };
  const names = attention.map(
    (s) => `${s.name}: ${s.status === 'needs-auth' ? chrome.i18n.getMessage('statusNeedsAuth') : chrome.i18n.getMessage('statusError')}`,
  );
  return { text: String(attention.length), title: names.join('\n') };
}

/** The worker's badge writer; it skips the chrome.action calls when nothing changed since the last one. */
export function badgeApplier(): (servers: ServerView[]) => void {
  let last = '';
  return (servers) => {
    const { text, title } = badgeFor(servers);
    if (text + title === last) return;
    last = text + title;
    void chrome.action.setBadgeText({ text });
    void chrome.action.setBadgeBackgroundColor({ color: '#b3261e' });
    void chrome.action.setTitle({ title });
  };
}
