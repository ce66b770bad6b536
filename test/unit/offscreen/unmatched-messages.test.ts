/**
 * Unmatched JSON-RPC messages (SPEC N6): a server may send an error with `id: null` (JSON-RPC
 * 2.0 §5: the id could not be detected) or any answer no request waits for. The session ignores
 * it, reports it as dropped, and still delivers the real answer that follows.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../src/offscreen/session.js';
import type { DroppedResponse } from '../../../src/offscreen/jsonrpc-guard.js';
import { sendEvents, sendJson, startHostileRpcServer, type HostileRpcServer } from '../../support/hostile-rpc-server.js';

const servers: HostileRpcServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

const nullError = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
const toolResult = (id: unknown) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'the real answer' }] } });

async function open(answer: Parameters<typeof startHostileRpcServer>[0]) {
  const server = await startHostileRpcServer(answer);
  servers.push(server);
  const dropped: DroppedResponse[] = [];
  const session = new McpSession({
    url: server.url,
    headers: {},
    timeoutMs: 20_000,
    onListChanged: () => undefined,
    onDroppedResponse: (d) => dropped.push(d),
    onClosed: () => undefined,
  });
  await session.connect();
  return { session, dropped };
}

const call = (session: McpSession) => session.callTool('t', {}, new AbortController().signal, () => undefined);

test('N6: an error with id null on the stream before the real answer is dropped and logged; the call gets its result', async () => {
  const { session, dropped } = await open((rpc, res) => sendEvents(res, nullError, JSON.stringify(toolResult(rpc.id))));
  const result = await call(session);
  assert.deepEqual(result.content, [{ type: 'text', text: 'the real answer' }]);
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.id]),
    [['unmatched', 'null']],
  );
  await session.close();
});

test('N6: an answer without an id, and one with an object id, are dropped the same way', async () => {
  const noId = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
  const objectId = JSON.stringify({ jsonrpc: '2.0', id: { x: 1 }, result: {} });
  const { session, dropped } = await open((rpc, res) => sendEvents(res, noId, objectId, JSON.stringify(toolResult(rpc.id))));
  const result = await call(session);
  assert.deepEqual(result.content, [{ type: 'text', text: 'the real answer' }]);
  // The object id is seen by the stream check, the missing one by the guard: order is not the point.
  assert.deepEqual(dropped.map((d) => `${d.kind} ${d.id}`).sort(), ['unmatched undefined', 'unmatched {"x":1}'].sort());
  await session.close();
});

test('N6: in a JSON batch answer, the id-null error is dropped and the real answer delivered', async () => {
  const { session, dropped } = await open((rpc, res) => sendJson(res, [JSON.parse(nullError), toolResult(rpc.id)]));
  const result = await call(session);
  assert.deepEqual(result.content, [{ type: 'text', text: 'the real answer' }]);
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.id]),
    [['unmatched', 'null']],
  );
  await session.close();
});
