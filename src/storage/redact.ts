/**
 * Removes credentials from what the request log keeps (SPEC J2). The log is for showing and
 * exporting, so it must be safe to paste into a bug report: redaction happens before
 * anything is stored, never at display time — tool arguments and results included, so the
 * stored log (IndexedDB) and its export hold the same redacted text.
 *
 * Three rules, applied at any depth, in header objects, in `{name, value}` header pairs, in URL
 * query strings and fragments, in form bodies and in JSON carried as a string:
 * - **By field name**: the OAuth and HTTP names ({@link SECRET_FIELDS}), and any name whose last
 *   word is a secret noun ({@link isSecretName}): `api_key`, `apiKey`, `x-api-key`, `secret`,
 *   `client_secret`, `password`, `private_key`, `client_assertion`, `sessionToken`,
 *   `credentials`. Judged by the name's *last word* (camelCase, `_`, `-`, `.` split it), so a
 *   name that merely contains the letters is kept: `monkey`, `keyboard`, `author`,
 *   `token_type`, `max_tokens`, `primary_key`, `public_key`, `secret_name`. A bare `key` is kept
 *   too (a key-value store's key is a name); `api`, `private`, `secret`, `access`, `client`…
 *   before it make it a secret. A false positive only hides a value from the log; a false
 *   negative leaks it, so the secret nouns are many and the kept words few.
 * - **By value shape**, anywhere in text: `Bearer …` / `Basic …` credentials, JWTs, `sk-…`-style
 *   provider keys, GitHub, GitLab, Slack, Hugging Face, Stripe, AWS and Google key formats, and
 *   PEM private keys.
 * - **`name: value` / `name=value` in free text** whose name is a secret by the rule above.
 * One deliberate exception: a numeric `code` is kept, because JSON-RPC error codes are what a
 * log reader needs; an OAuth authorization code is a string.
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
/** A name whose last word is one of these is a secret. */
const SECRET_NOUNS = new Set([
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'pwd',
  'token',
  'credential',
  'credentials',
  'creds',
  'assertion',
  'cookie',
  'cookies',
  'authorization',
  'auth',
  'bearer',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'signingkey',
  'otp',
  'totp',
]);
/** `<word> key` is a secret for these words (`api_key`, `privateKey`, `X-API-Key`); a bare `key` is not. */
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'secret',
  'access',
  'client',
  'signing',
  'encryption',
  'master',
  'session',
  'auth',
  'ssh',
  'license',
  'subscription',
  'account',
  'service',
  'app',
  'consumer',
  'shared',
  'hmac',
  'webhook',
]);
/** A last word that only says how a secret is held: `tokenValue`, `password_b64` are secrets. */
const HOLDER_WORDS = new Set(['value', 'val', 'raw', 'plain', 'plaintext', 'text', 'str', 'string', 'b64', 'base64', 'hex', 'encoded']);

const MAX_DEPTH = 64;
const MAX_JSON_STRING = 1 << 20;

/** The words of a field name, lowercase: `xApiKey`, `X-API-Key`, `x_api_key` → x, api, key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function secretByWords(words: readonly string[]): boolean {
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_NOUNS.has(last)) return true;
  if ((last === 'key' || last === 'keys') && words.length > 1 && KEY_QUALIFIERS.has(words.at(-2)!)) return true;
  return HOLDER_WORDS.has(last) && words.length > 1 && secretByWords(words.slice(0, -1));
}

/** Whether a field, header, parameter or pair of that name holds a secret (see the file comment). */
export function isSecretName(name: string): boolean {
  if (name.length > 128) return false;
  return SECRET_FIELDS.has(name.toLowerCase()) || secretByWords(wordsOf(name));
}

/** `name=value` at a string start or after `?`, `&`, `#` or `;`, up to the next delimiter. */
const QUERY_PARAM = /(^|[?&#;])([A-Za-z0-9_.[\]-]{1,128})=([^&#\s"']*)/g;
/** `name: value` or `name = value` in free text (a log line, a tool's message). */
const TEXT_PAIR = /(^|[^A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]{0,127})(\s*[:=]\s*)(["']?)([^\s"',;&<>{}()[\]=]+)/g;
/** Credentials after an auth scheme; `Bearer realm="…"` (a challenge, no secret) is left alone. */
const BEARER = /\b(bearer|basic)\s+(?![A-Za-z_-]+=")[A-Za-z0-9._~+/=-]+/gi;
/** Secrets recognisable by their shape wherever they appear. */
const SECRET_SHAPES = [
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, // JWT (JWS compact form)
  /\b(?:sk|rk)[-_][A-Za-z0-9_-]{16,}/g, // OpenAI/Anthropic sk-…, Stripe sk_live_…/rk_…
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, // GitHub
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bxox[abprse]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API key
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, // PEM
];

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
    if (key === 'value' && pairName !== undefined && isSecretName(pairName)) out[key] = REDACTED;
    else if (isSecretName(key) && !(key.toLowerCase() === 'code' && typeof v === 'number')) out[key] = v == null ? v : REDACTED;
    else out[key] = walk(v, depth + 1);
  }
  return out;
}

/**
 * `name: value` pairs whose name is a secret. A pair whose name is not one only steps past its
 * name, so the next pair is still seen (`failed: password=…`).
 */
function redactTextPairs(text: string): string {
  const pair = new RegExp(TEXT_PAIR.source, 'g');
  let out = '';
  let from = 0;
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const [whole, lead, name, sep, quote, value] = m as unknown as [string, string, string, string, string, string];
    // `Authorization: Bearer [redacted]` was handled by the scheme rule: its scheme word stays readable.
    if (!isSecretName(name) || value === REDACTED || /^(bearer|basic)$/i.test(value)) {
      pair.lastIndex = m.index + lead.length + name.length;
      continue;
    }
    out += `${text.slice(from, m.index)}${lead}${name}${sep}${quote}${REDACTED}`;
    from = m.index + whole.length;
  }
  return out + text.slice(from);
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
  let out = text
    .replace(QUERY_PARAM, (m, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${REDACTED}` : m))
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = redactTextPairs(out);
  for (const shape of SECRET_SHAPES) out = out.replace(shape, REDACTED);
  return out;
}
