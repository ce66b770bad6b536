/**
 * The one rule for MCP server URLs, used by the panel form, the worker and the importer alike
 * (SPEC A1, E3, N2): HTTPS, or plain HTTP only on an explicit loopback host for local
 * development. Anything else would send tokens in clear.
 */
import { say, type Said } from '../protocol/wording.js';
import { MAX_URL_LENGTH } from '../storage/config-schema.js';

/** A URL problem, worded for the panel to translate (`invalid URL: <detail>` in English). */
export function invalidUrl(
  detail: 'missing' | 'not text' | 'no host' | 'not absolute' | 'needs https' | 'credentials' | 'too long',
  scheme = '',
): Said {
  // A scheme we do not speak is said as such, whichever check found it.
  if (scheme && (detail === 'not absolute' || detail === 'needs https')) return say('reasonUrlScheme', { scheme });
  if (detail === 'too long') return say('reasonUrlTooLong', { max: MAX_URL_LENGTH });
  return say(PLAIN_URL_REASONS[detail]);
}

const PLAIN_URL_REASONS = {
  missing: 'reasonUrlMissing',
  'not text': 'reasonUrlNotText',
  'no host': 'reasonUrlNoHost',
  'not absolute': 'reasonUrlNotAbsolute',
  'needs https': 'reasonUrlNeedsHttps',
  credentials: 'reasonUrlCredentials',
} as const;

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: Said };

/** The hosts on which plain HTTP is allowed, for local development (SPEC A1, E3, N2); the one list. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** A URL's `hostname` (IPv6 in brackets, as `URL` gives it) is one of {@link LOOPBACK_HOSTS}, in any case. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.includes(hostname.toLowerCase());
}

/** Validates a complete URL and returns it normalised by the WHATWG parser. */
export function checkUrl(raw: string): UrlCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: invalidUrl('missing') };
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl('too long') };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, reason: invalidUrl('not absolute') };
  }
  if (parsed.protocol === 'http:') {
    if (!isLoopbackHost(parsed.hostname)) {
      return { ok: false, reason: invalidUrl('needs https') };
    }
  } else if (parsed.protocol !== 'https:') {
    return { ok: false, reason: invalidUrl('needs https', parsed.protocol.slice(0, 20)) };
  }
  if (parsed.hostname === '') return { ok: false, reason: invalidUrl('no host') };
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: invalidUrl('credentials') };
  }
  if (parsed.href.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl('too long') };
  return { ok: true, url: parsed.href };
}

/**
 * The form two URLs are compared in to find an existing server: scheme and host lowercased,
 * default port dropped, fragment dropped, and no difference for a trailing slash.
 * Text that is not a URL is compared as-is (trimmed, trailing slashes removed).
 */
export function canonicalUrl(raw: string): string {
  const text = raw.trim();
  try {
    const parsed = new URL(text);
    const path = parsed.pathname.replace(/\/+$/, '');
    return `${parsed.protocol}//${parsed.host}${path}${parsed.search}`;
  } catch {
    return text.replace(/\/+$/, '');
  }
}

/** Checks a URL typed or stored for a server; the fragment is dropped (it never reaches the server). */
export function checkServerUrl(input: string): { ok: true; url: string } | ({ ok: false } & Said) {
  const checked = checkUrl(input);
  if (!checked.ok) return { ok: false, ...checked.reason };
  const u = new URL(checked.url);
  u.hash = '';
  return { ok: true, url: u.href };
}

/**
 * Host-permission match pattern for exactly a URL's origin, port included (least privilege): a
 * Chrome match pattern without a port matches every port of the host, so granting one loopback
 * server would grant every local service, and `https://host:8443` every port of host. Chrome's
 * patterns take `<scheme>://<host>:<port>/<path>`; a default port is left out by `URL.host`, and
 * the manifest's portless optional patterns still cover the narrower request.
 */
export function originPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}/*`;
}
