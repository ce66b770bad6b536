/**
 * Removes credentials from what the request log keeps (SPEC J2). The log is for showing and
 * exporting, so it must be safe to paste into a bug report: redaction happens before
 * anything is stored, never at display time.
 *
 * Matching is by field name (case-insensitive, at any depth, in header objects, in
 * `{name, value}` header pairs, in URL query strings and fragments, in form bodies and in
 * JSON carried as a string) plus `Bearer …` inside free text. One deliberate exception: a
 * numeric `code` is kept, because JSON-RPC error codes are what a log reader needs; an
 * OAuth authorization code is a string.
 */

export const REDACTED = '[redacted]';

const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'code',
  'code_verifier',
  'password',
  'token',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);
const MAX_DEPTH = 64;
const MAX_JSON_STRING = 1 << 20;

const isSecretField = (name: string) => SECRET_FIELDS.has(name.toLowerCase());

const fieldAlternation = [...SECRET_FIELDS].map((f) => f.replace(/[-_]/g, '[-_]')).join('|');
/** `name=value` at a string start or after `?`, `&`, `#` or `;`, up to the next delimiter. */
const QUERY_PARAM = new RegExp(`(^|[?&#;])(${fieldAlternation})=([^&#\\s"']*)`, 'gi');
/** Credentials after an auth scheme; `Bearer realm="…"` (a challenge, no secret) is left alone. */
const BEARER = /\b(bearer|basic)\s+(?![A-Za-z_-]+=")[A-Za-z0-9._~+/=-]+/gi;

export function redact(value: unknown): unknown {
  return walk(value, 0);
}

function walk(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return '[truncated]';
  if (typeof value === 'string') return redactString(value, depth);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;

  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // A header written as {name: 'Authorization', value: '…'}.
  const pairName = typeof obj['name'] === 'string' && 'value' in obj ? obj['name'] : undefined;
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'value' && pairName !== undefined && isSecretField(pairName)) out[key] = REDACTED;
    else if (isSecretField(key) && !(key.toLowerCase() === 'code' && typeof v === 'number')) out[key] = v == null ? v : REDACTED;
    else out[key] = walk(v, depth + 1);
  }
  return out;
}

function redactString(text: string, depth: number): string {
  const trimmed = text.trimStart();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && text.length <= MAX_JSON_STRING) {
    try {
      return JSON.stringify(walk(JSON.parse(text), depth + 1));
    } catch {
      // Not JSON after all; fall through to the text rules.
    }
  }
  return text
    .replace(QUERY_PARAM, (_m, lead: string, name: string) => `${lead}${name}=${REDACTED}`)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}
