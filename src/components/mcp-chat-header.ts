/**
 * The Chat view's header: the chat's title, its model and provider, and the chat actions (new,
 * history, settings; rename, delete and export folded under "More"). It renders into its own
 * children (no shadow root), so the Chat view's styles and selectors reach it unchanged.
 */
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { ChatActionEvent } from './chat-events.js';
import { downloadText } from './download.js';
import { chatAsMarkdown } from './chat-export.js';
import type { ChatSummary, ChatView, ProviderSettingsView } from '../protocol/panel-chat.js';
import type { MessageKey } from '../i18n/en.js';

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
`;

const KIND: Record<string, MessageKey> = { openai: 'chatKindOpenai', anthropic: 'chatKindAnthropic', builtin: 'chatKindBuiltin' };

/** "model · provider kind · host": the chat's own provider, else the one set up now. */
function modelLine(chat: ChatView | undefined, provider: ProviderSettingsView | undefined | null): string {
  const p =
    chat?.provider ??
    (provider ? { kind: provider.kind, model: provider.model, host: provider.baseUrl ? new URL(provider.baseUrl).host : '' } : undefined);
  return p ? [p.model, t(KIND[p.kind]!), p.host].filter(Boolean).join(' · ') : '';
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
  readonly #header = el('header');
  /** Called when the Settings button is pressed: the Chat view shows or hides the provider form. */
  onSettings: () => void = () => {};

  constructor() {
    super();
    // Shown before any input arrives, as the empty chat's frame.
    this.requestUpdate();
  }

  set chat(value: ChatView | undefined) {
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
    if (this.#header.parentNode !== this) this.append(this.#header);
  }

  protected override update() {
    const chat = this.#chat;
    const title = el('h2', {}, chat?.title || t('chatUntitled'));
    title.title = chat?.title || t('chatUntitled');
    const actions = el(
      'div',
      { class: 'actions' },
      button(t('chatNew'), 'new', () => this.dispatchEvent(new ChatActionEvent({ action: 'new' }))),
      this.#history(),
      button(t('chatSettings'), 'settings', () => this.onSettings()),
      this.#more(),
    );
    this.#header.replaceChildren(
      el('div', { class: 'title-row' }, title),
      el('p', { class: 'model' }, modelLine(chat, this.#provider)),
      actions,
    );
  }

  #history() {
    const history = el('select', { class: 'history', 'aria-label': t('chatHistory') });
    history.append(
      el('option', { value: '' }, t('chatHistory')),
      ...this.#chats.map((c) => el('option', { value: c.id, selected: c.id === this.#chat?.id }, c.title || t('chatUntitled'))),
    );
    history.addEventListener('change', () => {
      if (history.value) this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId: history.value }));
    });
    return history;
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
