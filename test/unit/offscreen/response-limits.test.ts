import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitResponse, RedirectRefusedError, ResponseLimitError } from '../../../src/offscreen/response-limits.js';

const ORIGIN = 'https://mcp.example.com';
const enc = new TextEncoder();

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(enc.encode(p));
      c.close();
    },
  });
}

test('a JSON body within the limit is passed through unchanged', async () => {
  const r = limitResponse(
    new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } }),
    ORIGIN,
    { maxBodyBytes: 100 },
  );
  assert.deepEqual(await r.json(), { jsonrpc: '2.0', id: 1, result: {} });
});

test('a JSON body over the limit errors while reading, naming the origin (N1)', async () => {
  const r = limitResponse(
    new Response(streamOf('x'.repeat(60), 'y'.repeat(60)), { headers: { 'content-type': 'application/json' } }),
    ORIGIN,
    { maxBodyBytes: 100 },
  );
  await assert.rejects(r.text(), (e: unknown) => e instanceof ResponseLimitError && /mcp\.example\.com/.test(e.message));
});

test('an announced oversized body is refused before reading', () => {
  const res = new Response('x', { headers: { 'content-type': 'application/json', 'content-length': '1000' } });
  assert.throws(() => limitResponse(res, ORIGIN, { maxBodyBytes: 100 }), ResponseLimitError);
});

test('an event stream may run long, but one event may not exceed the limit', async () => {
  const ok = limitResponse(
    new Response(streamOf(...Array.from({ length: 20 }, (_, i) => `data: ${'a'.repeat(40)}${i}\n\n`)), {
      headers: { 'content-type': 'text/event-stream' },
    }),
    ORIGIN,
    { maxEventBytes: 64 },
  );
  assert.equal((await ok.text()).split('\n\n').length, 21, 'many small events pass (CR LF boundaries too)');
  const crlf = limitResponse(
    new Response(streamOf('data: 1\r\n\r\n'.repeat(30)), { headers: { 'content-type': 'text/event-stream' } }),
    ORIGIN,
    { maxEventBytes: 16 },
  );
  assert.equal((await crlf.text()).length, 11 * 30);
  const big = limitResponse(
    new Response(streamOf('data: ', 'b'.repeat(50), 'b'.repeat(50), '\n\n'), { headers: { 'content-type': 'text/event-stream' } }),
    ORIGIN,
    { maxEventBytes: 64 },
  );
  await assert.rejects(big.text(), ResponseLimitError);
});

test('redirects are refused with a plain message, and an oversized session id too', () => {
  const redirect = new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/' } });
  assert.throws(
    () => limitResponse(redirect, ORIGIN),
    (e: unknown) => e instanceof RedirectRefusedError && /redirect/.test(e.message),
  );
  const longId = new Response('{}', { headers: { 'mcp-session-id': 's'.repeat(300) } });
  assert.throws(() => limitResponse(longId, ORIGIN), ResponseLimitError);
});
