/**
 * Which server URLs an import may add (SPEC A1, E3, N2): HTTPS, or plain HTTP only for an
 * explicit loopback host used during development. Anything else would send tokens in clear.
 */
import { MAX_URL_LENGTH } from './limits.js';
import { invalidUrl } from './reasons.js';

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** Validates a complete URL and returns it normalised by the WHATWG parser. */
export function checkUrl(raw: string): UrlCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: invalidUrl('missing') };
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl(`longer than ${MAX_URL_LENGTH} characters`) };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, reason: invalidUrl('not an absolute URL') };
  }
  if (parsed.protocol === 'http:') {
    if (!isLoopbackHost(parsed.hostname)) {
      return { ok: false, reason: invalidUrl('must use https (http is allowed only for localhost, 127.0.0.1 or [::1])') };
    }
  } else if (parsed.protocol !== 'https:') {
    return { ok: false, reason: invalidUrl(`scheme ${parsed.protocol.slice(0, 20)} is not allowed (https only)`) };
  }
  if (parsed.hostname === '') return { ok: false, reason: invalidUrl('no host') };
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: invalidUrl('credentials in the URL are not allowed (use a header or a token instead)') };
  }
  if (parsed.href.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl(`longer than ${MAX_URL_LENGTH} characters`) };
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

/**
 * Validates a URL that still contains placeholders. The placeholders are replaced by a filler;
 * when the filled URL fails only because a placeholder sits in the scheme or host (say
 * `https://${HOST}/mcp` or `${BASE_URL}/mcp`), judgement is deferred to when the user has filled
 * it in (`applyPlaceholders` checks again). A problem elsewhere skips the entry now.
 */
export function checkUrlWithPlaceholders(raw: string, tokens: readonly string[]): { ok: true } | { ok: false; reason: string } {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl(`longer than ${MAX_URL_LENGTH} characters`) };
  let filled = raw;
  for (const token of tokens) filled = filled.split(token).join('x');
  const check = checkUrl(filled);
  if (check.ok) return { ok: true };
  const authorityEnd = endOfAuthority(raw);
  const firstPlaceholder = Math.min(...tokens.map((token) => raw.indexOf(token)).filter((index) => index >= 0));
  if (firstPlaceholder < authorityEnd) return { ok: true };
  return check;
}

function endOfAuthority(raw: string): number {
  const schemeEnd = raw.indexOf('://');
  if (schemeEnd === -1) return raw.length;
  const rest = raw.slice(schemeEnd + 3).search(/[/?#]/);
  return rest === -1 ? raw.length : schemeEnd + 3 + rest;
}
