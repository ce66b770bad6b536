/**
 * A form model from a JSON Schema (SPEC K3, I1): the plain, DOM-free half of the tool runner's
 * and the elicitation card's forms. It covers what people actually fill in — strings (with
 * `format`, `pattern` and lengths), numbers and integers (ranges, `multipleOf`), booleans,
 * single choices (`enum`, `enumNames`, `oneOf`/`anyOf` of `{const, title}`), multiple choices
 * (arrays whose `items` are such a choice, with `minItems`/`maxItems` — the shapes of the MCP
 * elicitation schema), arrays of scalars and nested objects — and marks anything else (`$ref`,
 * tuples, arrays of objects…) as `json`, to be edited as raw JSON. The schema is the server's and
 * untrusted: depth and field count are bounded, a `pattern` is compiled with `u` and only tried
 * on bounded input, and nothing is evaluated.
 *
 * Errors are message keys of the i18n catalogs with their substitutions, so the element shows them
 * in the panel's language.
 */
import { asText } from '../common/as-text.js';
import type { MessageKey } from '../i18n/en.js';

type ScalarKind = 'string' | 'number' | 'integer' | 'boolean';

/** What every field has: its key in the arguments, its label and help, and whether it is required. */
interface FieldBase {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  default?: unknown;
}

export type FieldModel =
  | (FieldBase & {
      kind: ScalarKind;
      format?: string;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      multipleOf?: number;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      /** A string for long or multi-line text: edited in a textarea, so its line breaks are kept. */
      multiline?: true;
    })
  | (FieldBase & { kind: 'enum'; options: Option[] })
  | (FieldBase & { kind: 'multi'; options: Option[]; minItems?: number; maxItems?: number })
  | (FieldBase & { kind: 'array'; items: ScalarKind })
  | (Omit<FieldBase, 'default'> & { kind: 'object'; fields: FieldModel[] })
  | (FieldBase & { kind: 'json' });

type Option = { value: string | number | boolean; label: string };

const MAX_DEPTH = 4;
/** Most options of one choice; a longer list is cut (the JSON editor still takes any value). */
const MAX_OPTIONS = 500;
export const MAX_FIELDS = 200;

type Schema = Record<string, unknown>;
const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** Text with a line break, which a one-line input would drop. */
export const hasLineBreak = (v: unknown): v is string => typeof v === 'string' && /[\r\n]/.test(v);

/**
 * A string schema that asks for long or multi-line text: a default with line breaks, a
 * `maxLength` over 200, a `contentMediaType`, a text `format`, or a description or title that
 * says so (an ABC tune, Markdown, code, several lines).
 */
function longText(schema: Schema): boolean {
  if (hasLineBreak(schema.default) || (num(schema.maxLength) ?? 0) > 200 || str(schema.contentMediaType) !== undefined) return true;
  if (/^(?:textarea|multi-?line|markdown|html|code)$/i.test(str(schema.format) ?? '')) return true;
  const words = `${str(schema.title) ?? ''} ${str(schema.description) ?? ''}`;
  return /multi-?line|line breaks?|new ?lines?|paragraphs?|markdown|notation|source code|\bcode\b|script|body of|full text/i.test(words);
}
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The single type of a schema, accepting `["string","null"]` as `string`. */
function typeOf(s: Schema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) {
    const t = s.type.filter((x) => x !== 'null');
    return t.length === 1 && typeof t[0] === 'string' ? t[0] : undefined;
  }
  if (isObj(s.properties)) return 'object';
  return undefined;
}

function enumOptions(s: Schema): Option[] | undefined {
  const scalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(scalar)) {
    // enumNames: the legacy titled enum, still sent by servers (MCP 2025-11-25 keeps it as deprecated).
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.slice(0, MAX_OPTIONS).map((value, i) => ({ value, label: str(names[i]) ?? String(value) }));
  }
  // Titled enums: oneOf (single select) or anyOf (multi-select items) of { const, title }.
  for (const list of [s.oneOf, s.anyOf]) {
    if (Array.isArray(list) && list.length > 0 && list.every((o) => isObj(o) && scalar(o.const))) {
      return (list as Schema[])
        .slice(0, MAX_OPTIONS)
        .map((o) => ({ value: o.const as string | number | boolean, label: str(o.title) ?? String(o.const) }));
    }
  }
  return undefined;
}

