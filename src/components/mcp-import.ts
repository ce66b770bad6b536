/**
 * Paste-JSON import and configuration export (SPEC B2, B4, K1). The user pastes a config, asks
 * for a preview (computed by the worker through the offscreen document, SPEC B3), sees what will
 * be added, skipped or conflicts and why, fills in placeholders (secrets in password fields),
 * ticks "overwrite" for each conflict they accept, and imports. The element never parses the
 * config itself: it only renders the preview it is given, as text (SPEC K5).
 *
 * Each problem is one list item; a value an entry to import still needs is flagged at its field
 * before Import is sent; results ("Imported 3 servers", "Exported …") fade after a while.
 */
import { ElementBase } from './element-base.js';
import type { ImportEntry, ImportPreview, Placeholder } from '../import/import-schema.js';
import { el, sheet } from './dom.js';
import { ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent } from './events.js';
import { t, tReason } from './i18n.js';
import { signInHint } from '../import/sign-in-hint.js';
import { authSummary, type AuthSummary } from '../import/auth-summary.js';
import type { MessageKey } from '../i18n/en.js';

/** How long a result stays before it fades out. */
const RESULT_VISIBLE_MS = 6000;
const FADE_MS = 600;

/** The tool a pasted config came from, by the name users know it by; `unknown` shows none. */
const DIALECT_NAMES: Partial<Record<ImportPreview['dialect'], MessageKey>> = {
  'claude-code': 'importDialectClaudeCode',
  'claude-desktop': 'importDialectClaudeDesktop',
  cursor: 'importDialectCursor',
  vscode: 'importDialectVsCode',
  windsurf: 'importDialectWindsurf',
  gemini: 'importDialectGemini',
  'server-map': 'importDialectServerMap',
  single: 'importDialectSingle',
  list: 'importDialectList',
  export: 'importDialectExport',
};

const css = sheet(`
h2 { font-size: 14px; margin: 0 0 6px; }
textarea { width: 100%; box-sizing: border-box; min-height: 90px; font-family: ui-monospace, monospace; font-size: 12px; background: Field; color: FieldText; border: 1px solid var(--border, #8888); border-radius: 6px; }
.bar { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; align-items: center; }
table { border-collapse: collapse; width: 100%; font-size: 12px; table-layout: fixed; }
th, td { text-align: left; padding: 3px 4px; border-top: 1px solid #8883; vertical-align: top; overflow-wrap: anywhere; }
th:nth-child(1) { width: 28%; } th:nth-child(3) { width: 34%; }
.url { font-family: ui-monospace, monospace; }
.status-add { color: var(--ok, #1e7e34); } .status-conflict { color: #a15c00; }
/* Plain text: the status colour of a conflict row is too faint for a sentence. */
.sign-in { color: CanvasText; }
@media (prefers-color-scheme: dark) { .status-add { color: #7ed491; } .status-conflict { color: #f0b35a; } }
fieldset { border: 1px solid #8884; border-radius: 6px; margin: 6px 0; padding: 6px; display: grid; gap: 4px; }
fieldset label { display: grid; gap: 2px; font-size: 12px; }
fieldset input { padding: 3px 6px; border: 1px solid var(--border, #8888); border-radius: 6px; background: Field; color: FieldText; }
ul.errors { margin: 4px 0; padding-left: 18px; }
ul.errors:empty { display: none; }
.auth { color: var(--fg-muted); }
.field-error { color: var(--danger); font-size: var(--text-small); }
input[aria-invalid="true"] { border-color: var(--danger); }
p.result-done { transition: opacity ${FADE_MS}ms ease-out; }
p.result-done.fading { opacity: 0; }
@media (prefers-reduced-motion: reduce) { p.result-done { transition: none; } }
`);

