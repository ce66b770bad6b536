/**
 * The Chat view's approvals: the approval cards of this chat's calls, inline after its steps, and
 * one line per other chat whose run waits for an approval, with a button that opens it. Renders
 * into its own children (no shadow root), so the Chat view's styles and selectors reach it
 * unchanged. It renders as each input is set, not batched: a card appears with the push.
 */
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { ChatActionEvent } from './chat-events.js';
import type { ChatSummary } from '../protocol/panel-chat.js';
import type { ApprovalView } from '../protocol/panel-use.js';

export const chatApprovalsCss = `
mcp-chat-approvals { display: contents; }
.approvals:empty { display: none; }
.waiting-elsewhere { margin: 0; color: var(--fg-muted); }
`;

export class McpChatApprovalsElement extends ElementBase {
  #approvals: ApprovalView[] = [];
  #waitingChats: string[] = [];
  #chats: ChatSummary[] = [];
  readonly #box = el('div', { class: 'approvals' });

  /** This chat's approval cards (matched by its run). */
  set approvals(value: ApprovalView[]) {
    this.#approvals = value;
    this.#render();
  }
  /** Other chats whose runs wait for an approval. */
  set waitingChats(value: string[]) {
    this.#waitingChats = value;
    this.#render();
  }
  /** The chat list, for the waiting chats' titles. */
  set chats(value: ChatSummary[]) {
    this.#chats = value;
    this.#render();
  }

  connectedCallback() {
    if (this.#box.parentNode !== this) this.append(this.#box);
  }

  #render() {
    const existing = new Map([...this.#box.querySelectorAll('mcp-approval-card')].map((c) => [c.approval?.id, c]));
    this.#box.replaceChildren(
      ...this.#approvals.map((a) => {
        const card = existing.get(a.id) ?? document.createElement('mcp-approval-card');
        if (card.approval?.id !== a.id || card.approval.status !== a.status) card.approval = a;
        return card;
      }),
      ...this.#waitingChats.map((chatId) => this.#waiting(chatId)),
    );
  }

  #waiting(chatId: string): HTMLElement {
    const title = this.#chats.find((c) => c.id === chatId)?.title || t('chatUntitled');
    const open = el('button', { type: 'button', 'data-role': 'quiet', 'data-chat': chatId }, t('chatOpenWaiting'));
    open.addEventListener('click', () => this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId })));
    return el('p', { class: 'waiting-elsewhere' }, t('chatOtherWaiting', title), ' ', open);
  }
}