/** Model of one property; `budget` counts fields so a huge schema cannot build a huge form. */
function field(key: string, s: unknown, required: boolean, depth: number, budget: { left: number }): FieldModel {
  budget.left--;
  const schema = isObj(s) ? s : {};
  const base = {
    key,
    label: str(schema.title) ?? key,
    required,
    ...(str(schema.description) !== undefined ? { description: str(schema.description)! } : {}),
  };
  const withDefault = 'default' in schema ? { default: schema.default } : {};
  const options = enumOptions(schema);
  if (options) return { kind: 'enum', ...base, ...withDefault, options };
  const type = typeOf(schema);
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean': {
      const out: FieldModel = { kind: type, ...base, ...withDefault };
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'] as const)
        if (num(schema[k]) !== undefined) out[k] = num(schema[k])!;
      if ((num(schema.multipleOf) ?? 0) > 0) out.multipleOf = num(schema.multipleOf)!;
      if (str(schema.format)) out.format = str(schema.format)!;
      if (str(schema.pattern)) out.pattern = str(schema.pattern)!;
      if (type === 'string' && longText(schema)) out.multiline = true;
      return out;
    }
    case 'array': {
      const choices = isObj(schema.items) ? enumOptions(schema.items) : undefined;
      if (choices) {
        const out: FieldModel = { kind: 'multi', ...base, ...withDefault, options: choices };
        if (num(schema.minItems) !== undefined) out.minItems = num(schema.minItems)!;
        if (num(schema.maxItems) !== undefined) out.maxItems = num(schema.maxItems)!;
        return out;
      }
      const items = isObj(schema.items) ? typeOf(schema.items) : undefined;
      if (items === 'string' || items === 'number' || items === 'integer' || items === 'boolean') {
        return { kind: 'array', ...base, ...withDefault, items };
      }
      return { kind: 'json', ...base, ...withDefault };
    }
    case 'object': {
      if (depth >= MAX_DEPTH || !isObj(schema.properties) || budget.left <= 0) return { kind: 'json', ...base, ...withDefault };
      return { kind: 'object', ...base, fields: fieldsOf(schema, depth + 1, budget) };
    }
    default:
      return { kind: 'json', ...base, ...withDefault };
  }
}

function fieldsOf(schema: Schema, depth: number, budget: { left: number }): FieldModel[] {
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const out: FieldModel[] = [];
  for (const [key, s] of Object.entries(props)) {
    if (budget.left <= 0) break;
    out.push(field(key, s, required.has(key), depth, budget));
  }
  return out;
}

/**
 * The fields of an object schema, or `null` when the schema is not an object with properties
 * (then the caller offers the raw-JSON editor only).
 */
export function buildFormModel(schema: unknown): FieldModel[] | null {
  if (!isObj(schema) || typeOf(schema) !== 'object') return null;
  return fieldsOf(schema, 0, { left: MAX_FIELDS });
}

export type FormValues = Record<string, unknown>;
export interface ValueError {
  path: string;
  /** A message of the i18n catalogs, with its substitutions. */
  key: MessageKey;
  subs?: string[];
}

/** Longest text a server's `pattern` is tried on: a hostile pattern cannot take long on it. */
const MAX_PATTERN_INPUT = 10_000;

/** Whether `s` matches the schema's `pattern`; a pattern that does not compile checks nothing. */
function matchesPattern(pattern: string, s: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return true;
  }
  return s.length > MAX_PATTERN_INPUT || re.test(s);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The error key for a string that does not have its `format`, if it is one this form checks. */
function formatError(format: string | undefined, s: string): MessageKey | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(s) ? undefined : 'formEmail';
    case 'uri': {
      try {
        new URL(s);
        return undefined;
      } catch {
        return 'formUri';
      }
    }
    case 'date':
      return DATE.test(s) && !Number.isNaN(Date.parse(s)) ? undefined : 'formDate';
    case 'date-time':
      return Number.isNaN(Date.parse(s)) ? 'formDateTime' : undefined;
    default:
      return undefined;
  }
}

/**
 * A `date-time` value as the server expects it (RFC 3339 with a zone): the browser's
 * `datetime-local` input gives local time without one, which is converted here.
 */
export function dateTimeValue(s: string): string {
  if (/(Z|[+-]\d{2}:\d{2})$/i.test(s)) return s;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}

/** Records one error of the field being read, with its substitutions. */
type Fail = (key: MessageKey, ...subs: (string | number)[]) => void;
/** What a reader returns for input it refused (it has called `fail`). */
const REFUSED = Symbol('refused');

type FieldOf<K extends FieldModel['kind']> = Extract<FieldModel, { kind: K }>;

