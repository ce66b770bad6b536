/**
 * The one `fetch` of the extension (SPEC N2, SECURITY.md): the MCP transport in the offscreen
 * document and the worker's discovery, registration, token and revocation requests all go
 * through it. Extension pages would otherwise send the browser's cookies (and HTTP auth) for the
 * target origin — a privacy leak to every MCP server, and the reason some authorization servers
 * run an `Origin` check and refuse `chrome-extension://` with 403 — and a `Referer` naming the
 * extension. A bare `fetch(` elsewhere in `src` fails lint (eslint.config.mjs).
 */
export function outgoingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return fetch(input, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer' });
}
