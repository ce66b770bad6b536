/**
 * The chat history as a searchable list (T5): each chat with its title, date and the provider and
 * model that answered it; the search covers titles and the messages' text (the worker searches,
 * chat-store.ts), with the words found shown under the title.
 */
import { el } from './dom.js';
import { t, uiLocale } from './i18n.js';
import type { ChatSummary } from '../protocol/panel-chat.js';
import type { MessageKey } from '../i18n/en.js';

export const chatHistoryCss = `
.history-box { display: grid; gap: var(--space-1); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1); }
.history-box[hidden] { display: none; }
.history-box input[type="search"] { width: 100%; box-sizing: border-box; }
.history-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; max-height: 22em; overflow-y: auto; }
.history-list button { display: grid; gap: 1px; width: 100%; text-align: start; padding: 4px 6px; border-radius: var(--radius); }
.history-list button[aria-current="true"] { background: var(--bg-hover); }
.history-list .chat-title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.history-list .chat-meta, .history-list .chat-snippet { color: var(--fg-muted); font-size: 0.85em; overflow-wrap: anywhere; }
.history-empty { margin: 0; color: var(--fg-muted); }
`;

export const PROVIDER_KIND: Record<string, MessageKey> = {
  openai: 'chatKindOpenai',
  anthropic: 'chatKindAnthropic',
  builtin: 'chatKindBuiltin',
};

/** "model · provider kind · host". */
export function providerLine(p: { kind: string; model: string; host: string }): string {
  return [p.model, t(PROVIDER_KIND[p.kind]!), p.host].filter(Boolean).join(' · ');
}

const when = (ms: number) => new Date(ms).toLocaleString(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' });

function chatRow(c: ChatSummary, current: boolean, open: (chatId: string) => void): HTMLElement {
  const b = el(
    'button',
    { type: 'button', class: 'open-chat', 'data-role': 'quiet', 'data-chat': c.id, 'aria-current': current ? 'true' : false },
    el('span', { class: 'chat-title' }, c.title || t('chatUntitled')),
    el('span', { class: 'chat-meta' }, [when(c.createdAt), c.provider ? providerLine(c.provider) : ''].filter(Boolean).join(' · ')),
    c.snippet ? el('span', { class: 'chat-snippet' }, c.snippet) : null,
  );
  b.addEventListener('click', () => open(c.id));
  return el('li', {}, b);
}

export interface HistoryInput {
  chats: readonly ChatSummary[];
  query: string;
  currentId: string | undefined;
  open: (chatId: string) => void;
}

/** The list part (rebuilt on each change); the search field stays so typing keeps its focus. */
export function historyList({ chats, query, currentId, open }: HistoryInput): HTMLElement[] {
  if (!chats.length)
    return [
      el('p', { class: 'history-empty', role: 'status' }, query.trim() ? t('chatHistoryNoMatch', query.trim()) : t('chatHistoryNone')),
    ];
  return [el('ul', { class: 'history-list' }, ...chats.map((c) => chatRow(c, c.id === currentId, open)))];
}
