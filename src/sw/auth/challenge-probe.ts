/**
 * The server's own answer drives authorization (SPEC E3, seed §3): before discovery, the MCP
 * endpoint gets the `initialize` probe (initialize-probe.ts). A 401 `Bearer` challenge then names
 * the PRM (`resource_metadata`, which has priority over well-known probing) and the scope this
 * server wants. A server that takes `initialize` without credentials is asked for its tools
 * next, as a client would: its 401 there is the challenge (the scope its tools need). Anything else
 * — a 404, a network error, no answer in time, a server that needs nothing — just means "no
 * hints", and discovery goes on from the well-known URLs.
 */
import { endSession, postFirstListing, postInitialize, postModern, PROBE_TIMEOUT_MS } from './initialize-probe.js';
import type { FetchLike } from './ports.js';

/** The `WWW-Authenticate` of the server's 401 to an unauthenticated `initialize` (or its first listing), if it sent one. */
export async function probeChallenge(fetchFn: FetchLike, mcpUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  let res: Response;
  try {
    res = await postInitialize(fetchFn, mcpUrl, timeoutMs);
  } catch {
    return undefined;
  }
  await res.body?.cancel().catch(() => undefined);
  if (res.ok) return challengeAfterInitialize(fetchFn, mcpUrl, res.headers.get('mcp-session-id'), timeoutMs);
  // A server of the 2026-07-28 era refuses `initialize` with 400: its discover, then its tools, carry the challenge (SPEC R1, E7).
  if (res.status === 400) return modernChallenge(fetchFn, mcpUrl, timeoutMs);
  return challengeOf(res);
}

async function modernChallenge(fetchFn: FetchLike, mcpUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    for (const method of ['server/discover', 'tools/list'] as const) {
      const res = await postModern(fetchFn, mcpUrl, method, timeoutMs);
      await res.body?.cancel().catch(() => undefined);
      const challenge = challengeOf(res);
      if (challenge || !res.ok) return challenge;
    }
  } catch {
    // No hints: discovery goes on from the well-known URLs.
  }
  return undefined;
}

const challengeOf = (res: Response) =>
  res.status === 401 ? (res.headers.get('www-authenticate')?.slice(0, 16 * 1024) ?? undefined) : undefined;

/** The challenge of the first listing after an unauthenticated `initialize`; the session it opened is ended. */
async function challengeAfterInitialize(fetchFn: FetchLike, mcpUrl: string, sessionId: string | null, timeoutMs: number) {
  let challenge: string | undefined;
  try {
    const listed = await postFirstListing(fetchFn, mcpUrl, sessionId, timeoutMs);
    await listed.body?.cancel().catch(() => undefined);
    challenge = challengeOf(listed);
  } catch {
    challenge = undefined;
  }
  if (sessionId) await endSession(fetchFn, mcpUrl, sessionId);
  return challenge;
}
