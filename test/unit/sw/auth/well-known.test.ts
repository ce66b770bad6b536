import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstWellKnownJson } from '../../../../src/sw/auth/well-known.js';
import type { FetchLike } from '../../../../src/sw/auth/ports.js';

const answering =
  (byUrl: Record<string, Response>, seen: string[]): FetchLike =>
  async (url) => {
    seen.push(url);
    return byUrl[url] ?? new Response('nope', { status: 404 });
  };
const jsonResponse = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

test('a 4xx candidate is skipped and the first document found is returned with its URL', async () => {
  const seen: string[] = [];
  const urls = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'];
  const fetchFn = answering({ 'https://a.example/2': jsonResponse({ ok: 1 }), 'https://a.example/3': jsonResponse({ ok: 2 }) }, seen);
  const found = await firstWellKnownJson(fetchFn, urls, 'metadata', () => new Error('unreadable'));
  assert.deepEqual(found, { json: { ok: 1 }, url: 'https://a.example/2' });
  assert.deepEqual(seen, urls.slice(0, 2), 'stops at the first document');
});

test("every candidate answering 4xx gives undefined; a 5xx throws the caller's error naming URL and status", async () => {
  assert.equal(await firstWellKnownJson(answering({}, []), ['https://a.example/1'], 'metadata', () => new Error('x')), undefined);
  const fetchFn = answering({ 'https://a.example/1': jsonResponse({}, 503) }, []);
  await assert.rejects(
    firstWellKnownJson(fetchFn, ['https://a.example/1', 'https://a.example/2'], 'metadata', (url, status) => new Error(`${url} ${status}`)),
    { message: 'https://a.example/1 503' },
  );
});
