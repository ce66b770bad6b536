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
  await assert.rejects(postInitialize(fetchFn, MCP, 20), /network error/);
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
