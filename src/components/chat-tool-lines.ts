/**
 * The chat's lines about tool search (T2): that a turn looks its tools up (chosen for the chat,
 * or because the selection is over the provider's limit), and which tools a search loaded and
 * for what query. Tool names are server-written: they only ever become text.
 */
import type { ChatEntry } from '../protocol/panel-chat.js';
import { el } from './dom.js';
import { t, uiLocale } from './i18n.js';

type Line = Extract<ChatEntry, { kind: 'tool-search' | 'tools-loaded' }>;

const count = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

export const chatToolLinesCss = `
.tool-line { color: var(--fg-muted); font-size: 0.9em; margin: 0; overflow-wrap: anywhere; }
`;

export function toolSearchLine(e: Line): HTMLElement {
  if (e.kind === 'tool-search') {
    const text =
      e.reason === 'chosen' ? t('chatToolSearchChosen', count(e.offered)) : t('chatToolSearchOverLimit', count(e.offered), count(e.limit));
    return el('li', { class: 'tool-line tool-search-on', 'data-reason': e.reason }, text);
  }
  const text = e.tools.length ? t('chatToolsLoaded', count(e.tools.length), e.query, e.tools.join(', ')) : t('chatToolsNoneFound', e.query);
  return el('li', { class: 'tool-line tools-loaded', 'data-id': e.id }, text);
}
