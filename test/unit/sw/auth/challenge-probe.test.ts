import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probeChallenge } from '../../../../src/sw/auth/challenge-probe.js';
import type { FetchLike } from '../../../../src/sw/auth/ports.js';

const MCP = 'https://mcp.example.com/mcp';

/** A server that accepts the request and never answers: only the request's signal ends the wait. */
function silentServer() {
  const signals: AbortSignal[] = [];
  const fetchFn: FetchLike = (_url, init) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      if (!signal) return; // No signal: this fetch hangs forever, as the unbounded probe did.
      signals.push(signal);
      signal.addEventListener('abort', () => reject(signal.reason as Error));
    });
  return { fetchFn, signals };
}

test("Authorize's probe gives up on a server that never answers: no hints, no hang", async () => {
  const server = silentServer();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<string>((resolve) => (watchdog = setTimeout(() => resolve('still waiting after 2 s'), 2_000)));
  const outcome = await Promise.race([probeChallenge(server.fetchFn, MCP, 25), hung]);
  clearTimeout(watchdog);
  assert.equal(outcome, undefined);
  assert.equal(server.signals.length, 1);
  assert.equal(server.signals[0]!.aborted, true);
});

test("Authorize's probe carries a timeout signal by default", async () => {
  const seen: (AbortSignal | null | undefined)[] = [];
  const fetchFn: FetchLike = async (_url, init) => {
    seen.push(init?.signal);
    return new Response('{}', { status: 404 });
  };
  assert.equal(await probeChallenge(fetchFn, MCP), undefined);
  assert.ok(seen[0] instanceof AbortSignal);
  assert.equal(seen[0].aborted, false);
});

test('a 401 hands over its challenge; a 200 ends the session it opened and gives none', async () => {
  const challenge = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"';
  const refused: FetchLike = async () => new Response(null, { status: 401, headers: { 'www-authenticate': challenge } });
  assert.equal(await probeChallenge(refused, MCP), challenge);
  const calls: string[] = [];
  const open: FetchLike = async (url, init) => {
    calls.push(`${init?.method} ${url} ${new Headers(init?.headers).get('mcp-session-id') ?? ''}`.trim());
    return init?.method === 'DELETE' ? new Response(null, { status: 204 }) : new Response('{}', { headers: { 'mcp-session-id': 's-9' } });
  };
  assert.equal(await probeChallenge(open, MCP), undefined);
  assert.deepEqual(calls, [`POST ${MCP}`, `DELETE ${MCP} s-9`]);
});
