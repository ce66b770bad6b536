/** SEP-2322: a result without resultType is complete; one with a type keeps it (result-type.ts, R4). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultResultTypes, withDefaultResultType } from '../../../src/offscreen/result-type.js';

test('R4: only a result object without resultType is given "complete"', () => {
  assert.equal(
    withDefaultResultType('{"jsonrpc":"2.0","id":1,"result":{}}'),
    '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}',
  );
  const asked = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}';
  assert.equal(withDefaultResultType(asked), asked);
  const error = '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}';
  assert.equal(withDefaultResultType(error), error);
  assert.equal(withDefaultResultType('not json'), 'not json');
});

test('R4: an event stream split anywhere keeps its events, each result defaulted', async () => {
  const stream =
    'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nid: 2\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n';
  const chunks = [stream.slice(0, 17), stream.slice(17, 70), stream.slice(70)];
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const part of chunks) c.enqueue(new TextEncoder().encode(part));
      c.close();
    },
  });
  const out = await defaultResultTypes(new Response(body, { headers: { 'content-type': 'text/event-stream' } })).text();
  assert.equal(
    out,
    'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nid: 2\ndata: {"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}\n\n',
  );
});
