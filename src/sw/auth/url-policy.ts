/**
 * Which URLs the authorization code may talk to, and the canonical form of the MCP resource.
 * Every OAuth and discovery request passes through {@link assertAllowedEndpoint} before it is
 * made (SPEC N2), so a hostile metadata document cannot point us at plain HTTP.
 */
import { InsecureEndpointError } from './errors.js';
import { isLoopbackHost } from '../../common/url-rules.js';

/** Parse without throwing; `undefined` for anything `URL` rejects. */
export function tryParseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Canonical MCP resource URL (RFC 8707, MCP authorization spec): lowercase scheme and host,
 * default port dropped, fragment removed, path kept. The WHATWG URL parser already does the
 * case and port normalisation; we only strip the fragment and refuse URLs with credentials,
 * which must never be sent as a `resource` value.
 */
export function canonicalResourceUrl(value: string): string {
  const url = tryParseUrl(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`"${value}" is not an http(s) URL.`);
  }
  if (url.username || url.password) {
    throw new TypeError(`"${url.host}${url.pathname}" contains credentials, which are not allowed in a server URL.`);
  }
  url.hash = '';
  return url.href;
}

/** HTTPS anywhere, or HTTP only to explicit loopback hosts (SPEC E3, N2). */
export function isAllowedEndpoint(value: string): boolean {
  const url = tryParseUrl(value);
  if (!url) return false;
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** Throw {@link InsecureEndpointError} naming `what` unless {@link isAllowedEndpoint}. */
export function assertAllowedEndpoint(value: string, what: string): void {
  if (!isAllowedEndpoint(value)) {
    throw new InsecureEndpointError(
      `The ${what} "${value}" is not HTTPS (plain HTTP is allowed only for 127.0.0.1, localhost and [::1]); nothing was sent to it.`,
      value,
    );
  }
}

/** Same scheme, host and port. Unparsable URLs are never same-origin. */
export function isSameOrigin(a: string, b: string): boolean {
  const ua = tryParseUrl(a);
  const ub = tryParseUrl(b);
  return !!ua && !!ub && ua.origin !== 'null' && ua.origin === ub.origin;
}
