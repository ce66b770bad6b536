/**
 * A server's question during a tool call (SPEC I1, K3): the server's message as text, the
 * server's name as provenance, a form generated from its `requestedSchema`, and Send / Decline /
 * Cancel — or, for a URL-mode question (R5), the page's full address with its origin emphasized
 * and a link that opens it in a new tab. An open question says that the server may stop waiting, and for how long it has waited
 * (the server's own limit is not announced; the SDKs default to 60 s). A question whose call the
 * server ended says in plain words that the server stopped waiting after N s (I1), never the raw
 * error it sent. A question that could not be answered because the extension restarted (I3) shows
 * the reason and offers to re-run the tool call only after the user ticks "I confirm it is safe".
 */
import { ElementBase } from './element-base.js';
import type { ElicitationView } from '../protocol/panel-use.js';
import { el, sheet } from './dom.js';
import { ElicitationAnswerEvent, InteractionActionEvent } from './events.js';
import { t } from './i18n.js';
import { openableElicitationUrl } from '../common/elicitation-url.js';

const css = sheet(`
:host { border: 2px solid var(--accent); border-radius: var(--radius); padding: var(--space-2); margin: var(--space-1) 0; }
:host([status="failed"]) { border-color: var(--danger); }
section:focus { outline: none; }
:host(:focus-within) { box-shadow: 0 0 0 2px var(--focus); }
h3 { margin: 0 0 4px; font-size: 14px; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.actions { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 6px; }
label.confirm { display: flex; gap: 6px; align-items: center; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; }
.may-stop { margin: 4px 0; font-size: var(--text-small); }
.waited { font-variant-numeric: tabular-nums; }
.url { font-family: ui-monospace, monospace; overflow-wrap: anywhere; margin: 4px 0; }
.url .origin { font-weight: 700; }
a.open-url { display: inline-block; padding: 4px 10px; border-radius: var(--radius); background: var(--accent); color: var(--accent-fg); text-decoration: none; }
a.open-url:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
`);

