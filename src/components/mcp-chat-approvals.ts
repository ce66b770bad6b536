/**
 * The Chat view's approvals: the approval cards of this chat's calls, inline after its steps, and
 * one line per other chat whose run waits for an approval, with a button that opens it. Renders
 * into its own children (no shadow root), so the Chat view's styles and selectors reach it
 * unchanged. It renders as each input is set, not batched: a card appears with the push.
 *
 * A new card is announced (a status region) and takes the focus, unless the user is writing in a
 * text field (a draft in the composer, an edit, the search): moving the caret away from a sentence
 * being written would send keystrokes into the card, and the announcement says where it is. The
 * composer just emptied by Enter holds no draft, so after a send the card does take the focus.
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

/** The focused element, looked up through open shadow roots. */
function deepActive(): Element | null {
  let a: Element | null = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

const NOT_TEXT = ['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'];

/** Whether the user is writing in a text field now: it has the focus and holds a draft. */
export function writingInField(): boolean {
  const a = deepActive();
  if (a instanceof HTMLElement && a.isContentEditable) return (a.textContent ?? '').trim() !== '';
  const field = a instanceof HTMLTextAreaElement || (a instanceof HTMLInputElement && !NOT_TEXT.includes(a.type)) ? a : undefined;
  return field !== undefined && field.value.trim() !== '';
}

/** Focus on the card's dialog itself, not a decision button: a stray Enter must not answer it. */
async function focusCard(card: HTMLElement & { updateComplete?: Promise<unknown> }) {
  await card.updateComplete;
  const dialog = card.shadowRoot?.querySelector<HTMLElement>('[role="alertdialog"]');
  if (!dialog) return;
  dialog.tabIndex = -1;
  dialog.focus();
}

export class McpChatApprovalsElement extends ElementBase {
  #approvals: ApprovalView[] = [];
  #waitingChats: string[] = [];
  #chats: ChatSummary[] = [];
  readonly #box = el('div', { class: 'approvals' });
  readonly #announce = el('p', { class: 'sr-only', role: 'status' });
  /** The cards shown so far: a card not among them is new. */
  #seen = new Set<string>();

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
    if (this.#box.parentNode !== this) this.append(this.#box, this.#announce);
  }

  #render() {
    const existing = new Map([...this.#box.querySelectorAll('mcp-approval-card')].map((c) => [c.approval?.id, c]));
    const fresh: HTMLElement[] = [];
    this.#box.replaceChildren(
      ...this.#approvals.map((a) => {
        const card = existing.get(a.id) ?? document.createElement('mcp-approval-card');
        if (card.approval?.id !== a.id || card.approval.status !== a.status) card.approval = a;
        if (a.status === 'pending' && !this.#seen.has(a.id)) fresh.push(card);
        return card;
      }),
      ...this.#waitingChats.map((chatId) => this.#waiting(chatId)),
    );
    this.#seen = new Set(this.#approvals.map((a) => a.id));
    if (fresh.length) this.#arrived(fresh[0]!);
  }

  /** A new card: said aloud, and focused unless the user is typing (see the file comment). */
  #arrived(card: HTMLElement) {
    this.#announce.textContent = '';
    this.#announce.textContent = t('chatApprovalAnnounce');
    if (this.isConnected && !writingInField()) void focusCard(card);
  }

  #waiting(chatId: string): HTMLElement {
    const title = this.#chats.find((c) => c.id === chatId)?.title || t('chatUntitled');
    const open = el('button', { type: 'button', 'data-role': 'quiet', 'data-chat': chatId }, t('chatOpenWaiting'));
    open.addEventListener('click', () => this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId })));
    return el('p', { class: 'waiting-elsewhere' }, t('chatOtherWaiting', title), ' ', open);
  }
}
