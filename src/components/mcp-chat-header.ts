/**
 * The Chat view's header: the chat's title, its model and provider (and the one the next message
 * will use when the settings changed since, T5), the chat's total tokens, and the chat actions
 * (new, the searchable history of chat-history.ts, settings; rename, the chat's own system
 * prompt (chat-prompt-form.ts, marked in the header while set), delete and export folded
 * under "More"). It renders into its own
 * children (no shadow root), so the Chat view's styles and selectors reach it unchanged.
 */
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { ChatActionEvent } from './chat-events.js';
import { downloadText } from './download.js';
import { chatAsMarkdown } from './chat-export.js';
import { uiLocale } from './i18n.js';
import { chatHistoryCss, historyList, providerLine } from './chat-history.js';
import { chatPromptFormCss, systemPromptForm } from './chat-prompt-form.js';
import type { ChatSummary, ChatView, ProviderSettingsView } from '../protocol/panel-chat.js';

export const chatHeaderCss = `
mcp-chat-header { display: contents; }
header { display: grid; grid-template-columns: minmax(0, 1fr); gap: 2px; }
.title-row { display: flex; gap: var(--space-2); align-items: center; }
h2 { flex: 1; min-width: 0; margin: 0; font-size: 1em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.model { color: var(--fg-muted); font-size: 0.9em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.actions { display: flex; flex-wrap: wrap; gap: 4px; }
.actions select { max-width: 12em; }
.more > summary { cursor: pointer; color: var(--accent); padding: 2px var(--space-1); border-radius: var(--radius); }
.more[open] .menu { display: flex; flex-wrap: wrap; gap: 4px; flex-basis: 100%; }
.next-provider { color: var(--accent); font-size: 0.9em; margin: 0; overflow-wrap: anywhere; }
.tokens { color: var(--fg-muted); font-size: 0.85em; margin: 0; }
header p { margin: 0; }
${chatHistoryCss}${chatPromptFormCss}`;

type ProviderLine = NonNullable<ChatView['provider']>;

const settingsLine = (p: ProviderSettingsView): ProviderLine => ({
  kind: p.kind,
  model: p.model,
  host: p.baseUrl ? new URL(p.baseUrl).host : '',
});

/** The chat's own provider (who answered it), else the one set up now. */
function modelLine(chat: ChatView | undefined, provider: ProviderSettingsView | undefined | null): string {
  const p = chat?.provider ?? (provider ? settingsLine(provider) : undefined);
  return p ? providerLine(p) : '';
}

/** T5: a provider switch applies from the open chat's next message; the header names it until then. */
function nextProvider(chat: ChatView | undefined, provider: ProviderSettingsView | undefined | null): HTMLElement | null {
  if (!chat?.provider || !provider) return null;
  const next = providerLine(settingsLine(provider));
  return next === providerLine(chat.provider) ? null : el('p', { class: 'next-provider' }, t('chatNextProvider', next));
}

/** The chat's tokens: the sum of its answers' usage, "—" where the provider reported none (T5). */
export function chatTokens(chat: ChatView): string {
  let total: number | undefined;
  for (const e of chat.entries)
    if (e.kind === 'assistant' && e.usage && (e.usage.inputTokens !== undefined || e.usage.outputTokens !== undefined))
      total = (total ?? 0) + (e.usage.inputTokens ?? 0) + (e.usage.outputTokens ?? 0);
  return total === undefined ? '—' : total.toLocaleString(uiLocale());
}

function button(label: string, cls: string, onClick: () => void, disabled = false) {
  const b = el('button', { type: 'button', class: cls, 'data-role': 'quiet', disabled }, label);
  b.addEventListener('click', onClick);
  return b;
}

