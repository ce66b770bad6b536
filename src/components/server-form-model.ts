/**
 * Field rules shared by the add and edit forms (section K): what the user typed becomes either a
 * value ready to send or a message key for the field it belongs to. The worker checks the same
 * things again (url-rules.ts, the panel protocol's schemas).
 */
import type { MessageKey } from '../i18n/en.js';
import { checkServerUrl, LOOPBACK_HOSTS } from '../common/url-rules.js';
import { MAX_URL_LENGTH } from '../storage/config-schema.js';

export type FieldCheck<T> = { ok: true; value: T } | { ok: false; key: MessageKey; subs?: string[] };

/** Typed text that starts with a loopback host (then a port, a path or nothing): gets `http://`. */
const LOOPBACK = new RegExp(`^(${LOOPBACK_HOSTS.map((host) => host.replace(/[.[\]]/g, '\\$&')).join('|')})(:\\d+)?(/|$)`, 'i');
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
/** Headers the extension sets itself (the transport, the token): a static header may not replace them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'host', 'cookie']);

/** `example.com/mcp` → `https://example.com/mcp`; a loopback host gets `http://` (local development). */
export function withScheme(raw: string): string {
  const text = raw.trim();
  if (text === '' || HAS_SCHEME.test(text)) return text;
  return `${LOOPBACK.test(text) ? 'http' : 'https'}://${text}`;
}

/** A server URL typed by the user: scheme added when missing, then the worker's rule (SPEC A1). */
export function checkUrlField(raw: string): FieldCheck<string> {
  const text = withScheme(raw);
  if (text === '') return { ok: false, key: 'urlMissing' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, key: 'urlTooLong' };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, key: 'urlNotAbsolute' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, key: 'urlScheme' };
  if (parsed.username || parsed.password) return { ok: false, key: 'urlCredentials' };
  const checked = checkServerUrl(text);
  if (!checked.ok) return { ok: false, key: parsed.protocol === 'http:' ? 'urlNeedsHttps' : 'urlNotAbsolute' };
  return { ok: true, value: checked.url };
}

/** Connect timeout in whole seconds (1–600); empty means the default (null). */
export function checkTimeoutField(raw: string): FieldCheck<number | null> {
  const text = raw.trim();
  if (text === '') return { ok: true, value: null };
  if (!/^\d+$/.test(text)) return { ok: false, key: 'timeoutInvalid' };
  const seconds = Number(text);
  if (seconds < 1 || seconds > 600) return { ok: false, key: 'timeoutInvalid' };
  return { ok: true, value: seconds * 1000 };
}

/** A Client ID Metadata Document URL: HTTPS with a path (SPEC E8); empty means none. */
export function checkClientMetadataUrlField(raw: string): FieldCheck<string | undefined> {
  const text = raw.trim();
  if (text === '') return { ok: true, value: undefined };
  try {
    const u = new URL(text);
    if (u.protocol === 'https:' && u.pathname !== '/') return { ok: true, value: u.href };
  } catch {
    // Reported below.
  }
  return { ok: false, key: 'clientMetadataUrlInvalid' };
}

export function scopesOf(raw: string): string[] {
  return raw.split(/\s+/).filter(Boolean);
}

export function checkHeaderName(name: string): FieldCheck<string> {
  const text = name.trim();
  if (!HEADER_NAME.test(text)) return { ok: false, key: 'headerNameInvalid', subs: [text.slice(0, 60)] };
  if (RESERVED_HEADERS.has(text.toLowerCase())) return { ok: false, key: 'headerReserved', subs: [text] };
  return { ok: true, value: text };
}

/** `Name: value` per line (blank lines ignored), as the add form's header box takes them. */
export function checkHeaderLines(raw: string): FieldCheck<{ name: string; value: string }[]> {
  const out: { name: string; value: string }[] = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { ok: false, key: 'headerLineInvalid', subs: [line.trim().slice(0, 60)] };
    const name = checkHeaderName(line.slice(0, colon));
    if (!name.ok) return name;
    const value = line.slice(colon + 1).trim();
    if (value === '') return { ok: false, key: 'headerValueRequired', subs: [name.value] };
    if (out.some((h) => h.name.toLowerCase() === name.value.toLowerCase()))
      return { ok: false, key: 'headerDuplicate', subs: [name.value] };
    out.push({ name: name.value, value });
  }
  if (out.length > 32) return { ok: false, key: 'headerTooMany' };
  return { ok: true, value: out };
}

/** The server name the add form proposes: the server's own, else the URL's host. */
export function proposedName(url: string, serverName?: string): string {
  return serverName?.trim() || new URL(url).hostname;
}
