/**
 * McpSession against real HTTP servers on 127.0.0.1 (SPEC C7, I2, N6, N7): a hand-rolled
 * JSON-RPC endpoint that misbehaves on purpose (wrong id types, duplicates, early answers,
 * oversized and malformed answers, 400 for a forgotten session), and the SDK's own server for
 * URL-mode elicitation. Each test drives the session the offscreen host uses and maps its errors
 * the way the host does.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../src/offscreen/session.js';
import { describeSdkError } from '../../../src/offscreen/errors.js';
import type { DroppedResponse } from '../../../src/offscreen/jsonrpc-guard.js';
import { startDemoServer } from '../../support/demo-server.js';
import {
  sendEvents as sse,
  sendJson as json,
  startHostileRpcServer,
  type Answer,
  type HostileRpcServer,
} from '../../support/hostile-rpc-server.js';

const MiB = 1024 * 1024;
const servers: HostileRpcServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

/** The shared hand-rolled endpoint (test/support/hostile-rpc-server.ts), closed after the file. */
async function hostile(answer: Answer): Promise<{ url: string; origin: string }> {
  const server = await startHostileRpcServer(answer);
  servers.push(server);
  return server;
}

const tools = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [{ name: 'ok', inputSchema: { type: 'object' } }] } });

async function open(url: string, timeoutMs = 30_000) {
  const dropped: DroppedResponse[] = [];
  const closed: { code: string; message: string }[] = [];
  const session = new McpSession({
    url,
    headers: {},
    timeoutMs,
    onListChanged: () => undefined,
    onDroppedResponse: (d) => dropped.push(d),
    onClosed: (r) => closed.push(r),
  });
  await session.connect();
  return { session, dropped, closed };
}

/** Runs `work`, returning how long it took and the wire error it failed with. */
async function failure(work: Promise<unknown>, url: string) {
  const start = Date.now();
  try {
    await work;
  } catch (e) {
    return { ms: Date.now() - start, error: describeSdkError(e, url) };
  }
  throw new Error('expected a failure');
}

test('N6: a response with id "1" never settles request 1; it is dropped and reported', async () => {
  const server = await hostile((rpc, res) => json(res, { ...JSON.parse(tools(String(rpc.id))) }));
  const { session, dropped } = await open(server.url, 600);
  const { error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.code, 'timeout', 'the string-id answer did not settle the numeric request');
  assert.equal(dropped.length, 1);
  assert.equal(dropped[0]!.kind, 'unmatched');
  assert.match(dropped[0]!.id, /^"\d+"$/);
  await session.close();
});

test('N6: a duplicate answer and an early answer are dropped; the matching one is delivered once', async () => {
  const server = await hostile((rpc, res) => sse(res, tools(Number(rpc.id) + 7), tools(rpc.id), tools(rpc.id)));
  const { session, dropped } = await open(server.url);
  const items = (await session.listCategory('tools')) as { name: string }[];
  assert.deepEqual(
    items.map((t) => t.name),
    ['ok'],
  );
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(
    dropped.map((d) => [d.kind, d.count]),
    [
      ['early', 1],
      ['duplicate', 2],
    ],
  );
  assert.equal(session.droppedResponses, 2);
  await session.close();
});