function stringValue(f: FieldOf<ScalarKind>, input: unknown, fail: Fail): unknown {
  const s = f.format === 'date-time' ? dateTimeValue(asText(input)) : asText(input);
  // Lengths count code points, as JSON Schema does.
  const length = [...s].length;
  const format = formatError(f.format, s);
  if (f.minLength !== undefined && length < f.minLength) fail('formMinLength', f.minLength);
  else if (f.maxLength !== undefined && length > f.maxLength) fail('formMaxLength', f.maxLength);
  else if (format) fail(format);
  else if (f.pattern !== undefined && !matchesPattern(f.pattern, s)) fail('formPattern');
  else return s;
  return REFUSED;
}

function numberValue(f: FieldOf<ScalarKind>, input: unknown, fail: Fail): unknown {
  const n = Number(asText(input).trim());
  if (!Number.isFinite(n)) fail('formNumber');
  else if (f.kind === 'integer' && !Number.isInteger(n)) fail('formInteger');
  else if (f.minimum !== undefined && n < f.minimum) fail('formMinimum', f.minimum);
  else if (f.maximum !== undefined && n > f.maximum) fail('formMaximum', f.maximum);
  else if (f.exclusiveMinimum !== undefined && n <= f.exclusiveMinimum) fail('formAbove', f.exclusiveMinimum);
  else if (f.exclusiveMaximum !== undefined && n >= f.exclusiveMaximum) fail('formBelow', f.exclusiveMaximum);
  else if (f.multipleOf !== undefined && !isMultiple(n, f.multipleOf)) fail('formMultipleOf', f.multipleOf);
  else return n;
  return REFUSED;
}

function enumValue(f: FieldOf<'enum'>, input: unknown, fail: Fail): unknown {
  const match = f.options.find((o) => String(o.value) === asText(input));
  if (match) return match.value;
  fail('formChoice');
  return REFUSED;
}

function multiValue(f: FieldOf<'multi'>, input: unknown, fail: Fail): unknown {
  const chosen = (Array.isArray(input) ? input : [input]).map((v) => asText(v));
  const values = f.options.filter((o) => chosen.includes(String(o.value))).map((o) => o.value);
  if (values.length !== new Set(chosen).size) fail('formChoice');
  else if (f.minItems !== undefined && values.length < f.minItems) fail('formChooseAtLeast', f.minItems);
  else if (f.maxItems !== undefined && values.length > f.maxItems) fail('formChooseAtMost', f.maxItems);
  else return values;
  return REFUSED;
}

/** One item per line (or the array as given); a bad item is an error, and the array is still kept. */
function arrayValue(f: FieldOf<'array'>, input: unknown, fail: Fail): unknown {
  const items = Array.isArray(input)
    ? input.map(String)
    : asText(input)
        .split('\n')
        .map((s) => s.trim())
        .filter((s) => s !== '');
  return items.map((item) => {
    if (f.items === 'string') return item;
    if (f.items === 'boolean') {
      if (item !== 'true' && item !== 'false') fail('formItemsBoolean');
      return item === 'true';
    }
    const n = Number(item);
    if (!Number.isFinite(n) || (f.items === 'integer' && !Number.isInteger(n)))
      fail(f.items === 'integer' ? 'formItemsInteger' : 'formItemsNumber');
    return n;
  });
}

function jsonValue(input: unknown, fail: Fail): unknown {
  try {
    return typeof input === 'string' ? JSON.parse(input) : input;
  } catch {
    fail('formJson');
    return REFUSED;
  }
}

/** The value of a filled-in field that is neither an object nor a checkbox. */
function filledValue(f: Exclude<FieldModel, { kind: 'object' | 'boolean' }>, input: unknown, fail: Fail): unknown {
  switch (f.kind) {
    case 'string':
      return stringValue(f, input, fail);
    case 'number':
    case 'integer':
      return numberValue(f, input, fail);
    case 'enum':
      return enumValue(f, input, fail);
    case 'multi':
      return multiValue(f, input, fail);
    case 'array':
      return arrayValue(f, input, fail);
    case 'json':
      return jsonValue(input, fail);
  }
}

/**
 * Turns raw inputs (strings from text boxes, booleans from checkboxes, nested records for
 * objects) into the arguments object, with plain-words errors. Empty optional fields are left
 * out so the server applies its own defaults.
 */
