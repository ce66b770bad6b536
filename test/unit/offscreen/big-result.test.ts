/**
 * A 20 MB tool result against a real HTTP server on 127.0.0.1 (SPEC H4, N8): the result is cut
 * while it is read, as a JSON body and as an event stream; the call resolves with the cut text
 * and its marker (which survives the worker's budget), the session answers the next call, and
 * the cutting pass never holds more than about a MiB. Other answers stay strict.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { McpSession } from '../../../src/offscreen/session.js';
import { describeSdkError } from '../../../src/offscreen/errors.js';
import { limitResponse } from '../../../src/offscreen/response-limits.js';
import { truncateToolResult } from '../../../src/sw/use/truncate.js';

const MiB = 1024 * 1024;
const servers: Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

interface Rpc {
  id?: number;
  method?: string;
  params?: { name?: string };
}

/** The JSON-RPC answer to a `big` call: 20 MiB of text, a 5 MiB image, a small text after. */
function bigResult(id: unknown): string {
  return (
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[` +
    `{"type":"text","text":"start ${'x'.repeat(20 * MiB)} end"},` +
    `{"type":"image","mimeType":"image/png","data":"${'QUJD'.repeat((5 * MiB) / 4)}"},` +
    `{"type":"text","text":"after the big part"}]}}`
  );
}

/** Many small values: over 16 MiB even with every long string cut. */
function floodResult(id: unknown): string {
  const part = '{"type":"text","text":"small"},';
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[${part.repeat(Math.ceil((17 * MiB) / part.length))}{"type":"text","text":"x"}]}}`;
}

type Transport = 'json' | 'sse';

function send(res: ServerResponse, how: Transport, body: string) {
  if (how === 'json')
    return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('event: message\ndata: ');
  // Written in pieces so the event arrives in many chunks.
  for (let i = 0; i < body.length; i += 3 * MiB + 7) res.write(body.slice(i, i + 3 * MiB + 7));
  res.end('\n\n');
}

async function server(how: Transport): Promise<string> {
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Rpc;
      if (rpc.id === undefined) return void res.writeHead(202).end();
      const answer = (result: unknown) => send(res, how, JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
      if (rpc.method === 'initialize')
        return void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: rpc.id,
            result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } },
          }),
        );
      if (rpc.method === 'tools/list') {
        if (req.headers['x-big-list'] === '1')
          return send(res, how, `{"jsonrpc":"2.0","id":${rpc.id},"result":{"tools":[],"pad":"${'p'.repeat(20 * MiB)}"}}`);
        return answer({ tools: [{ name: 'big', inputSchema: { type: 'object' } }] });
      }
      if (rpc.method === 'tools/call' && rpc.params?.name === 'big') return send(res, how, bigResult(rpc.id));
      if (rpc.method === 'tools/call' && rpc.params?.name === 'malformed') {
        // A cut stream is still checked: a bad message fails the call at once (the stream stays open).
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${rpc.id},"result":{"text":"${'m'.repeat(2 * MiB)}"}, oops\n\n`);
      }
      if (rpc.method === 'tools/call' && rpc.params?.name === 'flood') return send(res, how, floodResult(rpc.id));
      return answer({ content: [{ type: 'text', text: 'small answer' }] });
    });
  });
  servers.push(http);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
}

async function open(url: string, headers: Record<string, string> = {}) {
  const session = new McpSession({ url, headers, timeoutMs: 60_000, onListChanged: () => undefined, onClosed: () => undefined });
  await session.connect();
  return session;
}

const call = (session: McpSession, name: string) =>
  session.callTool(name, {}, new AbortController().signal, () => undefined) as unknown as Promise<{ content: Record<string, string>[] }>;

for (const how of ['json', 'sse'] as const) {
  test(`H4, N8: a 20 MiB tool result (${how}) resolves cut, with a visible marker, and the session answers the next call`, async () => {
    const url = await server(how);
    const session = await open(url);
    const result = await call(session, 'big');
    const [text, image, tail] = result.content;
    assert.ok(text!.text!.startsWith('start xxx'));
    assert.match(text!.text!, /\n\[\u2026 truncated: the server sent 20\.0 MiB here; showing the first 64\.0 KiB\]$/);
    assert.ok(text!.text!.length < 70 * 1024);
    assert.equal(image!.type, 'image');
    assert.equal(image!.data!.length, MiB + 4, 'the image keeps a valid base64 prefix just over the media budget');
    assert.equal(tail!.text, 'after the big part');

    // What the person and the model see: the marker survives the result budget, the image is omitted visibly.
    const seen = truncateToolResult(result).result.content;
    assert.match(seen[0]!.text!, /truncated: the server sent 20\.0 MiB here/);
    assert.match(seen[1]!.text!, /1 content part omitted/);
    assert.equal(seen[2]!.text, 'after the big part');

    const next = await call(session, 'small');
    assert.equal(next.content[0]!.text, 'small answer', 'the session stays ready');
    assert.equal(session.lost, false);
    await session.close();
  });

  test(`N8: a tool result over 16 MiB even after cutting (${how}, a flood of small values) still fails, attributed`, async () => {
    const url = await server(how);
    const session = await open(url);
    try {
      await call(session, 'flood');
      assert.fail('expected the flood to fail');
    } catch (e) {
      const error = describeSdkError(e, url);
      assert.equal(error.code, 'response-too-large');
      assert.match(error.message, /127\.0\.0\.1.*larger than 16 MiB/);
    }
    assert.equal((await call(session, 'small')).content[0]!.text, 'small answer');
    await session.close();
  });

  test(`N8: a 20 MiB answer that is not a tool result (${how}, tools/list) is still refused, not cut`, async () => {
    const url = await server(how);
    const session = await open(url, { 'x-big-list': '1' });
    try {
      await session.listCategory('tools');
      assert.fail('expected tools/list to fail');
    } catch (e) {
      const error = describeSdkError(e, url);
      assert.equal(error.code, 'response-too-large');
    }
    await session.close();
  });

  test(`the cutting pass (${how}) holds about a MiB while reading 25 MiB`, async () => {
    const url = await server(how);
    const stats: { maxHeldBytes: number; cuts: number }[] = [];
    const raw = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'big' } }),
    });
    const limited = limitResponse(raw, new URL(url).origin, { cutLongStrings: true, onCutStats: (s) => stats.push(s) });
    const text = await limited.text();
    assert.ok(text.length < 2 * MiB, `read ${text.length} characters`);
    const held = Math.max(...stats.map((s) => s.maxHeldBytes));
    assert.ok(held > 0 && held <= MiB, `held at most ${held} bytes`);
    assert.equal(
      stats.reduce((n, s) => n + s.cuts, 0),
      2,
    );
  });
}

test('N6: a cut event stream is still checked: a malformed message fails the tool call at once', async () => {
  const url = await server('sse');
  const session = await open(url);
  try {
    await call(session, 'malformed');
    assert.fail('expected a malformed answer');
  } catch (e) {
    const error = describeSdkError(e, url);
    assert.equal(error.code, 'protocol');
    assert.match(error.message, /malformed answer \(an event that is not JSON\)/);
  }
  assert.equal((await call(session, 'small')).content[0]!.text, 'small answer');
  await session.close();
});