test('N8: an oversized JSON answer fails its call at once with "the server\'s answer was larger than 16 MiB"', async () => {
  const server = await hostile((rpc, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"jsonrpc":"2.0","id":${rpc.id},"result":{"tools":[],"pad":"`);
    res.end(`${'x'.repeat(17 * MiB)}"}}`);
  });
  const { session } = await open(server.url);
  const { ms, error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.code, 'response-too-large');
  assert.match(error.message, /the server's answer was larger than 16 MiB/);
  assert.equal(error.message.split(server.origin).length, 2, 'the origin is named once');
  assert.ok(ms < 10_000, `failed after ${ms} ms, not at the 30 s timeout`);
  await session.close();
});

test("N8: an oversized event on an answer's stream fails its call at once, not at the timeout", async () => {
  const server = await hostile((rpc, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${rpc.id},"result":{"tools":[],"pad":"`);
    res.write('x'.repeat(17 * MiB));
    // The stream stays open: only the size limit can end this call before its 60 s timeout.
  });
  const { session } = await open(server.url, 60_000);
  const { ms, error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.code, 'response-too-large');
  assert.match(error.message, /the server's answer was larger than 16 MiB/);
  assert.ok(ms < 30_000, `failed after ${ms} ms`);
  await session.close();
});

test('N6: a malformed answer fails its call at once, whether JSON or an event stream', async () => {
  const jsonServer = await hostile(
    (_rpc, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0", oops'),
  );
  const a = await open(jsonServer.url);
  const j = await failure(a.session.listCategory('tools'), jsonServer.url);
  assert.equal(j.error.code, 'protocol');
  assert.match(j.error.message, /malformed/);
  await a.session.close();

  const sseServer = await hostile((_rpc, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message\ndata: this is not json\n\n');
  });
  const b = await open(sseServer.url);
  const s = await failure(b.session.listCategory('tools'), sseServer.url);
  assert.equal(s.error.code, 'protocol');
  assert.match(s.error.message, /malformed answer \(an event that is not JSON\)/);
  assert.ok(s.ms < 10_000, `failed after ${s.ms} ms`);
  await b.session.close();

  const notRpc = await hostile((_rpc, res) => sse(res, '{"hello":"world"}'));
  const c = await open(notRpc.url);
  const n = await failure(c.session.listCategory('tools'), notRpc.url);
  assert.match(n.error.message, /malformed answer \(a message that is not JSON-RPC 2\.0\)/);
  await c.session.close();
});

test('N7: 400 "No valid session ID provided" to a request with our session id ends the session; the call was refused, not run', async () => {
  const server = await hostile((_rpc, res) =>
    json(res, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }, 400),
  );
  const { session, closed } = await open(server.url);
  const { ms, error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.code, 'session-lost');
  assert.equal(error.httpStatus, 400);
  assert.match(error.message, /no longer knows this MCP session .*refused, not run/);
  assert.ok(ms < 5_000);
  assert.equal(session.lost, true);
  assert.deepEqual(
    closed.map((c) => c.code),
    ['session-lost'],
  );
});

test('N7: a 400 about something else is an ordinary error and the session lives on', async () => {
  const server = await hostile((rpc, res) =>
    json(res, { jsonrpc: '2.0', error: { code: -32602, message: 'Bad Request: invalid cursor' }, id: rpc.id }, 400),
  );
  const { session, closed } = await open(server.url);
  const { error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.code, 'http-status');
  assert.equal(session.lost, false);
  assert.deepEqual(closed, []);
  await session.close();
});

test('N10: an MCP error from the server carries one "MCP error" prefix', async () => {
  const server = await hostile((rpc, res) =>
    json(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32600, message: 'bad request shape' } }),
  );
  const { session } = await open(server.url);
  const { error } = await failure(session.listCategory('tools'), server.url);
  assert.equal(error.message, `${server.origin} returned an MCP error -32600: bad request shape`);
  await session.close();
});

test('R5: a real server that asks through URL-mode elicitation reaches the question handler with its page; the answer goes back', async () => {
  const demo = await startDemoServer({ elicitation: true });
  try {
    const session = new McpSession({
      url: demo.url,
      headers: {},
      timeoutMs: 10_000,
      onListChanged: () => undefined,
      onClosed: () => undefined,
      onElicitation: async (p) => {
        asked.push(p);
        return { action: 'accept' };
      },
    });
    const asked: { mode?: string; url?: string }[] = [];
    await session.connect();
    const capabilities = (session.client as unknown as { _capabilities: { elicitation?: Record<string, unknown> } })._capabilities;
    assert.deepEqual(capabilities.elicitation?.['url'], {}, 'URL mode is declared');
    const result = await session.callTool('open_link', {}, new AbortController().signal, () => undefined);
    assert.deepEqual(result.content, [{ type: 'text', text: 'link accept' }]);
    assert.deepEqual(
      asked.map((p) => [p.mode, p.url]),
      [['url', 'https://example.com/signup']],
    );
    assert.deepEqual(demo.stats.elicitations, [{ action: 'accept' }]);
    await session.close();
  } finally {
    await demo.close();
  }
});

test('N7: the SDK server answering 400 for a forgotten session (as server-everything does) ends the session', async () => {
  const demo = await startDemoServer({ unknownSession: 400, jsonResponse: true });
  try {
    const closed: string[] = [];
    const session = new McpSession({
      url: demo.url,
      headers: {},
      timeoutMs: 10_000,
      onListChanged: () => undefined,
      onClosed: (r) => closed.push(r.code),
    });
    await session.connect();
    await demo.restart();
    const { error } = await failure(
      session.callTool('echo', { text: 'x' }, new AbortController().signal, () => undefined),
      demo.url,
    );
    assert.equal(error.code, 'session-lost');
    assert.match(error.message, /not run/);
    assert.deepEqual(closed, ['session-lost']);
    assert.deepEqual(demo.stats.toolCalls, [], 'the call never ran');
  } finally {
    await demo.close();
  }
});
