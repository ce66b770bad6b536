import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardedFetch, readBodyCapped, readJsonCapped } from '../../../../src/sw/auth/bounded-fetch.js';
import {
  BadResponseError,
  InsecureEndpointError,
  RedirectRefusedError,
  ResponseTooLargeError,
  AuthNetworkError,
} from '../../../../src/sw/auth/errors.js';
import { FakeNet, json } from './fake-net.js';

test('a non-https endpoint is refused before any request is made', async () => {
  const net = new FakeNet();
  await assert.rejects(guardedFetch(net.fetch, 'http://as.example.com/token', {}, 'token endpoint'), (e: unknown) => {
    assert.ok(e instanceof InsecureEndpointError);
    assert.match(e.message, /token endpoint "http:\/\/as\.example\.com\/token" is not HTTPS/);
    return true;
  });
  assert.equal(net.requests.length, 0);
});

test('every request is sent with redirect: error', async () => {
  const net = new FakeNet().on('https://a.example/x', { ok: true });
  await guardedFetch(net.fetch, 'https://a.example/x', { redirect: 'follow' }, 'x');
  assert.equal(net.requests[0]?.redirect, 'error');
});

test('a redirect is refused, both as a network error and as a 3xx that slips through', async () => {
  const net = new FakeNet().on(
    'https://a.example/x',
    () => new Response(null, { status: 302, headers: { location: 'https://evil.example/' } }),
  );
  await assert.rejects(guardedFetch(net.fetch, 'https://a.example/x', {}, 'metadata'), AuthNetworkError);
  const lax = async () => new Response(null, { status: 307 });
  await assert.rejects(guardedFetch(lax, 'https://a.example/x', {}, 'metadata'), RedirectRefusedError);
});

test('a body over the cap is an attributed error, whether or not content-length says so', async () => {
  const big = 'x'.repeat(2000);
  await assert.rejects(readBodyCapped(new Response(big), 'https://a.example/m', 'metadata', 1000), (e: unknown) => {
    assert.ok(e instanceof ResponseTooLargeError);
    assert.match(e.message, /metadata at https:\/\/a\.example\/m sent more than 1000 bytes/);
    return true;
  });
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(600));
    },
  });
  await assert.rejects(readBodyCapped(new Response(stream), 'https://a.example/m', 'metadata', 1000), ResponseTooLargeError);
  assert.equal((await readBodyCapped(new Response('abc'), 'u', 'w', 3)).byteLength, 3);
});

test('JSON is read only with a JSON content type and must parse', async () => {
  assert.deepEqual(await readJsonCapped(json({ a: 1 }), 'u', 'w'), { a: 1 });
  const problem = new Response('{"a":1}', { headers: { 'content-type': 'application/problem+json; charset=utf-8' } });
  assert.deepEqual(await readJsonCapped(problem, 'u', 'w'), { a: 1 });
  const html = new Response('<html>login</html>', { headers: { 'content-type': 'text/html' } });
  await assert.rejects(readJsonCapped(html, 'https://a.example/m', 'metadata'), (e: unknown) => {
    assert.ok(e instanceof BadResponseError);
    assert.match(e.message, /content type "text\/html"/);
    return true;
  });
  const broken = new Response('{nope', { headers: { 'content-type': 'application/json' } });
  await assert.rejects(readJsonCapped(broken, 'u', 'w'), BadResponseError);
});
