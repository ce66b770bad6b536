import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endSession, postInitialize } from '../../../../src/sw/auth/initialize-probe.js';
import type { FetchLike } from '../../../../src/sw/auth/ports.js';

const MCP = 'https://mcp.example.com/mcp';

test('the probe is an unauthenticated initialize POST with a timeout and no redirects', async () => {
  const seen: RequestInit[] = [];
  const fetchFn: FetchLike = async (_url, init) => {
    seen.push(init ?? {});
    return new Response('{}');
  };
  await postInitialize(fetchFn, MCP);
  const init = seen[0]!;
  assert.equal(init.method, 'POST');
  assert.equal(init.redirect, 'error');
  assert.ok(init.signal instanceof AbortSignal);
  const headers = new Headers(init.headers);
  assert.equal(headers.get('authorization'), null);
  assert.equal(headers.get('accept'), 'application/json, text/event-stream');
  const body = JSON.parse(init.body as string) as { method: string; id: number };
  assert.deepEqual([body.method, body.id], ['initialize', 0]);
});

test('the probe rejects once its timeout passes without an answer', async () => {
  const fetchFn: FetchLike = (_url, init) =>
    new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
  // AbortSignal.timeout's timer does not hold the event loop open; this watchdog does, and fails
  // the test instead of letting it hang should the probe never give up.
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    watchdog = setTimeout(() => reject(new Error('the probe never gave up')), 2000);
  });
  try {
    await assert.rejects(Promise.race([postInitialize(fetchFn, MCP, 20), gaveUp]), /network error/);
  } finally {
    clearTimeout(watchdog);
  }
});

test('endSession sends DELETE with the session id and swallows a failure', async () => {
  const seen: string[] = [];
  const fetchFn: FetchLike = async (url, init) => {
    seen.push(`${init?.method} ${url} ${new Headers(init?.headers).get('mcp-session-id')}`);
    throw new TypeError('fetch failed');
  };
  await endSession(fetchFn, MCP, 's-1');
  assert.deepEqual(seen, [`DELETE ${MCP} s-1`]);
});
