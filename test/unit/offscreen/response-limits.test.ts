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

/** An event stream read through the cutting pass, in the given pieces. */
async function cutStream(...parts: string[]): Promise<string> {
  const r = limitResponse(new Response(streamOf(...parts), { headers: { 'content-type': 'text/event-stream' } }), ORIGIN, {
    cutLongStrings: true,
  });
  return r.text();
}

test('a cut event stream keeps every other line as it is: comments, ids, other events, CR LF, data without a space', async () => {
  const stream = ': comment\r\nid: 4\r\nevent: ping\r\ndata: {"a":1}\r\n\r\nevent: message\ndata:{"jsonrpc":"2.0","id":1,"result":{}}\n\n';
  for (let size = 1; size <= stream.length; size += 7) {
    const parts: string[] = [];
    for (let i = 0; i < stream.length; i += size) parts.push(stream.slice(i, i + size));
    assert.equal(await cutStream(...parts), stream);
  }
});

test('a long text in an event is cut per event, across data lines split anywhere; the next event starts clean', async () => {
  const big = 'w'.repeat(3 * 1024 * 1024);
  const first = `data: {"jsonrpc":"2.0","id":1,\ndata: "result":{"content":[{"type":"text","text":"${big}"}]}}\r\n\r\n`;
  const second = 'data: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ok"}]}}\n\n';
  const text = await cutStream(first.slice(0, 100_000), first.slice(100_000, 2_000_000), first.slice(2_000_000), second);
  const events = text.split(/\r?\n\r?\n/).filter((e) => e !== '');
  assert.equal(events.length, 2);
  const data = (event: string) =>
    event
      .split(/\r?\n/)
      .map((l) => l.replace(/^data: ?/, ''))
      .join('\n');
  const one = JSON.parse(data(events[0]!)) as { result: { content: { text: string }[] } };
  assert.match(one.result.content[0]!.text, /truncated: the server sent 3\.0 MiB here; showing the first 64\.0 KiB\]$/);
  assert.deepEqual(JSON.parse(data(events[1]!)), { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } });
});

test('a cut event over the event bound after cutting errors, naming the origin', async () => {
  const many = `data: [${'"s",'.repeat(40)}"s"]\n\n`;
  const r = limitResponse(new Response(streamOf(many), { headers: { 'content-type': 'text/event-stream' } }), ORIGIN, {
    cutLongStrings: true,
    maxEventBytes: 64,
  });
  await assert.rejects(
    r.text(),
    (e: unknown) => e instanceof ResponseLimitError && /mcp\.example\.com.*larger than 64 bytes/.test(e.message),
  );
});

test('a cut JSON body announcing more than the read bound is refused before reading; one within it is read', async () => {
  const huge = new Response('x', { headers: { 'content-type': 'application/json', 'content-length': String(65 * 1024 * 1024) } });
  assert.throws(() => limitResponse(huge, ORIGIN, { cutLongStrings: true }), /larger than 64 MiB/);
  const body = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'t'.repeat(2 * 1024 * 1024)}"}]}}`;
  const ok = limitResponse(
    new Response(body, { headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }),
    ORIGIN,
    { cutLongStrings: true, maxBodyBytes: 1024 * 1024 },
  );
  const parsed = (await ok.json()) as { id: number; result: { content: { text: string }[] } };
  assert.equal(parsed.id, 1);
  assert.match(parsed.result.content[0]!.text, /truncated: the server sent 2\.0 MiB here/);
});

test('a cut JSON body no longer carries the length the server announced', async () => {
  const body = `{"text":"${'t'.repeat(2 * 1024 * 1024)}"}`;
  const cut = limitResponse(
    new Response(body, { headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }),
    ORIGIN,
    { cutLongStrings: true },
  );
  assert.equal(cut.headers.get('content-length'), null);
  assert.equal(cut.headers.get('content-type'), 'application/json');
  assert.ok((await cut.text()).length < 100 * 1024);
});
