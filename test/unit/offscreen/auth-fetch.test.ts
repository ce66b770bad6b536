import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthFetch, type TokenProvider } from '../../../src/offscreen/auth-fetch.js';

function provider(overrides: Partial<TokenProvider> = {}): TokenProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    headers: async () => ({}),
    unauthorized: async (h) => (calls.push(`401 ${h}`), 'fresh'),
    forbidden: async (h) => (calls.push(`403 ${h}`), 'wider'),
    ...overrides,
  };
}

test('a 401 gets a token from the provider and the same request is sent again with it', async () => {
  const seen: (string | null)[] = [];
  const p = provider();
  const f = createAuthFetch(p, async (_u, init) => {
    const auth = new Headers(init?.headers).get('authorization');
    seen.push(auth);
    return auth ? new Response('ok') : new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer scope="a"' } });
  });
  const res = await f('http://127.0.0.1/mcp', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 200);
  assert.deepEqual(seen, [null, 'Bearer fresh']);
  assert.deepEqual(p.calls, ['401 Bearer scope="a"']);
});

test('a 403 asks for step-up; when the provider gives up its error reaches the caller', async () => {
  let n = 0;
  const p = provider({
    forbidden: async () => {
      if (++n > 2) throw new Error('limit');
      return `t${n}`;
    },
  });
  const f = createAuthFetch(
    p,
    async () => new Response('', { status: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope"' } }),
  );
  await assert.rejects(f('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }), /limit/);
  assert.equal(n, 3);
});

test('a stream body is not replayed: the 401 is returned as is', async () => {
  const p = provider();
  const f = createAuthFetch(p, async () => new Response('', { status: 401 }));
  const res = await f('http://127.0.0.1/mcp', { method: 'POST', body: new ReadableStream(), duplex: 'half' } as RequestInit);
  assert.equal(res.status, 401);
  assert.deepEqual(p.calls, []);
});
