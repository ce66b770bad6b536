/**
 * A form generated from a JSON Schema (SPEC K3, I1), shared by the tool runner and the
 * elicitation card. The DOM-free half (model, value collection, validation) is
 * `schema-form-model.ts`; this element only draws it and reads it back.
 *
 * The raw-JSON editor and the form are two views of one value: every form edit rewrites the JSON
 * text, and switching to the form refills the fields from the JSON. If the JSON text was changed
 * while the form was shown (a script, a paste into the hidden editor), the JSON is what is read:
 * the most recent edit wins, so nothing typed is silently dropped. The JSON editor comes first
 * in the tree so that `… >>> textarea` finds it.
 *
 * Controls follow the schema: checkbox groups for multiple choices, selects for single ones,
 * number inputs with min/max/step, email/url/date/datetime-local inputs for string formats. Every
 * message (a check made before sending, or a server's refusal mapped back by
 * {@link McpSchemaFormElement.showServerErrors}) is shown at its field, which is marked
 * `aria-invalid` and points at it with `aria-describedby`; what names no field is shown above
 * the form in plain words.
 *
 * Every label, description and enum title comes from the server and is set as text only (K5).
 */
import { ElementBase } from './element-base.js';
import { asText } from '../common/as-text.js';
import { el, sheet } from './dom.js';
import { withCompletion } from './completion-field.js';
import { t } from './i18n.js';
import {
  buildFormModel,
  collectValues,
  hasLineBreak,
  serverValidation,
  type FieldModel,
  type FormValues,
  type ValueError,
} from './schema-form-model.js';

const css = sheet(`
:host { display: grid; gap: var(--space-2); }
.fields { display: grid; gap: var(--space-2); }
label, fieldset { display: grid; gap: 2px; min-width: 0; }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1) var(--space-2); margin: 0; }
fieldset.choices { gap: 0; }
label.check { display: flex; gap: var(--space-2); align-items: center; }
input:not([type="checkbox"]), select, textarea { min-width: 0; max-width: 100%; }
textarea { font-family: ui-monospace, monospace; min-height: 3em; }
textarea.json { min-height: 4em; }
[aria-invalid="true"] { border-color: var(--danger); }
fieldset[aria-invalid="true"] { border-color: var(--danger); }
.description { font-size: var(--text-small); }
.field-error:empty, .server-error:empty { display: none; }
.server-error { margin: 0; padding: var(--space-1) var(--space-2); border-radius: var(--radius); background: var(--danger-soft); }
.server-error ul { margin: 2px 0 0; padding-left: var(--space-4); }
.toggle { justify-self: start; }
`);

/** What the user typed, as typed (invalid entries included), to put back later with {@link McpSchemaFormElement.draft}. */
export interface SchemaFormDraft {
  jsonMode: boolean;
  json: string;
  fields: FormValues | null;
}

export type SchemaFormRead = { ok: true; value: Record<string, unknown> } | { ok: false; errors: Array<{ path: string; message: string }> };

const pathKey = (path: string[]) => JSON.stringify(path);
const messageOf = (e: ValueError) => t(e.key, ...(e.subs ?? []));

