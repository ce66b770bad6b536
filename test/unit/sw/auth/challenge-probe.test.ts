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
  assert.deepEqual(calls, [`POST ${MCP}`, `POST ${MCP} s-9`, `POST ${MCP} s-9`, `DELETE ${MCP} s-9`]);
});

test('E7: a server that lets anyone initialize but guards its tools: the 401 of the first listing is the challenge (its scope, not scopes_supported)', async () => {
  const challenge = 'Bearer scope="mcp:basic", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';
  const bodies: string[] = [];
  const fetchFn: FetchLike = async (_url, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method: string }) : undefined;
    bodies.push(body?.method ?? String(init?.method));
    if (body?.method === 'tools/list') {
      assert.equal(new Headers(init?.headers).get('authorization'), null, 'still without credentials');
      assert.equal(new Headers(init?.headers).get('mcp-protocol-version'), '2025-11-25');
      return new Response(null, { status: 401, headers: { 'www-authenticate': challenge } });
    }
    return body?.method === 'initialize' ? new Response('{}') : new Response(null, { status: 202 });
  };
  assert.equal(await probeChallenge(fetchFn, MCP), challenge);
  assert.deepEqual(bodies, ['initialize', 'notifications/initialized', 'tools/list'], 'no session was opened, so none is ended');
});