export class McpChatHeaderElement extends ElementBase {
  #chat: ChatView | undefined;
  #chats: ChatSummary[] = [];
  #provider: ProviderSettingsView | undefined | null = null;
  #moreOpen = false;
  #historyOpen = false;
  /** The search's answer from the worker, for the query it was asked with. */
  #results: { query: string; chats: ChatSummary[] } | undefined;
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #header = el('header');
  readonly #search = el('input', {
    type: 'search',
    name: 'chat-search',
    'aria-label': t('chatHistorySearch'),
    placeholder: t('chatHistorySearch'),
  });
  readonly #list = el('div', { class: 'history-results' });
  /** Beside the rebuilt header, never re-inserted: the search field keeps its focus while results arrive. */
  readonly #historyBox = el('div', { class: 'history-box', id: 'chat-history', hidden: true }, this.#search, this.#list);
  /** The system prompt form (T5), beside the rebuilt header for the same reason: pushes keep what is typed. */
  readonly #promptBox = el('div', { class: 'prompt-box' });
  /** Called when the Settings button is pressed: the Chat view shows or hides the provider form. */
  onSettings: () => void = () => {};

  constructor() {
    super();
    // Shown before any input arrives, as the empty chat's frame.
    this.requestUpdate();
    // The worker searches the messages too; asked once the typing pauses, not per key.
    this.#search.addEventListener('input', () => {
      clearTimeout(this.#searchTimer);
      this.#searchTimer = setTimeout(() => this.#ask(), 200);
      this.#renderHistory();
    });
    this.#search.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.#toggleHistory(false);
    });
  }

  /** The chats the worker found for a search (T5). */
  set searchResults(value: { query: string; chats: ChatSummary[] }) {
    this.#results = value;
    this.#renderHistory();
  }

  #ask() {
    const query = this.#search.value.trim();
    if (query) this.dispatchEvent(new ChatActionEvent({ action: 'search', query }));
  }

  #toggleHistory(open = !this.#historyOpen) {
    this.#historyOpen = open;
    this.requestUpdate('chats');
    if (open) void this.updateComplete.then(() => this.#search.focus());
    else void this.updateComplete.then(() => this.querySelector<HTMLElement>('button.history')?.focus());
  }

  set chat(value: ChatView | undefined) {
    // The form belongs to the chat it was opened for.
    if (value?.id !== this.#chat?.id) this.#promptBox.replaceChildren();
    this.#chat = value;
    this.requestUpdate('chat');
  }
  set chats(value: ChatSummary[]) {
    this.#chats = value;
    this.requestUpdate('chats');
  }
  set provider(value: ProviderSettingsView | undefined | null) {
    this.#provider = value;
    this.requestUpdate('provider');
  }

  connectedCallback() {
    if (this.#header.parentNode !== this) this.append(this.#header, this.#promptBox, this.#historyBox);
  }

  protected override update() {
    const chat = this.#chat;
    const title = el('h2', {}, chat?.title || t('chatUntitled'));
    title.title = chat?.title || t('chatUntitled');
    const actions = el(
      'div',
      { class: 'actions' },
      button(t('chatNew'), 'new', () => {
        this.#historyOpen = false;
        this.dispatchEvent(new ChatActionEvent({ action: 'new' }));
      }),
      this.#historyButton(),
      button(t('chatSettings'), 'settings', () => this.onSettings()),
      this.#more(),
    );
    const parts = [
      el('div', { class: 'title-row' }, title, chat?.systemPrompt ? el('span', { class: 'own-prompt' }, t('chatOwnSystemPrompt')) : null),
      el('p', { class: 'model' }, modelLine(chat, this.#provider)),
      nextProvider(chat, this.#provider),
      chat?.entries.length ? el('p', { class: 'tokens' }, t('chatTokensTotal', chatTokens(chat))) : null,
      actions,
    ];
    this.#renderHistory();
    const focused = this.#focusedControl();
    this.#header.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    // A push rebuilt the header under the keyboard's focus: it stays on the same control.
    if (focused) this.#header.querySelector<HTMLElement>(focused)?.focus();
  }

  /** The header control that has the focus, as a selector that finds its rebuilt twin. */
  #focusedControl(): string | undefined {
    const active = (this.getRootNode() as Document | ShadowRoot).activeElement;
    if (!active || !this.#header.contains(active)) return undefined;
    if (active.matches('.more > summary')) return '.more > summary';
    const cls = active instanceof HTMLButtonElement ? active.classList[0] : undefined;
    return cls ? `button.${cls}` : undefined;
  }

  #historyButton() {
    const b = button(t('chatHistory'), 'history', () => this.#toggleHistory());
    b.setAttribute('aria-expanded', String(this.#historyOpen));
    b.setAttribute('aria-controls', 'chat-history');
    return b;
  }

  /** The searchable list: the worker's results for the query typed, else every chat. */
  #renderHistory() {
    this.#historyBox.hidden = !this.#historyOpen;
    if (!this.#historyOpen) return;
    const query = this.#search.value.trim();
    // Until the worker answers this query, the titles that match it already.
    const chats = !query
      ? this.#chats
      : this.#results?.query === query
        ? this.#results.chats
        : this.#chats.filter((c) => c.title.toLowerCase().includes(query.toLowerCase()));
    this.#list.replaceChildren(
      ...historyList({
        chats,
        query,
        currentId: this.#chat?.id,
        open: (chatId) => {
          this.#historyOpen = false;
          this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId }));
          this.requestUpdate('chats');
        },
      }),
    );
  }

  /** The chat's own actions fold under "More" so the row fits 320 px: New, history and Settings stay. */
  #more() {
    const chat = this.#chat;
    const none = !chat;
    const more = el(
      'details',
      { class: 'more', open: this.#moreOpen },
      el('summary', {}, t('chatMore')),
      el(
        'div',
        { class: 'menu' },
        button(t('chatRename'), 'rename', () => this.#rename(), none),
        button(t('chatSystemPromptMenu'), 'system-prompt', () => this.#openPrompt(), none),
        button(
          t('chatDelete'),
          'delete',
          () => chat && this.dispatchEvent(new ChatActionEvent({ action: 'delete', chatId: chat.id })),
          none,
        ),
        button(
          t('chatExportMarkdown'),
          'export-md',
          () => chat && downloadText(`chat-${chat.id}.md`, chatAsMarkdown(chat), 'text/markdown'),
          none,
        ),
        button(t('chatExportJson'), 'export-json', () => chat && downloadText(`chat-${chat.id}.json`, JSON.stringify(chat, null, 2)), none),
      ),
    );
    // The header is rebuilt on every update: the menu stays as the user left it.
    more.addEventListener('toggle', () => (this.#moreOpen = more.open));
    return more;
  }

  /** Opens the chat's system prompt form (T5): focus goes into its textarea, and back to "More" when it closes. */
  #openPrompt() {
    const chat = this.#chat;
    if (!chat) return;
    const form = systemPromptForm(chat.systemPrompt, {
      save: (systemPrompt) =>
        new Promise((answer) =>
          this.dispatchEvent(new ChatActionEvent({ action: 'system-prompt', chatId: chat.id, systemPrompt, answer })),
        ),
      close: () => {
        form.remove();
        this.querySelector<HTMLElement>('.more > summary')?.focus();
      },
    });
    this.#moreOpen = false;
    this.#promptBox.replaceChildren(form);
    this.requestUpdate('chat');
    void this.updateComplete.then(() => form.querySelector('textarea')?.focus());
  }

  #rename() {
    const chat = this.#chat;
    if (!chat) return;
    const input = el('input', { name: 'title', 'aria-label': t('chatRenamePrompt') });
    input.value = chat.title;
    const ok = el('button', { type: 'submit', 'data-role': 'primary' }, t('chatRename'));
    const form = el('form', { class: 'rename' }, input, ok);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const title = input.value.trim();
      if (title) this.dispatchEvent(new ChatActionEvent({ action: 'rename', chatId: chat.id, title }));
      form.remove();
    });
    this.#header.append(form);
    input.focus();
  }
}
