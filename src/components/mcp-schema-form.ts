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
 * Every label, description and enum title comes from the server and is set as text only (K5).
 */
import { ElementBase } from './element-base.js';
import { asText } from '../common/as-text.js';
import { el, sheet } from './dom.js';
import { t, tReason } from './i18n.js';
import { buildFormModel, collectValues, type FieldModel, type FormValues, type ValueError } from './schema-form-model.js';

const css = sheet(`
:host { display: grid; gap: 6px; }
.fields { display: grid; gap: 6px; }
label, fieldset { display: grid; gap: 2px; }
fieldset { border: 1px solid #8885; border-radius: 6px; padding: 4px 8px; }
label.check { display: flex; gap: 6px; align-items: center; }
input:not([type="checkbox"]), select, textarea { padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
textarea { font-family: ui-monospace, monospace; min-height: 3em; }
textarea.json { min-height: 4em; }
[aria-invalid="true"] { border-color: var(--danger, #b3261e); }
.description { font-size: 12px; }
.field-error:empty { display: none; }
.toggle { justify-self: start; }
`);

/** What the user typed, as typed (invalid entries included), to put back later with {@link McpSchemaFormElement.draft}. */
export interface SchemaFormDraft {
  jsonMode: boolean;
  json: string;
  fields: FormValues | null;
}

export type SchemaFormRead = { ok: true; value: Record<string, unknown> } | { ok: false; errors: ValueError[] };

const pathKey = (path: string[]) => JSON.stringify(path);

export class McpSchemaFormElement extends ElementBase {
  #schema: unknown;
  #model: FieldModel[] | null = null;
  #jsonMode = false;
  /** The JSON text the form last wrote; a different text means the JSON editor was edited. */
  #mirrored = '';
  readonly #toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'false' }, t('editAsJson'));
  readonly #json = el('textarea', { name: 'arguments', class: 'json', spellcheck: 'false', 'aria-label': t('argumentsJson') }, '{}');
  readonly #jsonError = el('p', { class: 'error json-error', role: 'alert' });
  readonly #fields = el('div', { class: 'fields' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#toggle.addEventListener('click', () => this.#setJsonMode(!this.#jsonMode));
    this.#fields.addEventListener('input', () => this.#mirror());
    this.#fields.addEventListener('change', () => this.#mirror());
    root.append(this.#toggle, this.#json, this.#jsonError, this.#fields);
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
      this.#showErrors(errors);
      return { ok: false, errors };
    }
    return { ok: true, value };
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
    const model = this.#model;
    this.#fields.replaceChildren(...(model ? model.map((f) => this.#field(f, [])) : []));
    if (model && model.length === 0) this.#fields.append(el('p', { class: 'muted no-fields' }, t('noArguments')));
    if (model) this.#mirror();
    else this.#json.value = '{}';
    this.#applyMode();
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

  #field(f: FieldModel, parent: string[]): HTMLElement {
    const path = [...parent, f.key];
    const key = pathKey(path);
    const description = f.description ? el('span', { class: 'description muted' }, f.description) : null;
    const error = el('span', { class: 'field-error error', 'data-path': key, role: 'alert' });
    const title = `${f.label}${f.required ? ' *' : ''}`;
    if (f.kind === 'object') {
      return el(
        'fieldset',
        { 'data-path': key },
        el('legend', {}, title),
        description,
        ...f.fields.map((c) => this.#field(c, path)),
        error,
      );
    }
    const control = this.#control(f, key);
    if (f.kind === 'boolean') return el('label', { class: 'check' }, control, el('span', {}, title), description, error);
    return el('label', {}, el('span', {}, title), control, description, error);
  }

  #control(f: Exclude<FieldModel, { kind: 'object' }>, key: string): HTMLElement {
    const common = { 'data-path': key, name: key, ...(f.required ? { 'aria-required': 'true' } : {}) };
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
      default: {
        const numeric = f.kind === 'number' || f.kind === 'integer';
        const type = numeric ? 'text' : f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
        const input = el('input', { ...common, type, ...(numeric ? { inputmode: f.kind === 'integer' ? 'numeric' : 'decimal' } : {}) });
        if (dflt !== undefined && dflt !== null && typeof dflt !== 'object') input.value = asText(dflt);
        return input;
      }
    }
  }

  #input(key: string) {
    return this.#fields.querySelector<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(`[name="${CSS.escape(key)}"]`);
  }

  /** Raw inputs as `collectValues` takes them: text as typed, booleans, nested records. */
  #raw(fields: FieldModel[], parent: string[]): FormValues {
    const out: FormValues = {};
    for (const f of fields) {
      const path = [...parent, f.key];
      if (f.kind === 'object') {
        out[f.key] = this.#raw(f.fields, path);
        continue;
      }
      const input = this.#input(pathKey(path));
      if (!input) continue;
      out[f.key] = f.kind === 'boolean' ? (input as HTMLInputElement).checked : input.value;
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
      const input = this.#input(pathKey(path));
      if (!input) continue;
      if (f.kind === 'boolean') (input as HTMLInputElement).checked = v === true;
      else if (v === undefined || v === null) input.value = '';
      else if (f.kind === 'array') input.value = Array.isArray(v) ? v.map(String).join('\n') : asText(v);
      else if (f.kind === 'json' || typeof v === 'object') input.value = JSON.stringify(v);
      else input.value = asText(v);
    }
  }

  #clearErrors() {
    this.#jsonError.textContent = '';
    this.#json.removeAttribute('aria-invalid');
    for (const e of this.#fields.querySelectorAll('.field-error')) e.textContent = '';
    for (const e of this.#fields.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
  }

  #showErrors(errors: ValueError[]) {
    for (const error of errors) {
      const key = pathKey(error.path.split('.'));
      const message = tReason(error);
      const slot = this.#fields.querySelector(`.field-error[data-path="${CSS.escape(key)}"]`);
      if (slot) slot.textContent = slot.textContent ? `${slot.textContent}; ${message}` : message;
      this.#input(key)?.setAttribute('aria-invalid', 'true');
    }
    this.#fields.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }
}