export class McpImportElement extends ElementBase {
  #preview: ImportPreview | undefined;
  /** The text the preview was made from: what Import sends, even if the textarea changed since. */
  #previewedText = '';
  readonly #text = el('textarea', { spellcheck: 'false', autocomplete: 'off' });
  readonly #previewButton = el('button', { type: 'button', 'data-action': 'preview' }, t('preview'));
  readonly #importButton = el('button', { type: 'button', 'data-action': 'import', hidden: true }, t('importButton'));
  readonly #result = el('div', { class: 'result' });
  readonly #status = el('p', { role: 'status' });
  /** One item per problem, so several never run into one sentence. */
  readonly #problems = el('ul', { class: 'errors error problems', role: 'alert' });
  #fadeTimers: ReturnType<typeof setTimeout>[] = [];
  /** How long a result stays before fading (tests shorten it). */
  resultVisibleMs = RESULT_VISIBLE_MS;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const textId = 'import-text';
    this.#text.id = textId;
    this.#previewButton.addEventListener('click', () => this.#askPreview());
    this.#importButton.addEventListener('click', () => this.#apply());
    const exportButton = el('button', { type: 'button', 'data-action': 'export' }, t('exportConfig'));
    exportButton.addEventListener('click', () => this.emit(new ExportConfigEvent()));
    root.append(
      el('h2', {}, t('importTitle')),
      el('label', { for: textId, class: 'muted' }, t('importPaste')),
      this.#text,
      el('div', { class: 'bar' }, this.#previewButton, exportButton),
      this.#result,
      el('div', { class: 'bar' }, this.#importButton),
      this.#status,
      this.#problems,
    );
  }

  /** The pasted text. */
  get value(): string {
    return this.#text.value;
  }
  set value(text: string) {
    this.#text.value = text;
  }

  get preview(): ImportPreview | undefined {
    return this.#preview;
  }

  /** Entries that Import would send now: adds, and conflicts whose overwrite box is ticked. */
  get selectedEntries(): ImportEntry[] {
    const overwrite = new Set(this.#overwrite());
    return (this.#preview?.entries ?? []).filter((e) => e.status === 'add' || (e.status === 'conflict' && overwrite.has(e.name)));
  }

  showPreview(preview: ImportPreview) {
    this.#preview = preview;
    this.#previewButton.disabled = false;
    this.#setStatus('');
    this.#problems.replaceChildren();
    this.#renderPreview(preview);
    this.#syncImportButton();
  }

  /**
   * A preview that failed: the previous preview and its Import button go too, so nothing on
   * screen offers to import a text that was not checked.
   */
  showPreviewFailed(message: string) {
    this.#preview = undefined;
    this.#previewedText = '';
    this.#result.replaceChildren();
    this.#importButton.hidden = true;
    this.showError(message);
  }

  /** Problems, one per line. */
  showError(messages: string | readonly string[]) {
    this.#previewButton.disabled = false;
    this.#importButton.disabled = false;
    this.#setStatus('');
    const list = typeof messages === 'string' ? [messages] : messages;
    this.#problems.replaceChildren(...list.map((message) => el('li', {}, message)));
  }

  /**
   * After a successful import the form is cleared so the secrets typed in do not linger.
   * `problems`: entries the user chose that could not be imported after all.
   */
  showImported(count: number, problems: readonly string[] = []) {
    this.#preview = undefined;
    this.#previewedText = '';
    this.#text.value = '';
    this.#result.replaceChildren();
    this.#importButton.hidden = true;
    this.#importButton.disabled = false;
    this.#problems.replaceChildren(...problems.map((message) => el('li', {}, message)));
    this.#setStatus(count === 1 ? t('importDoneOne') : t('importDoneMany', String(count)), { fades: true });
  }

  /** The export was downloaded: says how many servers went into which file. */
  showExported(count: number, fileName: string) {
    this.#problems.replaceChildren();
    this.#setStatus(count === 1 ? t('exportDoneOne', fileName) : t('exportDoneMany', String(count), fileName), { fades: true });
  }

  #setStatus(text: string, { fades = false } = {}) {
    for (const timer of this.#fadeTimers) clearTimeout(timer);
    this.#fadeTimers = [];
    this.#status.className = fades ? 'result-done' : '';
    this.#status.textContent = text;
    if (!fades) return;
    this.#fadeTimers.push(
      setTimeout(() => this.#status.classList.add('fading'), this.resultVisibleMs),
      setTimeout(() => this.#setStatus(''), this.resultVisibleMs + FADE_MS),
    );
  }

  #askPreview() {
    const text = this.#text.value;
    if (!text.trim()) return;
    this.#previewedText = text;
    this.#previewButton.disabled = true;
    this.#problems.replaceChildren();
    this.#setStatus(t('previewing'));
    this.emit(new ImportPreviewEvent(text));
  }

  #overwrite(): string[] {
    return [...this.#result.querySelectorAll<HTMLInputElement>('input[data-overwrite]')]
      .filter((b) => b.checked)
      .map((b) => b.dataset['overwrite']!);
  }

  #values(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const input of this.#result.querySelectorAll<HTMLInputElement>('input[data-token]')) {
      if (input.value !== '') values[input.dataset['token']!] = input.value;
    }
    return values;
  }

  #apply() {
    const selected = this.selectedEntries;
    if (selected.length === 0) {
      this.showError(t('importNothing'));
      return;
    }
    if (!this.#checkRequired(selected)) return;
    const event = new ImportApplyEvent({ text: this.#previewedText, values: this.#values(), overwrite: this.#overwrite() });
    if (!this.emit(event)) return;
    this.#importButton.disabled = true;
    this.#problems.replaceChildren();
    this.#setStatus(t('importing'));
  }

  /**
   * Flags every empty field that an entry about to be imported needs (no default to fall back
   * on) and focuses the first; true when there is none.
   */
  #checkRequired(selected: readonly ImportEntry[]): boolean {
    const required = new Set(
      selected.flatMap((entry) => entry.placeholders.filter((p) => p.defaultValue === undefined).map((p) => p.token)),
    );
    const empty = [...this.#result.querySelectorAll<HTMLInputElement>('input[data-token]')].filter(
      (input) => required.has(input.dataset['token']!) && input.value.trim() === '',
    );
    for (const input of empty) this.#markField(input, true);
    empty[0]?.focus();
    return empty.length === 0;
  }

  #markField(input: HTMLInputElement, invalid: boolean) {
    const message = this.#result.querySelector<HTMLElement>(`#${input.id}-error`);
    if (message) message.hidden = !invalid;
    if (invalid) {
      input.setAttribute('aria-invalid', 'true');
      if (message) input.setAttribute('aria-describedby', message.id);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }

  #syncImportButton() {
    this.#importButton.hidden = !this.#preview || this.#preview.entries.every((e) => e.status === 'skip');
  }

  #renderPreview(preview: ImportPreview) {
    const parts: Node[] = [];
    const dialect = DIALECT_NAMES[preview.dialect];
    if (dialect) parts.push(el('p', { class: 'muted', 'data-dialect': preview.dialect }, t('importDialect', t(dialect))));
    if (preview.errors.length)
      parts.push(el('ul', { class: 'errors error', role: 'alert' }, ...preview.errors.map((e) => el('li', {}, e))));
    if (preview.entries.length) {
      const head = el('tr', {}, ...[t('importName'), t('importUrl'), t('importOutcome')].map((h) => el('th', { scope: 'col' }, h)));
      const rows = preview.entries.map((entry) => this.#row(entry));
      parts.push(el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)));
    }
    const fields = uniquePlaceholders(preview.entries);
    if (fields.length) {
      parts.push(
        el(
          'fieldset',
          {},
          ...fields.map((p, index) => {
            const id = `fill-${index}`;
            const input = el('input', {
              id,
              type: p.secret ? 'password' : 'text',
              'data-token': p.token,
              autocomplete: 'off',
              spellcheck: 'false',
            });
            if (p.defaultValue !== undefined) input.value = p.defaultValue;
            input.addEventListener('input', () => {
              if (input.value.trim() !== '') this.#markField(input, false);
            });
            const message = el('span', { id: `${id}-error`, class: 'field-error', hidden: true }, t('importFillRequired'));
            return el('label', {}, t('importFill', p.label), input, message);
          }),
        ),
      );
    }
    this.#result.replaceChildren(...parts);
  }

  #row(entry: ImportEntry): HTMLTableRowElement {
    const statusKey = entry.status === 'add' ? 'importStatusAdd' : entry.status === 'skip' ? 'importStatusSkip' : 'importStatusConflict';
    const outcome = el(
      'td',
      { class: `status-${entry.status}`, 'data-status': entry.status },
      el('strong', {}, t(statusKey)),
      entry.reason ? ` — ${tReason({ message: entry.reason, ...(entry.reasonWording ? { wording: entry.reasonWording } : {}) })}` : '',
    );
    if (entry.anotherAccountOf)
      outcome.append(el('div', { class: 'muted', 'data-another-account': '' }, t('importAnotherAccount', entry.anotherAccountOf)));
    for (const note of entry.notes ?? []) outcome.append(el('div', { class: 'muted' }, note));
    const auth = authSummary(entry);
    if (auth) outcome.append(el('div', { class: 'auth', 'data-auth': auth.summary.kind }, t('importAuth', authText(auth))));
    const hint = signInHint(entry);
    if (hint)
      outcome.append(
        el('div', { class: 'sign-in', 'data-sign-in': hint }, t(hint === 'needed' ? 'importSignInNeeded' : 'importSignInMaybe')),
      );
    if (entry.status === 'conflict') {
      const box = el('input', { type: 'checkbox', 'data-overwrite': entry.name });
      box.addEventListener('change', () => this.#syncImportButton());
      outcome.append(el('div', {}, el('label', {}, box, ` ${t('importOverwrite', entry.conflictWith ?? entry.name)}`)));
    }
    return el('tr', { 'data-entry': entry.name }, el('td', {}, entry.name), el('td', { class: 'url' }, entry.url ?? ''), outcome);
  }
}

function authText({ summary, headerNames }: { summary: AuthSummary; headerNames: string[] }): string {
  const names = headerNames.join(', ');
  if (summary.kind === 'headers') return t('importAuthHeadersOnly', names);
  const main = authWords(summary);
  return headerNames.length > 0 ? t('importAuthPlusHeaders', main, names) : main;
}

function authWords(summary: Exclude<AuthSummary, { kind: 'headers' }>): string {
  switch (summary.kind) {
    case 'oauth':
      return t('importAuthOAuth');
    case 'bearer-from':
      return t('importAuthBearerFrom', summary.from.join(', '));
    case 'bearer-to-fill':
      return t('importAuthBearerToFill');
    case 'bearer-in-paste':
      return t('importAuthBearerInPaste');
    case 'none':
      return t('importAuthNone');
  }
}

/** One field per token, even when several entries use the same variable. */
function uniquePlaceholders(entries: readonly ImportEntry[]): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const entry of entries) {
    if (entry.status === 'skip') continue;
    for (const p of entry.placeholders) if (!seen.has(p.token)) seen.set(p.token, p);
  }
  return [...seen.values()];
}