export class McpElicitationCardElement extends ElementBase {
  #view: ElicitationView | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [css];
  }

  set interaction(value: ElicitationView | undefined) {
    this.#view = value;
    if (value) this.setAttribute('status', value.status);
    this.requestUpdate();
  }
  get interaction() {
    return this.#view;
  }

  connectedCallback() {
    // Moved next to its runner: the clock goes on (the form and what was typed stay).
    if (this.#view) this.#tick(this.#view);
  }

  disconnectedCallback() {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  /**
   * Moves focus to the question (the dialog, named by the server's message), for a card placed
   * next to the call the user just started.
   */
  focusQuestion() {
    this.shadowRoot!.querySelector<HTMLElement>('section')?.focus();
  }

  /** The outcome of a re-run, as text (the card stays until it is dismissed). */
  showRerunOutcome(text: string, isError: boolean) {
    const out = this.shadowRoot!.querySelector('.rerun-outcome');
    if (!out) return;
    out.className = `rerun-outcome${isError ? ' error' : ''}`;
    out.textContent = text;
  }

  protected override update() {
    const v = this.#view;
    const root = this.shadowRoot!;
    if (!v) {
      root.replaceChildren();
      return;
    }
    const from = el('p', { class: 'from muted', id: 'from' }, t('elicitationFrom', v.serverName, v.tool ?? '?'));
    root.replaceChildren(v.status === 'pending' ? this.#pending(v, from) : this.#failed(v, from));
    this.#tick(v);
  }

  /** "Waiting for 12 s", once a second while the question is open (a timer, not a live region). */
  #tick(v: ElicitationView) {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    const out = this.shadowRoot!.querySelector('.waited');
    if (!out || v.askedAt === undefined) return;
    const askedAt = v.askedAt;
    const show = () => (out.textContent = t('elicitationWaiting', String(Math.max(0, Math.floor((Date.now() - askedAt) / 1000)))));
    show();
    if (this.isConnected) this.#ticker = setInterval(show, 1000);
  }

  #pending(v: ElicitationView, from: HTMLElement) {
    if (v.url !== undefined) return this.#pendingUrl(v, from);
    const form = document.createElement('mcp-schema-form');
    form.schema = v.requestedSchema;
    const buttons: HTMLButtonElement[] = [];
    const send = (action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) => {
      for (const b of buttons) b.disabled = true;
      this.emit(new ElicitationAnswerEvent(v.id, action, content));
    };
    const button = (action: 'accept' | 'decline' | 'cancel', label: string) => {
      const b = el('button', { type: 'button', 'data-action': action }, label);
      b.addEventListener('click', () => {
        if (action !== 'accept') return send(action);
        const read = form.read();
        if (read.ok) send('accept', read.value);
      });
      buttons.push(b);
      return b;
    };
    return el(
      'section',
      { role: 'dialog', 'aria-labelledby': 'message', 'aria-describedby': 'from', tabindex: '-1' },
      el('p', { class: 'message', id: 'message' }, v.message),
      from,
      el(
        'p',
        { class: 'may-stop muted' },
        t('elicitationMayStop', v.serverName),
        v.askedAt !== undefined ? ' · ' : '',
        v.askedAt !== undefined ? el('span', { class: 'waited', role: 'timer' }) : null,
      ),
      form,
      el(
        'div',
        { class: 'actions' },
        button('accept', t('elicitationAccept')),
        button('decline', t('elicitationDecline')),
        button('cancel', t('elicitationCancel')),
      ),
    );
  }

  /**
   * A URL-mode question (R5): the full address as text with its origin emphasized, opened in a new
   * tab only by the user's click on the link (a real link: the browser opens it, `noopener
   * noreferrer`), which also answers "accept"; Decline and Cancel as for a form.
   */
  #pendingUrl(v: ElicitationView, from: HTMLElement) {
    const url = openableElicitationUrl(v.url);
    const buttons: HTMLElement[] = [];
    const send = (action: 'accept' | 'decline' | 'cancel') => {
      for (const b of buttons) b.setAttribute('aria-disabled', 'true');
      this.emit(new ElicitationAnswerEvent(v.id, action));
    };
    const button = (action: 'decline' | 'cancel', label: string) => {
      const b = el('button', { type: 'button', 'data-action': action }, label);
      b.addEventListener('click', () => send(action));
      buttons.push(b);
      return b;
    };
    let open: HTMLElement | null = null;
    if (url) {
      open = el(
        'a',
        {
          class: 'open-url',
          href: url.href,
          target: '_blank',
          rel: 'noopener noreferrer',
          'data-action': 'accept',
          'aria-label': t('elicitationUrlOpenNamed', url.href),
        },
        t('elicitationUrlOpen'),
      );
      open.addEventListener('click', () => send('accept'));
      buttons.push(open);
    }
    const shown = url
      ? el('p', { class: 'url' }, el('strong', { class: 'origin' }, url.origin), url.href.slice(url.origin.length))
      : el('p', { class: 'error' }, t('elicitationUrlRefused'));
    return el(
      'section',
      { role: 'dialog', 'aria-labelledby': 'message', 'aria-describedby': 'from', tabindex: '-1' },
      el('p', { class: 'message', id: 'message' }, v.message),
      from,
      url ? el('p', { class: 'url-intro' }, t('elicitationUrlIntro', url.origin)) : null,
      shown,
      el('p', { class: 'may-stop muted' }, t('elicitationMayStop', v.serverName)),
      el('div', { class: 'actions' }, open, button('decline', t('elicitationDecline')), button('cancel', t('elicitationCancel'))),
    );
  }

  #failed(v: ElicitationView, from: HTMLElement) {
    const confirm = el('input', { type: 'checkbox', class: 'confirm-safe' });
    const rerun = el('button', { type: 'button', 'data-action': 'rerun', disabled: true }, t('rerun'));
    confirm.addEventListener('change', () => (rerun.disabled = !confirm.checked));
    rerun.addEventListener('click', () => {
      // The confirmation is the user's statement that sending the call again is safe (H3).
      if (!confirm.checked) return;
      rerun.disabled = true;
      confirm.disabled = true;
      this.emit(new InteractionActionEvent(v.id, 'rerun'));
    });
    const dismiss = el('button', { type: 'button', 'data-action': 'dismiss' }, t('dismiss'));
    dismiss.addEventListener('click', () => this.emit(new InteractionActionEvent(v.id, 'dismiss')));
    return el(
      'section',
      { role: 'alert', 'aria-describedby': 'from' },
      el(
        'p',
        { class: 'reason error' },
        v.stoppedAfterSec !== undefined
          ? t('elicitationServerStopped', v.serverName, String(v.stoppedAfterSec))
          : t('elicitationFailed', v.reason ?? ''),
      ),
      el('p', { class: 'message' }, v.message),
      from,
      v.canRerun ? el('label', { class: 'confirm' }, confirm, el('span', {}, t('rerunConfirm'))) : null,
      el('div', { class: 'actions' }, v.canRerun ? rerun : null, dismiss),
      el('pre', { class: 'rerun-outcome', role: 'status' }),
    );
  }
}
