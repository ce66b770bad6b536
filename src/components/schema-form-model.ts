/**
 * A form model from a JSON Schema (SPEC K3, I1): the plain, DOM-free half of the tool runner's
 * and the elicitation card's forms. It covers what people actually fill in — strings, numbers,
 * integers, booleans, enums, arrays of scalars and nested objects — and marks anything else
 * (`oneOf`, `$ref`, tuples, arrays of objects…) as `json`, to be edited as raw JSON. The schema
 * is the server's and untrusted: depth and field count are bounded, and nothing is evaluated.
 */
import { say, type Said } from '../protocol/wording.js';
import { asText } from '../common/as-text.js';

type ScalarKind = 'string' | 'number' | 'integer' | 'boolean';

export type FieldModel =
  | {
      kind: ScalarKind;
      key: string;
      label: string;
      description?: string;
      required: boolean;
      default?: unknown;
      format?: string;
      minimum?: number;
      maximum?: number;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
    }
  | {
      kind: 'enum';
      key: string;
      label: string;
      description?: string;
      required: boolean;
      default?: unknown;
      options: Array<{ value: string | number | boolean; label: string }>;
    }
  | { kind: 'array'; key: string; label: string; description?: string; required: boolean; default?: unknown; items: ScalarKind }
  | { kind: 'object'; key: string; label: string; description?: string; required: boolean; fields: FieldModel[] }
  | { kind: 'json'; key: string; label: string; description?: string; required: boolean; default?: unknown };

const MAX_DEPTH = 4;
export const MAX_FIELDS = 200;

type Schema = Record<string, unknown>;
const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);
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

function enumOptions(s: Schema): Array<{ value: string | number | boolean; label: string }> | undefined {
  const scalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(scalar)) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.map((value, i) => ({ value, label: str(names[i]) ?? String(value) }));
  }
  // Elicitation's titled enums: oneOf of { const, title }.
  if (Array.isArray(s.oneOf) && s.oneOf.length > 0 && s.oneOf.every((o) => isObj(o) && scalar(o.const))) {
    return (s.oneOf as Schema[]).map((o) => ({ value: o.const as string | number | boolean, label: str(o.title) ?? String(o.const) }));
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
      for (const k of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) if (num(schema[k]) !== undefined) out[k] = num(schema[k])!;
      if (str(schema.format)) out.format = str(schema.format)!;
      if (str(schema.pattern)) out.pattern = str(schema.pattern)!;
      return out;
    }
    case 'array': {
      const items = isObj(schema.items) ? typeOf(schema.items) : undefined;
      if (
        (items === 'string' || items === 'number' || items === 'integer' || items === 'boolean') &&
        !enumOptions(schema.items as Schema)
      ) {
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
/** A field's problem: English `message` and its `wording` for the form to show in the user's language. */
export interface ValueError extends Said {
  path: string;
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
    const fail = (said: Said) => errors.push({ path, ...said });
    const empty = input === undefined || input === '' || (Array.isArray(input) && input.length === 0);
    if (f.kind === 'object') {
      // An optional object left entirely blank is omitted, its required members included.
      if (!f.required && !hasInput(input)) continue;
      const nested = collectValues(f.fields, isObj(input) ? input : {}, path);
      errors.push(...nested.errors);
      if (Object.keys(nested.value).length > 0 || f.required) value[f.key] = nested.value;
      continue;
    }
    if (f.kind === 'boolean') {
      if (typeof input === 'boolean') value[f.key] = input;
      else if (f.required) value[f.key] = false;
      continue;
    }
    if (empty) {
      if (f.required) fail(say('reasonFieldRequired'));
      continue;
    }
    switch (f.kind) {
      case 'string': {
        const s = asText(input);
        if (f.minLength !== undefined && s.length < f.minLength) fail(say('reasonFieldMinLength', { min: f.minLength }));
        else if (f.maxLength !== undefined && s.length > f.maxLength) fail(say('reasonFieldMaxLength', { max: f.maxLength }));
        else value[f.key] = s;
        break;
      }
      case 'number':
      case 'integer': {
        const n = Number(asText(input).trim());
        if (!Number.isFinite(n)) fail(say('reasonFieldNumber'));
        else if (f.kind === 'integer' && !Number.isInteger(n)) fail(say('reasonFieldInteger'));
        else if (f.minimum !== undefined && n < f.minimum) fail(say('reasonFieldMinimum', { min: f.minimum }));
        else if (f.maximum !== undefined && n > f.maximum) fail(say('reasonFieldMaximum', { max: f.maximum }));
        else value[f.key] = n;
        break;
      }
      case 'enum': {
        const match = f.options.find((o) => String(o.value) === asText(input));
        if (!match) fail(say('reasonFieldChoice'));
        else value[f.key] = match.value;
        break;
      }
      case 'array': {
        const items = Array.isArray(input)
          ? input.map(String)
          : asText(input)
              .split('\n')
              .map((s) => s.trim())
              .filter((s) => s !== '');
        const out: unknown[] = [];
        for (const item of items) {
          if (f.items === 'string') out.push(item);
          else if (f.items === 'boolean') {
            if (item !== 'true' && item !== 'false') fail(say('reasonFieldItemsBoolean'));
            out.push(item === 'true');
          } else {
            const n = Number(item);
            if (!Number.isFinite(n) || (f.items === 'integer' && !Number.isInteger(n)))
              fail(say(f.items === 'integer' ? 'reasonFieldItemsInteger' : 'reasonFieldItemsNumber'));
            out.push(n);
          }
        }
        value[f.key] = out;
        break;
      }
      case 'json': {
        try {
          value[f.key] = typeof input === 'string' ? JSON.parse(input) : input;
        } catch {
          fail(say('reasonFieldJson'));
        }
        break;
      }
    }
  }
  return { value, errors };
}

function hasInput(v: unknown): boolean {
  if (isObj(v)) return Object.values(v).some(hasInput);
  if (Array.isArray(v)) return v.length > 0;
  return v !== undefined && v !== '' && v !== false;
}
