/**
 * Paste-JSON import and configuration export (SPEC B2, B4, K1). The user pastes a config, asks
 * for a preview (computed by the worker through the offscreen document, SPEC B3), sees what will
 * be added, skipped or conflicts and why, fills in placeholders (secrets in password fields),
 * ticks "overwrite" for each conflict they accept, and imports. The element never parses the
 * config itself: it only renders the preview it is given, as text (SPEC K5).
 */
import { ElementBase } from './element-base.js';
import type { Dialect, ImportEntry, ImportPreview, Placeholder } from '../import/import-schema.js';
import type { MessageKey } from '../i18n/en.js';
import { el, sheet } from './dom.js';
import { ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent } from './events.js';
import { t, tReason } from './i18n.js';
import { signInHint } from '../import/sign-in-hint.js';

const DIALECT_NAMES: Record<Dialect, MessageKey> = {
  'claude-code': 'dialectClaudeCode',
  cursor: 'dialectCursor',
  vscode: 'dialectVscode',
  windsurf: 'dialectWindsurf',
  gemini: 'dialectGemini',
  'claude-desktop': 'dialectClaudeDesktop',
  'server-map': 'dialectServerMap',
  single: 'dialectSingle',
  list: 'dialectList',
  export: 'dialectExport',
  unknown: 'dialectUnknown',
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
    this.#status.textContent = '';
    this.#status.className = '';
    this.#renderPreview(preview);
    this.#syncImportButton();
  }

  showError(message: string) {
    this.#previewButton.disabled = false;
    this.#importButton.disabled = false;
    this.#status.className = 'error';
    this.#status.textContent = message;
  }

  /** After a successful import the form is cleared so the secrets typed in do not linger. */
  showImported(count: number) {
    this.#preview = undefined;
    this.#previewedText = '';
    this.#text.value = '';
    this.#result.replaceChildren();
    this.#importButton.hidden = true;
    this.#importButton.disabled = false;
    this.#status.className = '';
    this.#status.textContent = t('importDone', String(count));
  }

  #askPreview() {
    const text = this.#text.value;
    if (!text.trim()) return;
    this.#previewedText = text;
    this.#previewButton.disabled = true;
    this.#status.className = '';
    this.#status.textContent = t('previewing');
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
    if (this.selectedEntries.length === 0) {
      this.showError(t('importNothing'));
      return;
    }
    const event = new ImportApplyEvent({ text: this.#previewedText, values: this.#values(), overwrite: this.#overwrite() });
    if (!this.emit(event)) return;
    this.#importButton.disabled = true;
    this.#status.className = '';
    this.#status.textContent = t('importing');
  }

  #syncImportButton() {
    this.#importButton.hidden = !this.#preview || this.#preview.entries.every((e) => e.status === 'skip');
  }

  #renderPreview(preview: ImportPreview) {
    const parts: Node[] = [el('p', { class: 'muted' }, t('importDialect', t(DIALECT_NAMES[preview.dialect])))];
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
          ...fields.map((p) => {
            const input = el('input', {
              type: p.secret ? 'password' : 'text',
              'data-token': p.token,
              autocomplete: 'off',
              spellcheck: 'false',
            });
            if (p.defaultValue !== undefined) input.value = p.defaultValue;
            return el('label', {}, t('importFill', p.label), input);
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
    for (const note of entry.notes ?? []) outcome.append(el('div', { class: 'muted' }, note));
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

/** One field per token, even when several entries use the same variable. */
function uniquePlaceholders(entries: readonly ImportEntry[]): Placeholder[] {
  const seen = new Map<string, Placeholder>();
  for (const entry of entries) {
    if (entry.status === 'skip') continue;
    for (const p of entry.placeholders) if (!seen.has(p.token)) seen.set(p.token, p);
  }
  return [...seen.values()];
}
