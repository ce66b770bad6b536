/**
 * What a live session depends on (SPEC C3, C6): its URL, the auth settings it was opened with,
 * its static headers and its request timeout. A change to any of it needs a new session; the
 * fingerprint lets a new worker instance recognise a session it can adopt from the offscreen
 * document without keeping the settings themselves there.
 */
import { sha256Hex } from '../../common/sha256.js';
import type { McpServerConfig } from '../../storage/config-schema.js';

/**
 * The auth settings a session depends on: what the user configured. What an authorization writes
 * into the entry — the credential binding (resource, issuer), a registered client, a rotated
 * refresh token, the pinned issuer of a configured client — is not: each is written while the
 * flow runs, and a reconnect for it would race the flow's own connect and replace the reason a
 * failed attempt left with a generic one (E9). "Forget authorization" reconnects explicitly.
 */
function sessionAuth(c: McpServerConfig): unknown {
  if (c.auth.kind !== 'oauth') return c.auth;
  const { tokens: _t, registration: _r, clientIssuer: _i, binding: _b, ...rest } = c.auth;
  return rest;
}

function bindingText(c: McpServerConfig): string {
  return JSON.stringify([c.url, c.timeoutMs ?? null, sessionAuth(c), c.headers ?? null]);
}

/** Whether two entries can share one live session. */
export function sameBinding(a: McpServerConfig, b: McpServerConfig): boolean {
  return bindingText(a) === bindingText(b);
}

/**
 * SHA-256 (hex) of the binding: URL + auth binding + headers digest (sealed values, so the same
 * stored entry always gives the same print) + timeout.
 */
export function bindingFingerprint(c: McpServerConfig): string {
  return sha256Hex(bindingText(c));
}