/** A `date-time` value shown in a `datetime-local` input: local time, to the second. */
function localDateTime(v: string): string {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return '';
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

type ScalarField = Extract<FieldModel, { kind: 'string' | 'number' | 'integer' | 'boolean' }>;
type ControlAttributes = Record<string, string>;

/** A number input with the schema's step and range, filled with its default. */
function numberInput(f: ScalarField, common: ControlAttributes): HTMLInputElement {
  const step = f.multipleOf ?? (f.kind === 'integer' ? 1 : 'any');
  const input = el('input', {
    ...common,
    type: 'number',
    step: String(step),
    ...(f.minimum !== undefined ? { min: String(f.minimum) } : {}),
    ...(f.maximum !== undefined ? { max: String(f.maximum) } : {}),
  });
  if (typeof f.default === 'number') input.value = String(f.default);
  return input;
}

/** The rows of a textarea for `text`: its lines, within 3–12. */
const rowsFor = (text: string) => String(Math.min(12, Math.max(3, text.split(/\r\n|\r|\n/).length)));

/**
 * A textarea for long or multi-line text. It keeps `text` exactly: a textarea reports `\r\n` as
 * `\n`, so the value it was given is remembered and read back while the user has not changed it.
 */
function textArea(common: ControlAttributes, text: string): HTMLTextAreaElement {
  const area = el('textarea', { ...common, rows: rowsFor(text) });
  textAreaValue(area, text);
  return area;
}

/** What each textarea was given, for {@link controlValue}. */
const givenText = new WeakMap<HTMLTextAreaElement, string>();

function textAreaValue(area: HTMLTextAreaElement, text: string) {
  area.value = text;
  givenText.set(area, text);
}

/** A one-line input's attributes, for the textarea that takes its place when a value with line breaks comes. */
const attributesOf = (input: HTMLInputElement): ControlAttributes =>
  Object.fromEntries([...input.attributes].filter((a) => a.name !== 'type' && a.name !== 'value').map((a) => [a.name, a.value]));

/** A control's value: a textarea's given text while it still shows that text. */
function controlValue(control: Control): string {
  const given = control instanceof HTMLTextAreaElement ? givenText.get(control) : undefined;
  return given !== undefined && control.value === given.replace(/\r\n?/g, '\n') ? given : control.value;
}

/** A text input of the type its `format` names (email, URL, date, date-time), filled with its default. */
function textInput(f: ScalarField, common: ControlAttributes): HTMLInputElement | HTMLTextAreaElement {
  const dflt = f.default;
  const type = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' }[f.format ?? ''] ?? 'text';
  // Long or multi-line text (its schema says so, or its default has line breaks): a textarea keeps every line.
  if (type === 'text' && (f.kind === 'string' ? f.multiline === true || hasLineBreak(dflt) : false))
    return textArea(common, dflt === undefined || dflt === null || typeof dflt === 'object' ? '' : asText(dflt));
  const input = el('input', { ...common, type, ...(type === 'datetime-local' ? { step: '1' } : {}) });
  if (dflt !== undefined && dflt !== null && typeof dflt !== 'object')
    input.value = type === 'datetime-local' ? localDateTime(asText(dflt)) : asText(dflt);
  return input;
}

export class McpSchemaFormElement extends ElementBase {
  #schema: unknown;
  #model: FieldModel[] | null = null;
  #jsonMode = false;
  /** The JSON text the form last wrote; a different text means the JSON editor was edited. */
  #mirrored = '';
  /** Ids inside this shadow root, for `aria-describedby`. */
  #ids = 0;
  readonly #toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'false' }, t('editAsJson'));
  readonly #json = el('textarea', { name: 'arguments', class: 'json', spellcheck: 'false', 'aria-label': t('argumentsJson') }, '{}');
  readonly #jsonError = el('p', { class: 'error json-error', role: 'alert' });
  readonly #serverError = el('div', { class: 'server-error error', role: 'alert' });
  readonly #fields = el('div', { class: 'fields' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#toggle.addEventListener('click', () => this.#setJsonMode(!this.#jsonMode));
    this.#fields.addEventListener('input', () => this.#mirror());
    this.#fields.addEventListener('change', () => this.#mirror());
    root.append(this.#serverError, this.#toggle, this.#json, this.#jsonError, this.#fields);
    this.update();
  }

  /** The server's schema (untrusted). Setting it rebuilds the form with the schema's defaults. */
  set schema(value: unknown) {
    this.#schema = value;
    this.#model = buildFormModel(value);
    this.#jsonMode = this.#model === null;
    this.update();
  }
  get schema(): unknown {
    return this.#schema;
  }

  #suggest: ((name: string, value: string, all: Record<string, string>) => Promise<string[]>) | undefined;

  /**
   * Where the top-level text fields get suggestions from (`completion/complete`, SPEC R8): asked
   * with the field's name, what it holds, and the other text fields' values (for dependent ones).
   */
  set suggest(value: ((name: string, value: string, all: Record<string, string>) => Promise<string[]>) | undefined) {
    this.#suggest = value;
    this.update();
  }

  get jsonMode(): boolean {
    return this.#jsonMode;
  }

  /** The current entries as typed, for the same schema to be filled with again. */
  get draft(): SchemaFormDraft {
    return { jsonMode: this.#jsonMode, json: this.#json.value, fields: this.#model ? this.#raw(this.#model, []) : null };
  }
  set draft(d: SchemaFormDraft) {
    if (this.#model && d.fields) this.#fillRaw(this.#model, d.fields, []);
    this.#mirror();
    this.#json.value = d.json;
    this.#jsonMode = d.jsonMode || !this.#model;
    this.#applyMode();
  }

  #fillRaw(fields: FieldModel[], raw: FormValues, parent: string[]) {
    for (const f of fields) {
      const path = [...parent, f.key];
      const v = raw[f.key];
      if (f.kind === 'object') {
        if (v && typeof v === 'object') this.#fillRaw(f.fields, v as FormValues, path);
        continue;
      }
      if (f.kind === 'multi') {
        if (Array.isArray(v)) this.#setChoices(pathKey(path), v.map(String));
        continue;
      }
      const input = this.#input(pathKey(path));
      if (!input || v === undefined) continue;
      if (typeof v === 'boolean') (input as HTMLInputElement).checked = v;
      else if (typeof v === 'string') input.value = v;
    }
  }

  /**
   * The value as an object, or plain-words errors (also shown next to their fields). Read in
   * whichever view holds the newest edit.
   */
  read(): SchemaFormRead {
    this.#clearErrors();
    if (this.#jsonMode || !this.#model || this.#json.value !== this.#mirrored) return this.#readJson();
    const { value, errors } = collectValues(this.#model, this.#raw(this.#model, []));
    if (errors.length) {
      const shown = errors.map((e) => ({ path: e.path, message: messageOf(e) }));
      this.#showErrors(shown);
      return { ok: false, errors: shown };
    }
    return { ok: true, value };
  }

  /**
   * A server's refusal of the arguments sent (a `-32602` error or an `isError` result's text):
   * messages for the fields it names go to those fields, the rest above the form in plain words.
   * False when the text is not about invalid arguments (the caller shows it as it is).
   */
  showServerErrors(text: string): boolean {
    const found = serverValidation(text, this.#model ?? []);
    if (!found) return false;
    this.#clearErrors();
    if (this.#jsonMode && found.fields.length) {
      // The fields are hidden: name them in the general list instead.
      found.general.push(...found.fields.map((f) => `${f.path}: ${f.text}`));
      found.fields = [];
    }
    if (found.general.length) {
      this.#serverError.append(
        el('p', { class: 'lead' }, t('formServerRejected')),
        el('ul', {}, ...found.general.map((g) => el('li', {}, g))),
      );
    }
    this.#showErrors(found.fields.map((f) => ({ path: f.path, message: f.text })));
    return true;
  }

  /** Removes every message shown (the runner does this when a new run starts). */
  clearErrors() {
    this.#clearErrors();
  }

  #readJson(): SchemaFormRead {
    let value: unknown;
    try {
      value = JSON.parse(this.#json.value.trim() || '{}');
    } catch {
      return this.#jsonFail(t('argumentsNotJson'));
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.#jsonFail(t('argumentsNotObject'));
    return { ok: true, value: value as Record<string, unknown> };
  }

  #jsonFail(message: string): SchemaFormRead {
    this.#jsonError.textContent = message;
    this.#json.setAttribute('aria-invalid', 'true');
    return { ok: false, errors: [{ path: '', message }] };
  }

  #setJsonMode(on: boolean) {
    if (!this.#model) on = true;
    if (!on && this.#jsonMode) {
      // Back to the form: the JSON must be an object to refill the fields from.
      const r = this.#readJson();
      if (!r.ok) return;
      this.#clearErrors();
      this.#fill(this.#model!, r.value, []);
    }
    this.#jsonMode = on;
    this.#applyMode();
    this.#mirror();
  }

  protected override update() {
    this.#clearErrors();
    this.#ids = 0;
    const model = this.#model;
    this.#fields.replaceChildren(...(model ? model.map((f) => this.#field(f, [])) : []));
    if (model && model.length === 0) this.#fields.append(el('p', { class: 'muted no-fields' }, t('noArguments')));
    this.#wireSuggestions();
    if (model) this.#mirror();
    else this.#json.value = '{}';
    this.#applyMode();
  }

  #wireSuggestions() {
    const suggest = this.#suggest;
    if (!suggest || !this.#model) return;
    const texts = () =>
      Object.fromEntries(
        this.#model!.flatMap((f) => {
          const input = this.#input(pathKey([f.key]));
          return input instanceof HTMLInputElement && input.type === 'text' && input.value !== '' ? [[f.key, input.value]] : [];
        }),
      );
    for (const f of this.#model) {
      const input = this.#input(pathKey([f.key]));
      if (!(input instanceof HTMLInputElement) || input.type !== 'text') continue;
      const others = () => Object.fromEntries(Object.entries(texts()).filter(([k]) => k !== f.key));
      input.after(withCompletion(input, (value) => suggest(f.key, value, others())));
    }
  }

  #applyMode() {
    this.#toggle.hidden = this.#model === null;
    this.#toggle.setAttribute('aria-pressed', String(this.#jsonMode));
    this.#toggle.textContent = t(this.#jsonMode ? 'editAsForm' : 'editAsJson');
    this.#json.hidden = !this.#jsonMode;
    this.#fields.hidden = this.#jsonMode;
  }

  #mirror() {
    if (!this.#model || this.#jsonMode) return;
    // Invalid entries are left out of the mirror; read() reports them when it is asked for.
    const text = JSON.stringify(collectValues(this.#model, this.#raw(this.#model, [])).value, null, 2);
    this.#json.value = text;
    this.#mirrored = text;
  }

  #id(what: string) {
    return `${what}-${++this.#ids}`;
  }

  #field(f: FieldModel, parent: string[]): HTMLElement {
    const path = [...parent, f.key];
    const key = pathKey(path);
    const descriptionId = f.description ? this.#id('d') : undefined;
    const errorId = this.#id('e');
    const describedBy = [descriptionId, errorId].filter(Boolean).join(' ');
    const description = f.description ? el('span', { class: 'description muted', id: descriptionId }, f.description) : null;
    const error = el('span', { class: 'field-error error', 'data-path': key, id: errorId });
    const title = `${f.label}${f.required ? ' *' : ''}`;
    if (f.kind === 'object') {
      return el(
        'fieldset',
        { 'data-path': key, 'aria-describedby': describedBy },
        el('legend', {}, title),
        description,
        ...f.fields.map((c) => this.#field(c, path)),
        error,
      );
    }
    if (f.kind === 'multi') {
      const chosen = new Set(Array.isArray(f.default) ? f.default.map(String) : []);
      const boxes = f.options.map((o) => {
        const box = el('input', { type: 'checkbox', name: key, value: String(o.value), 'data-path': key });
        box.checked = chosen.has(String(o.value));
        return el('label', { class: 'check' }, box, el('span', {}, o.label));
      });
      return el(
        'fieldset',
        { class: 'choices', 'data-path': key, 'aria-describedby': describedBy },
        el('legend', {}, title),
        description,
        ...boxes,
        error,
      );
    }
    const control = this.#control(f, key);
    control.setAttribute('aria-describedby', describedBy);
    if (f.kind === 'boolean') return el('label', { class: 'check' }, control, el('span', {}, title), description, error);
    return el('label', {}, el('span', {}, title), control, description, error);
  }

  #control(f: Exclude<FieldModel, { kind: 'object' | 'multi' }>, key: string): Control {
    const common: ControlAttributes = { 'data-path': key, name: key, ...(f.required ? { 'aria-required': 'true' } : {}) };
    const dflt = f.default;
    switch (f.kind) {
      case 'boolean': {
        const box = el('input', { ...common, type: 'checkbox' });
        box.checked = dflt === true;
        return box;
      }
      case 'enum': {
        const select = el(
          'select',
          common,
          f.required ? null : el('option', { value: '' }, '—'),
          ...f.options.map((o) => el('option', { value: String(o.value) }, o.label)),
        );
        const chosen = dflt === undefined ? undefined : f.options.find((o) => o.value === dflt);
        if (chosen) select.value = String(chosen.value);
        return select;
      }
      case 'array': {
        const area = el('textarea', { ...common, rows: '3', placeholder: t('onePerLine') });
        if (Array.isArray(dflt)) area.value = dflt.map(String).join('\n');
        return area;
      }
      case 'json': {
        const area = el('textarea', { ...common, rows: '3', spellcheck: 'false', placeholder: 'JSON' });
        if (dflt !== undefined) area.value = JSON.stringify(dflt);
        return area;
      }
      case 'number':
      case 'integer':
        return numberInput(f, common);
      default:
        return textInput(f, common);
    }
  }

  #input(key: string) {
    return this.#fields.querySelector<Control>(`[name="${CSS.escape(key)}"]`);
  }

  #choices(key: string) {
    return [...this.#fields.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${CSS.escape(key)}"]`)];
  }

  #setChoices(key: string, values: string[]) {
    for (const box of this.#choices(key)) box.checked = values.includes(box.value);
  }

  /** Raw inputs as `collectValues` takes them: text as typed, booleans, chosen values, nested records. */
  #raw(fields: FieldModel[], parent: string[]): FormValues {
    const out: FormValues = {};
    for (const f of fields) {
      const path = [...parent, f.key];
      if (f.kind === 'object') {
        out[f.key] = this.#raw(f.fields, path);
        continue;
      }
      if (f.kind === 'multi') {
        out[f.key] = this.#choices(pathKey(path))
          .filter((b) => b.checked)
          .map((b) => b.value);
        continue;
      }
      const input = this.#input(pathKey(path));
      if (!input) continue;
      if (f.kind === 'boolean') out[f.key] = (input as HTMLInputElement).checked;
      // A number input holding text that is not a number reports it as empty: keep it invalid.
      else if (input instanceof HTMLInputElement && input.type === 'number' && input.validity.badInput) out[f.key] = 'NaN';
      else out[f.key] = controlValue(input);
    }
    return out;
  }

  #fill(fields: FieldModel[], value: Record<string, unknown>, parent: string[]) {
    for (const f of fields) {
      const path = [...parent, f.key];
      const v = value[f.key];
      if (f.kind === 'object') {
        this.#fill(f.fields, v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}, path);
        continue;
      }
      if (f.kind === 'multi') {
        this.#setChoices(pathKey(path), Array.isArray(v) ? v.map(String) : []);
        continue;
      }
      const input = this.#input(pathKey(path));
      if (!input) continue;
      if (f.kind === 'boolean') (input as HTMLInputElement).checked = v === true;
      else if (v === undefined || v === null) input.value = '';
      else if (f.kind === 'array') input.value = Array.isArray(v) ? v.map(String).join('\n') : asText(v);
      else if (f.kind === 'json' || typeof v === 'object') input.value = JSON.stringify(v);
      else if (input.type === 'datetime-local') input.value = localDateTime(asText(v));
      else if (hasLineBreak(v) && input instanceof HTMLInputElement) input.replaceWith(textArea(attributesOf(input), v));
      else if (input instanceof HTMLTextAreaElement) textAreaValue(input, asText(v));
      else input.value = asText(v);
    }
  }

  #clearErrors() {
    this.#jsonError.textContent = '';
    this.#serverError.replaceChildren();
    this.#json.removeAttribute('aria-invalid');
    for (const e of this.#fields.querySelectorAll('.field-error')) e.textContent = '';
    for (const e of this.#fields.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
  }

  #showErrors(errors: Array<{ path: string; message: string }>) {
    for (const { path, message } of errors) {
      const key = pathKey(path.split('.'));
      const slot = this.#fields.querySelector(`.field-error[data-path="${CSS.escape(key)}"]`);
      if (slot) slot.textContent = slot.textContent ? `${slot.textContent}; ${message}` : message;
      const group = this.#fields.querySelector(`fieldset.choices[data-path="${CSS.escape(key)}"]`);
      if (group) {
        group.setAttribute('aria-invalid', 'true');
        for (const box of this.#choices(key)) box.setAttribute('aria-invalid', 'true');
      } else this.#input(key)?.setAttribute('aria-invalid', 'true');
    }
    this.#fields
      .querySelector<HTMLElement>('input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]')
      ?.focus();
  }
}
