/**
 * A message's own actions in the chat (T5): copy it as Markdown (every message, with a "Copied"
 * confirmation), edit and resend (the user's messages), regenerate (the last turn). The edit form
 * says what resending does: the message and everything after it are replaced, the old answers
 * are not kept. Buttons are real buttons, so the keyboard reaches each one.
 */
import { el } from './dom.js';
import { t } from './i18n.js';
import { messageAsMarkdown } from './chat-export.js';
import type { ChatEntry } from '../protocol/panel-chat.js';

type Message = Extract<ChatEntry, { kind: 'user' | 'assistant' }>;

export const chatMessageActionsCss = `
.msg-actions { display: flex; flex-wrap: wrap; gap: 2px; justify-content: flex-end; }
li.assistant .msg-actions { justify-content: flex-start; }
.msg-actions button { padding: 0 6px; font-size: 0.85em; font-style: normal; }
.notice .msg-actions, .provider-error .msg-actions { justify-content: flex-start; margin-top: 2px; }
.edited { color: var(--fg-muted); font-size: 0.8em; justify-self: end; }
form.edit { display: grid; gap: var(--space-1); justify-self: stretch; max-width: none; }
form.edit textarea { width: 100%; box-sizing: border-box; min-height: 4em; resize: vertical; font: inherit; }
form.edit .hint { margin: 0; color: var(--fg-muted); font-size: 0.85em; white-space: normal; }
form.edit .row { display: flex; gap: var(--space-2); justify-content: flex-end; }
`;

function quiet(label: string, cls: string, onClick: () => void, aria?: string): HTMLButtonElement {
  const b = el('button', { type: 'button', class: cls, 'data-role': 'quiet', ...(aria ? { 'aria-label': aria, title: aria } : {}) }, label);
  b.addEventListener('click', onClick);
  return b;
}

/** Copies the message as Markdown; the button says "Copied" (announced by the log's live region). */
export function copyButton(e: Message): HTMLButtonElement {
  const b = quiet(
    t('chatCopy'),
    'copy-message',
    () => {
      void navigator.clipboard
        .writeText(messageAsMarkdown(e))
        .then(() => {
          b.textContent = t('chatCopied');
          b.dataset.copied = '';
        })
        .catch(() => undefined);
    },
    t('chatCopyMessage'),
  );
  return b;
}

export interface MessageActionHandlers {
  edit?: () => void;
  regenerate?: () => void;
}

export function messageActions(e: Message, on: MessageActionHandlers): HTMLElement {
  return el(
    'div',
    { class: 'msg-actions' },
    copyButton(e),
    on.edit ? quiet(t('chatEdit'), 'edit-message', on.edit) : null,
    on.regenerate ? quiet(t('chatRegenerate'), 'regenerate', on.regenerate, t('chatRegenerateHint')) : null,
  );
}

/** The last turn's Regenerate where it ended without an answer to copy (an error, a notice, a step). */
export function regenerateRow(onRegenerate: () => void): HTMLElement {
  return el('div', { class: 'msg-actions' }, quiet(t('chatRegenerate'), 'regenerate', onRegenerate, t('chatRegenerateHint')));
}

/** The edit-and-resend form in place of a user message; kept across renders so the draft and focus stay. */
export function editForm(text: string, resend: (text: string) => void, cancel: () => void): HTMLFormElement {
  const area = el('textarea', { name: 'edit', 'aria-label': t('chatEditLabel') });
  area.value = text;
  const hint = el('p', { class: 'hint', id: 'edit-hint' }, t('chatEditHint'));
  area.setAttribute('aria-describedby', 'edit-hint');
  const form = el(
    'form',
    { class: 'edit' },
    area,
    hint,
    el(
      'div',
      { class: 'row' },
      quiet(t('cancel'), 'cancel-edit', cancel),
      el('button', { type: 'submit', class: 'resend', 'data-role': 'primary' }, t('chatEditResend')),
    ),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const value = area.value.trim();
    if (value) resend(value);
  });
  area.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') cancel();
  });
  return form;
}
