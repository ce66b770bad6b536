/**
 * What the chat is doing while nothing else shows it (T1): "Waiting for the model…" from Enter to
 * the first token, and a retry's countdown with a Cancel (which is Stop). The line is added to a
 * status region once per phase, so a screen reader hears it once; the seconds then tick in a part
 * that is not announced again.
 */
import { el } from './dom.js';
import { t } from './i18n.js';
import type { ChatView } from '../protocol/panel-chat.js';

type Phase = NonNullable<ChatView['phase']>;

export const chatPhaseCss = `
.phase-box:empty { display: none; }
.phase { margin: 0; color: var(--fg-muted); display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-2); align-items: baseline; }
`;

function retryText(p: Extract<Phase, { kind: 'retrying' }>, now: number): string {
  const seconds = String(Math.max(0, Math.ceil((p.until - now) / 1000)));
  return p.status !== undefined
    ? t('chatRetrying', String(p.status), seconds, String(p.attempt))
    : t('chatRetryingNoStatus', seconds, String(p.attempt));
}

export class ChatPhaseLine {
  readonly element = el('div', { class: 'phase-box', role: 'status' });
  #shown = '';
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Shows `phase` (none: nothing); `answering`: the model's first words arrived, so it no longer waits. */
  show(phase: Phase | undefined, answering: boolean, onCancel: () => void, now: () => number = Date.now): void {
    const shown = !phase || (phase.kind === 'waiting-model' && answering) ? '' : JSON.stringify(phase);
    if (shown === this.#shown) return;
    this.#shown = shown;
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (!shown || !phase) return this.element.replaceChildren();
    if (phase.kind === 'waiting-model') {
      this.element.replaceChildren(el('p', { class: 'phase waiting-model', 'data-phase': 'waiting-model' }, t('chatWaitingModel')));
      return;
    }
    const text = el('span', { class: 'countdown', 'aria-live': 'off' }, retryText(phase, now()));
    const cancel = el('button', { type: 'button', class: 'cancel-retry', 'data-role': 'quiet' }, t('chatCancelRetry'));
    cancel.addEventListener('click', onCancel);
    this.element.replaceChildren(el('p', { class: 'phase retrying', 'data-phase': 'retrying' }, text, cancel));
    this.#timer = setInterval(() => {
      text.textContent = retryText(phase, now());
      if (now() >= phase.until) clearInterval(this.#timer);
    }, 1000);
  }
}
