/**
 * "Copy diagnostics" (V3), at the foot of the Activity view: the button asks the worker for the
 * report (src/sw/diagnostics/report.ts writes it without secrets), the report is shown in full
 * for the user to read, and only the user's click on Copy puts it on the clipboard.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { DiagnosticsRequestEvent } from './events.js';
import { t } from './i18n.js';

const css = sheet(`
h3 { margin: var(--space-3, 12px) 0 var(--space-1); font-size: var(--text-body); }
pre { max-height: 40vh; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: var(--text-small, 12px);
  border: 1px solid var(--border); border-radius: var(--radius, 6px); padding: var(--space-2); margin: var(--space-2) 0; }
.bar { display: flex; flex-wrap: wrap; gap: var(--space-2); }
`);

export class McpDiagnosticsElement extends ElementBase {
  #report: string | undefined;
  readonly #heading = el('h3', { id: 'diagnostics-title' });
  readonly #show = el('button', { type: 'button', 'data-action': 'show' });
  readonly #intro = el('p', { class: 'muted' });
  readonly #preview = el('pre', { tabindex: '0', role: 'region' });
  readonly #copy = el('button', { type: 'button', 'data-action': 'copy', 'data-role': 'primary' });
  readonly #close = el('button', { type: 'button', 'data-action': 'close' });
  readonly #status = el('p', { class: 'status muted', role: 'status' });
  readonly #open: HTMLDivElement = el(
    'div',
    { class: 'open' },
    this.#intro,
    this.#preview,
    el('div', { class: 'bar' }, this.#copy, this.#close),
  );

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#show.addEventListener('click', () => {
      this.#show.disabled = true;
      this.#status.textContent = '';
      this.emit(new DiagnosticsRequestEvent());
    });
    this.#copy.addEventListener('click', () => void this.#copyReport());
    this.#close.addEventListener('click', () => {
      this.#report = undefined;
      this.#status.textContent = '';
      this.requestUpdate();
      this.#show.focus();
    });
    root.append(el('section', { 'aria-labelledby': 'diagnostics-title' }, this.#heading, this.#show, this.#open, this.#status));
    this.update();
  }

  /** The report the worker wrote, shown for reading before it is copied. */
  showReport(text: string) {
    this.#report = text;
    this.#show.disabled = false;
    this.requestUpdate();
    void this.updateComplete.then(() => this.#preview.focus());
  }

  showError(message: string) {
    this.#show.disabled = false;
    this.#status.textContent = message;
  }

  async #copyReport() {
    if (this.#report === undefined) return;
    try {
      await navigator.clipboard.writeText(this.#report);
      this.#status.textContent = t('diagnosticsCopied');
    } catch {
      this.#status.textContent = t('diagnosticsCopyFailed');
    }
  }

  protected override update() {
    this.#heading.textContent = t('diagnosticsTitle');
    this.#show.textContent = t('diagnosticsShow');
    this.#intro.textContent = t('diagnosticsIntro');
    this.#preview.setAttribute('aria-label', t('diagnosticsPreview'));
    this.#copy.textContent = t('diagnosticsCopy');
    this.#close.textContent = t('diagnosticsClose');
    this.#open.hidden = this.#report === undefined;
    this.#show.hidden = this.#report !== undefined;
    this.#preview.textContent = this.#report ?? '';
  }
}