export function collectValues(fields: FieldModel[], raw: FormValues, prefix = ''): { value: FormValues; errors: ValueError[] } {
  const value: FormValues = {};
  const errors: ValueError[] = [];
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.key}` : f.key;
    const input = raw[f.key];
    const fail: Fail = (key, ...subs) => errors.push({ path, key, ...(subs.length ? { subs: subs.map(String) } : {}) });
    if (f.kind === 'object') {
      // An optional object left entirely blank is omitted, its required members included.
      if (!f.required && !hasInput(input)) continue;
      const nested = collectValues(f.fields, isObj(input) ? input : {}, path);
      errors.push(...nested.errors);
      if (Object.keys(nested.value).length > 0 || f.required) value[f.key] = nested.value;
    } else if (f.kind === 'boolean') {
      if (typeof input === 'boolean') value[f.key] = input;
      else if (f.required) value[f.key] = false;
    } else if (input === undefined || input === '' || (Array.isArray(input) && input.length === 0)) {
      if (f.kind === 'multi' && f.required) fail('formChooseAtLeast', Math.max(1, f.minItems ?? 1));
      else if (f.required) fail('formRequired');
    } else {
      const read = filledValue(f, input, fail);
      if (read !== REFUSED) value[f.key] = read;
    }
  }
  return { value, errors };
}

/** `n` is a multiple of `step`, allowing for binary fractions (0.3 is a multiple of 0.1). */
function isMultiple(n: number, step: number): boolean {
  const q = n / step;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

function hasInput(v: unknown): boolean {
  if (isObj(v)) return Object.values(v).some(hasInput);
  if (Array.isArray(v)) return v.length > 0;
  return v !== undefined && v !== '' && v !== false;
}

/** What a server said about invalid arguments: messages for named fields, and the rest in plain words. */
export interface ServerValidation {
  fields: Array<{ path: string; text: string }>;
  general: string[];
}

const VALIDATION = /-32602|invalid (params|arguments|input)|validation (error|failed)/i;
/** The SDK's wording around a zod issue list ("MCP error -32602: Input validation error: Invalid arguments for tool x:"). */
const PREFIX = /^(MCP error -?\d+:\s*)?(Input validation error:\s*)?(Invalid arguments for tool [^:]*:\s*)?/i;

/** Every field path of the model, nested ones dotted ("address.city"). */
function paths(fields: FieldModel[], prefix = ''): string[] {
  return fields.flatMap((f) => {
    const path = prefix ? `${prefix}.${f.key}` : f.key;
    return f.kind === 'object' ? [path, ...paths(f.fields, path)] : [path];
  });
}

/** Issues as JSON Schema validators and zod list them: `[{ path: [...], message }]`, or `{ errors: [...] }`. */
function issuesIn(text: string): Array<{ path: string; text: string }> | undefined {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed)
    ? parsed
    : isObj(parsed) && Array.isArray(parsed.errors)
      ? parsed.errors
      : isObj(parsed)
        ? [parsed]
        : [];
  const out: Array<{ path: string; text: string }> = [];
  for (const issue of list.slice(0, 50)) {
    if (!isObj(issue) || typeof issue.message !== 'string') continue;
    const raw = issue.path ?? issue.instancePath ?? issue.field;
    const path = Array.isArray(raw) ? raw.map(String).join('.') : typeof raw === 'string' ? raw.replace(/^\//, '').replace(/\//g, '.') : '';
    out.push({ path, text: issue.message });
  }
  return out.length ? out : undefined;
}

/**
 * Reads a server's refusal of the arguments — a JSON-RPC error `-32602` or an `isError` result's
 * text — into messages for the fields it names and plain sentences for the rest (never the raw
 * JSON). `undefined` when the text is not about invalid arguments.
 */
export function serverValidation(text: string, fields: FieldModel[]): ServerValidation | undefined {
  if (!VALIDATION.test(text)) return undefined;
  const known = paths(fields);
  const rest = text.replace(PREFIX, '').trim();
  const issues = issuesIn(rest);
  const out: ServerValidation = { fields: [], general: [] };
  if (issues) {
    for (const issue of issues) {
      if (known.includes(issue.path)) out.fields.push(issue);
      else out.general.push(issue.path ? `${issue.path}: ${issue.text}` : issue.text);
    }
    return out;
  }
  // A sentence: the field it names in quotes, or after "field"/"property"/"parameter"/"argument".
  const named = known
    .filter((p) => {
      const q = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`["'\`]${q}["'\`]|\\b(field|property|parameter|argument|param)\\s+${q}\\b`, 'i').test(rest);
    })
    .sort((a, b) => b.length - a.length);
  if (named[0]) out.fields.push({ path: named[0], text: rest });
  else out.general.push(rest);
  return out;
}
