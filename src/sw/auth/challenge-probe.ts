/**
 * The server's own answer drives authorization (SPEC E3, seed §3): before discovery, the MCP
 * endpoint gets the `initialize` probe (initialize-probe.ts). A 401 `Bearer` challenge then names
 * the PRM (`resource_metadata`, which has priority over well-known probing) and the scope this
 * server wants. Anything else — a 200, a 404, a network error, no answer in time — just means
 * "no hints", and discovery goes on from the well-known URLs.
 */
import { endSession, postInitialize, PROBE_TIMEOUT_MS } from './initialize-probe.js';
import type { FetchLike } from './ports.js';

/** The `WWW-Authenticate` of the server's 401 to an unauthenticated `initialize`, if it sent one. */
export async function probeChallenge(fetchFn: FetchLike, mcpUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  let res: Response;
  try {
    res = await postInitialize(fetchFn, mcpUrl, timeoutMs);
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
