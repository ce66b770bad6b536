/**
 * Static headers from a pasted config. `Authorization: Bearer …` becomes bearer auth, because
 * the extension stores and refreshes that separately (SPEC E1, F); other headers are kept.
 * Names must be HTTP tokens, values bounded and free of line breaks (no header injection), and
 * headers that `fetch` refuses to send or that the MCP transport owns are refused visibly
 * rather than silently dropped at connect time.
 */
import type { Said } from '../protocol/wording.js';
import type { ImportHeader } from './import-schema.js';
import { HEADER_NAME_PATTERN } from './import-schema.js';
import { MAX_HEADER_NAME_LENGTH, MAX_HEADER_VALUE_LENGTH, MAX_HEADERS } from './limits.js';
import { invalidField, invalidHeader } from './reasons.js';
import { hasValueControlChar } from '../common/control-chars.js';

export type HeaderResult = { ok: true; headers: ImportHeader[]; bearerToken?: string } | { ok: false; reason: Said };

/** Forbidden request headers (Fetch standard) and the ones the Streamable HTTP transport sets. */
const RESERVED = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'connection',
  'content-length',
  'content-type',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'expect',
  'host',
  'keep-alive',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'origin',
  'referer',
  'set-cookie',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'via',
]);
const RESERVED_PREFIXES = ['proxy-', 'sec-'];
const BEARER = /^bearer[ \t]+(\S[\s\S]*)$/i;

/** Reads a `headers` object into checked name/value pairs. */
export function headersFromObject(value: unknown): { ok: true; pairs: [string, unknown][] } | { ok: false; reason: Said } {
  if (value === undefined || value === null) return { ok: true, pairs: [] };
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: invalidField('headers', 'expected an object of name: value') };
  return { ok: true, pairs: Object.entries(value as Record<string, unknown>) };
}

/**
 * Validates raw pairs and splits off a bearer token. A duplicate name (case-insensitive) is an
 * error rather than a silent "last one wins".
 */
export function normaliseHeaders(pairs: readonly (readonly [string, unknown])[]): HeaderResult {
  if (pairs.length > MAX_HEADERS) return { ok: false, reason: invalidField('headers', `more than ${MAX_HEADERS}`) };
  const headers: ImportHeader[] = [];
  const seen = new Set<string>();
  let bearerToken: string | undefined;
  for (const [rawName, rawValue] of pairs) {
    const name = rawName.trim();
    const problem = checkName(name);
    if (problem) return { ok: false, reason: invalidHeader(name, problem) };
    const lower = name.toLowerCase();
    if (seen.has(lower)) return { ok: false, reason: invalidHeader(name, 'appears more than once') };
    seen.add(lower);
    if (typeof rawValue !== 'string' && !(typeof rawValue === 'number' && Number.isFinite(rawValue))) {
      return { ok: false, reason: invalidHeader(name, 'value must be text') };
    }
    const value = String(rawValue).trim();
    if (value.length > MAX_HEADER_VALUE_LENGTH)
      return { ok: false, reason: invalidHeader(name, `value longer than ${MAX_HEADER_VALUE_LENGTH / 1024} KiB`) };
    if (hasValueControlChar(value)) return { ok: false, reason: invalidHeader(name, 'value contains a line break or control character') };
    if (lower === 'authorization') {
      const bearer = BEARER.exec(value);
      if (bearer) {
        bearerToken = (bearer[1] ?? '').trim();
        continue;
      }
      if (/^bearer\s*$/i.test(value)) return { ok: false, reason: invalidHeader(name, 'Bearer without a token') };
    }
    headers.push({ name, value });
  }
  return bearerToken === undefined ? { ok: true, headers } : { ok: true, headers, bearerToken };
}

function checkName(name: string): string | undefined {
  if (name === '') return 'empty name';
  if (name.length > MAX_HEADER_NAME_LENGTH) return `name longer than ${MAX_HEADER_NAME_LENGTH} characters`;
  if (!HEADER_NAME_PATTERN.test(name)) return 'name is not a valid HTTP header name';
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
    return 'set by the browser or the MCP transport, cannot be configured';
  }
  return undefined;
}
