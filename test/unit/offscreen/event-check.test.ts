import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { MalformedAnswerError, eventMessageReader, malformation } from '../../../src/offscreen/event-check.js';
import { limitResponse } from '../../../src/offscreen/response-limits.js';

const ORIGIN = 'https://mcp.example.com';
const enc = new TextEncoder();

test("the verdict on a message is the SDK schema's, with or without the shortcut for a plain result; an answer with id null is unmatched, not malformed", () => {
  const messages = [
    { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
    { jsonrpc: '2.0', id: 'a', result: {} },
    { jsonrpc: '2.0', id: 1.5, result: {} },
    { jsonrpc: '2.0', id: 2 ** 60, result: {} },
    { jsonrpc: '2.0', id: null, result: {} },
    { jsonrpc: '2.0', id: 1, result: [] },
    { jsonrpc: '2.0', id: 1, result: null },
    { jsonrpc: '2.0', id: 1, result: 'x' },
    { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: {} } } },
    { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: 1 } } },
    { jsonrpc: '1.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 1, result: {}, extra: true },
    { id: 1, result: {}, extra: true },
    { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    { jsonrpc: '2.0', id: 3, method: 'elicitation/create', params: {} },
    { hello: 'world' },
    [],
    42,
  ];
  for (const m of messages) {
    // N6: `id: null` cannot match a request: the answer is dropped as unmatched, not a malformed stream.
    const unmatched = typeof m === 'object' && m !== null && 'id' in m && m.id === null;
    const expected = JSONRPCMessageSchema.safeParse(m).success || unmatched ? undefined : 'a message that is not JSON-RPC 2.0';
    assert.equal(malformation(JSON.stringify(m)), expected, JSON.stringify(m));
  }
  assert.equal(malformation('{"jsonrpc":'), 'an event that is not JSON');
});

test('the reader finds a bad message split over chunks and line endings, and only in message events', () => {
  const told: string[] = [];
  const read = eventMessageReader(ORIGIN, (m) => told.push(m));
  assert.equal(read(enc.encode('event: ping\r\ndata: not json\r')), undefined);
  assert.equal(read(enc.encode('\n\r\ndata: {"jsonrpc":"2.0","id":1,')), undefined, 'another event type is not read');
  assert.equal(read(enc.encode('"result":{}}\n\n')), undefined);
  const error = read(enc.encode('data: {"hello"\ndata: :"world"}\n\n'));
  assert.ok(error instanceof MalformedAnswerError);
  assert.deepEqual(told, [`${ORIGIN} sent a malformed answer (a message that is not JSON-RPC 2.0).`]);
});

test('size bound and message check run in one stage: a malformed event stops the stream', async () => {
  const told: string[] = [];
  const response = limitResponse(
    new Response('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\ndata: oops\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    ORIGIN,
    { eventReader: eventMessageReader(ORIGIN, (m) => told.push(m)) },
  );
  await assert.rejects(response.text(), MalformedAnswerError);
  assert.deepEqual(told, [`${ORIGIN} sent a malformed answer (an event that is not JSON).`]);
  const json = limitResponse(new Response('oops', { headers: { 'content-type': 'application/json' } }), ORIGIN, {
    eventReader: () => new Error('not an event stream: never read'),
  });
  assert.equal(await json.text(), 'oops');
});
