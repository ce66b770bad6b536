/**
 * The server's own answer drives authorization (SPEC E3, seed §3): before discovery, the MCP
 * endpoint gets the `initialize` a client would send, without credentials. A 401 `Bearer`
 * challenge then names the PRM (`resource_metadata`, which has priority over well-known probing)
 * and the scope this server wants. Anything else — a 200, a 404, a network error — just means
 * "no hints", and discovery goes on from the well-known URLs.
 */
import { guardedFetch } from './bounded-fetch.js';
import type { FetchLike } from './ports.js';

/** The `initialize` a client sends first, here only to see how the server answers it. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'Remote MCP for Chrome', version: '0' } },
});

/** Ends a session a probe opened (best effort: a server may not support DELETE). */
export async function endSession(fetchFn: FetchLike, mcpUrl: string, sessionId: string): Promise<void> {
  await guardedFetch(fetchFn, mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } }, 'MCP endpoint')
    .then((r) => r.body?.cancel())
    .catch(() => undefined);
}

/** The `WWW-Authenticate` of the server's 401 to an unauthenticated `initialize`, if it sent one. */
export async function probeChallenge(fetchFn: FetchLike, mcpUrl: string): Promise<string | undefined> {
  let res: Response;
  try {
    res = await guardedFetch(
      fetchFn,
      mcpUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INITIALIZE,
      },
      'MCP endpoint',
    );
  } catch {
    return undefined;
  }
  await res.body?.cancel().catch(() => undefined);
  const sessionId = res.headers.get('mcp-session-id');
  // A server that needs no authorization just opened a session we will not use: end it.
  if (res.ok && sessionId) await endSession(fetchFn, mcpUrl, sessionId);
  if (res.status !== 401) return undefined;
  return res.headers.get('www-authenticate')?.slice(0, 16 * 1024) ?? undefined;
}
