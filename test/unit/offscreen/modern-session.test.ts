/**
 * SPEC R1–R4 against real servers: the official SDK v2 server package in its stateless
 * 2026-07-28 mode (modern-only and dual-era) and the SDK v1 demo server (2025-11-25, stateful).
 * The era is chosen by the `server/discover` probe; a modern server is spoken to statelessly by
 * the v2 client (headers, `_meta`, `x-mcp-header` mirroring, multi round-trip questions,
 * `subscriptions/listen`), a legacy one through the 2025 handshake as before.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openSession, type EraCache } from '../../../src/offscreen/open-session.js';
import { McpSession, type SessionOptions } from '../../../src/offscreen/session.js';
import { ModernSession } from '../../../src/offscreen/modern-session.js';
import { describeSdkError } from '../../../src/offscreen/errors.js';
import { probeEra, verdictOf } from '../../../src/offscreen/era-probe.js';
import { encodeHeaderValue, paramHeaders } from '../../../src/offscreen/param-headers.js';
import { RemoteError } from '../../../src/protocol/result.js';
import { startModernServer } from '../../support/modern-mcp.js';
import { startDemoServer } from '../../support/demo-server.js';

const modern = await startModernServer({ legacy: 'reject' });
const dual = await startModernServer({ legacy: 'stateless' });
const legacy = await startDemoServer();
after(() => Promise.all([modern.close(), dual.close(), legacy.close()]));

type AnySession = McpSession | ModernSession;

async function open(url: string, extra: Partial<SessionOptions> = {}, eras: EraCache = new Map()): Promise<AnySession> {
  const options: SessionOptions = {
    url,
    headers: {},
    timeoutMs: 10_000,
    onListChanged: () => undefined,
    onClosed: () => undefined,
    ...extra,
  };
  const p = { serverId: 's', connectionId: 'c', url, headers: {}, timeoutMs: 10_000, fingerprint: 'f' };
  return openSession(eras, p, (discover) => (discover ? new ModernSession(options, discover) : new McpSession(options)));
}

const text = (r: unknown) => (r as { content: { text?: string }[] }).content[0]?.text ?? '';

test('R1: a modern-only server is spoken to at 2026-07-28: no initialize, no session id, the standard headers and _meta on every request', async () => {
  modern.seen.length = 0;
  const s = await open(modern.url);
  assert.ok(s instanceof ModernSession);
  const info = await s.connect();
  assert.equal(info.protocolVersion, '2026-07-28');
  assert.equal(info.serverInfo?.name, 'modern-demo');
  const tools = (await s.listCategory('tools')) as { name: string }[];
  assert.ok(tools.some((t) => t.name === 'echo'));
  assert.equal(text(await s.callTool('echo', { text: 'hi' }, new AbortController().signal, () => undefined)), 'echo: hi');
  await s.close();
  const methods = modern.seen.map((r) => r.method);
  assert.ok(!methods.includes('initialize'), `no initialize: ${methods.join(', ')}`);
  assert.deepEqual(methods.slice(0, 1), ['server/discover']);
  for (const r of modern.seen) {
    assert.equal(r.headers['mcp-protocol-version'], '2026-07-28', `${r.method} carries the version header`);
    // Mcp-Method is required on every request (Streamable HTTP, standard headers); notifications are not requests.
    if ((r.body as { id?: unknown }).id !== undefined) assert.equal(r.headers['mcp-method'], r.method, `${r.method} carries Mcp-Method`);
    assert.equal(r.headers['mcp-session-id'], undefined);
    const meta = (r.body as { params?: { _meta?: Record<string, unknown> } }).params?._meta ?? {};
    assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28', `${r.method} carries _meta`);
    assert.ok(meta['io.modelcontextprotocol/clientInfo'], `${r.method} names the client`);
  }
  const call = modern.seen.find((r) => r.method === 'tools/call');
  assert.equal(call?.headers['mcp-name'], 'echo');
});

test('R2: an x-mcp-header argument is mirrored to Mcp-Param-*; a tool whose header annotation is invalid is left out', async () => {
  const s = await open(modern.url);
  await s.connect();
  const names = ((await s.listCategory('tools')) as { name: string }[]).map((t) => t.name);
  assert.ok(names.includes('regional'));
  assert.ok(!names.includes('broken-header'), `left out: ${names.join(', ')}`);
  const r = await s.callTool('regional', { region: 'eu-west' }, new AbortController().signal, () => undefined);
  assert.equal(text(r), 'region eu-west via header eu-west');
  await s.close();
});

test('R2: in a document (window and document defined, as in the offscreen page) x-mcp-header arguments are still mirrored to Mcp-Param-*, Base64 where the value is not plain ASCII', async () => {
  const s = await open(modern.url);
  await s.connect();
  await s.listCategory('tools');
  const g = globalThis as { window?: unknown; document?: unknown };
  g.window = globalThis;
  g.document = {};
  try {
    modern.seen.length = 0;
    const r = await s.callTool('regional', { region: 'eu-west' }, new AbortController().signal, () => undefined);
    assert.equal(text(r), 'region eu-west via header eu-west');
    assert.equal(modern.seen.find((q) => q.method === 'tools/call')?.headers['mcp-param-region'], 'eu-west');
    const r2 = await s.callTool('regional', { region: ' Zürich' }, new AbortController().signal, () => undefined);
    // The server validated the Base64 form against the argument before it ran the tool.
    assert.equal(text(r2), `region  Zürich via header =?base64?${Buffer.from(' Zürich').toString('base64')}?=`);
  } finally {
    delete g.window;
    delete g.document;
    await s.close();
  }
});

test('R2: Mcp-Param values are encoded as SEP-2243 says', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
  assert.equal(encodeHeaderValue('a\tb'), 'a\tb');
  assert.equal(encodeHeaderValue('\tindented'), `=?base64?${Buffer.from('\tindented').toString('base64')}?=`);
  assert.equal(encodeHeaderValue(''), '=?base64??=');
  assert.equal(encodeHeaderValue(' padded '), `=?base64?${Buffer.from(' padded ').toString('base64')}?=`);
  assert.equal(encodeHeaderValue('Hello, 世界'), `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`);
  assert.equal(encodeHeaderValue('line1\r\nline2'), `=?base64?${Buffer.from('line1\r\nline2').toString('base64')}?=`);
  assert.deepEqual(
    paramHeaders(
      {
        type: 'object',
        properties: {
          a: { type: 'integer', 'x-mcp-header': 'A' },
          b: { type: 'boolean', 'x-mcp-header': 'B' },
          c: { type: 'string', 'x-mcp-header': 'C' },
          q: { type: 'string' },
        },
      },
      { a: 42, b: false, c: null, q: 'x' },
    ),
    { 'Mcp-Param-A': '42', 'Mcp-Param-B': 'false' },
  );
});

test('R4: a question comes back as input_required; the answer is sent with the exact requestState on a new request', async () => {
  const asked: unknown[] = [];
  const s = await open(modern.url, {
    onElicitation: async (params) => {
      asked.push(params);
      return { action: 'accept', content: { name: 'Ada' } };
    },
  });
  await s.connect();
  modern.seen.length = 0;
  const r = await s.callTool('ask-name', {}, new AbortController().signal, () => undefined);
  assert.equal(text(r), 'Hello, Ada!');
  assert.equal(asked.length, 1);
  assert.equal((asked[0] as { message: string }).message, 'What is your name?');
  assert.deepEqual(modern.statesEchoed.slice(-1), modern.statesSent.slice(-1));
  const calls = modern.seen.filter((x) => x.method === 'tools/call').map((x) => x.body as { id: unknown; params: Record<string, unknown> });
  assert.equal(calls.length, 2);
  assert.notEqual(calls[0]!.id, calls[1]!.id, 'the retry is a new request');
  assert.equal(calls[1]!.params['requestState'], modern.statesSent.at(-1));
  assert.deepEqual(calls[1]!.params['inputResponses'], { name: { action: 'accept', content: { name: 'Ada' } } });
  await s.close();
});

test('R4: a declined question ends the call with the server’s own answer, not a hang', async () => {
  const s = await open(modern.url, { onElicitation: async () => ({ action: 'decline' }) });
  await s.connect();
  // The demo tool asks again when it got no name; the client stops after its round limit.
  await assert.rejects(s.callTool('ask-name', {}, new AbortController().signal, () => undefined));
  await s.close();
});

test('R4/R5: a URL-mode question in an input_required reaches the same relay; the answer completes the call', async () => {
  const asked: { mode?: string; url?: string }[] = [];
  const s = await open(modern.url, {
    onElicitation: async (params) => {
      asked.push(params);
      return { action: 'accept' };
    },
  });
  await s.connect();
  const r = await s.callTool('consent', {}, new AbortController().signal, () => undefined);
  assert.equal(text(r), 'consent accept');
  assert.deepEqual(
    asked.map((a) => [a.mode, a.url]),
    [['url', 'https://example.com/consent?step=1']],
  );
  await s.close();
});

test('R1: cancelling a modern call closes its stream: the server sees the request end, the call says cancelled', async () => {
  const s = await open(modern.url);
  await s.connect();
  const stop = new AbortController();
  const before = modern.aborted;
  const call = s.callTool('slow', {}, stop.signal, () => undefined);
  await waitFor(() => modern.seen.some((r) => r.method === 'tools/call' && r.headers['mcp-name'] === 'slow'), 'the slow call sent');
  stop.abort(new DOMException('stopped by the user', 'AbortError'));
  await assert.rejects(call);
  await waitFor(() => modern.aborted === before + 1, 'the server seeing the stream closed');
  await s.close();
});

test('R3: list changes arrive through subscriptions/listen; the new tool is listed', async () => {
  const changed: string[] = [];
  const s = await open(modern.url, { onListChanged: (c) => changed.push(c) });
  await s.connect();
  await waitFor(() => (s as ModernSession).listening, 'the listen stream is open');
  assert.ok(modern.seen.some((r) => r.method === 'subscriptions/listen'));
  modern.addTool('late-tool');
  await waitFor(() => changed.includes('tools'), 'tools list_changed');
  const names = ((await s.listCategory('tools')) as { name: string }[]).map((t) => t.name);
  assert.ok(names.includes('late-tool'), names.join(', '));
  await s.close();
});

test('R1: a dual-era v2 server is spoken to at 2026-07-28; a 2025 SDK server through initialize, as before', async () => {
  const d = await open(dual.url);
  assert.ok(d instanceof ModernSession);
  assert.equal((await d.connect()).protocolVersion, '2026-07-28');
  await d.close();
  const eras: EraCache = new Map();
  const l = await open(legacy.url, {}, eras);
  assert.ok(l instanceof McpSession);
  const info = await l.connect();
  assert.equal(info.protocolVersion, '2025-11-25');
  assert.equal(eras.get(legacy.url)?.era, 'legacy');
  const tools = (await l.listCategory('tools')) as { name: string }[];
  assert.ok(tools.length > 0);
  await l.close();
});

test('R1: the era is asked once per URL: a second connect sends no second server/discover', async () => {
  const eras: EraCache = new Map();
  modern.seen.length = 0;
  for (let i = 0; i < 2; i++) {
    const s = await open(modern.url, {}, eras);
    await s.connect();
    await s.close();
  }
  assert.equal(modern.seen.filter((r) => r.method === 'server/discover').length, 1);
});

test('R1 (N): a server silent to server/discover is spoken to with initialize, and asked again next time', async () => {
  const seen: string[] = [];
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const method = (JSON.parse(body || '{}') as { method?: string }).method ?? '';
      seen.push(method);
      if (method === 'server/discover') return; // never answered
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  try {
    const verdict = await probeEra(fetch, url, {}, {}, AbortSignal.timeout(10_000), 200);
    assert.deepEqual(verdict, { era: 'legacy', unsure: true });
  } finally {
    http.closeAllConnections();
    http.close();
  }
});

test('R1: a 401 to the probe decides nothing: the verdict is not kept, so the authorized connect asks again', async () => {
  let discovers = 0;
  const http = createServer((req, res) => {
    req.resume();
    discovers++;
    res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const eras: EraCache = new Map();
  try {
    for (let i = 0; i < 2; i++) assert.ok((await open(url, {}, eras)) instanceof McpSession);
    assert.equal(discovers, 2);
    assert.equal(eras.has(url), false);
  } finally {
    http.close();
  }
});

test('R1 (N): probe answers decide the era as the specification says', () => {
  assert.equal(verdictOf({ jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } }).era, 'modern');
  assert.equal(verdictOf({ jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2027-01-01'] } }).era, 'legacy');
  assert.equal(verdictOf({ jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'header mismatch' } }).era, 'modern-refused');
  assert.equal(
    verdictOf({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x', data: { supported: ['2025-11-25'] } } }).era,
    'legacy',
  );
  assert.equal(verdictOf({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }).era, 'legacy');
  assert.equal(
    verdictOf({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }).era,
    'legacy',
  );
  assert.equal(verdictOf(undefined).era, 'legacy');
});

test('R1 (N): a server that speaks 2026-07-28 but refuses us says so in words, not raw JSON', async () => {
  const http = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: 'discover', error: { code: -32021, message: 'Missing required client capability: sampling' } }),
    );
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  try {
    const e = await open(url).then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(e instanceof RemoteError);
    assert.match(e.message, /speaks MCP 2026-07-28 but refused this client \(-32021: Missing required client capability: sampling\)/);
  } finally {
    http.close();
  }
});

test('R1 (N): a 401 from a modern server keeps its status and challenge for authorization', async () => {
  const http = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' });
    res.end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  try {
    const s = await open(url);
    const e = await s.connect().then(
      () => undefined,
      (x: unknown) => x,
    );
    const w = describeSdkError(e, url);
    assert.equal(w.httpStatus, 401);
    assert.match(s.lastChallenge ?? '', /resource_metadata/);
  } finally {
    http.close();
  }
});

async function waitFor(check: () => boolean, what: string, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A modern server that answers server/discover and refuses every other request with `status` and `challenge`. */
async function refusingServer(status: number, challenge: string) {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body || '{}') as { id?: unknown; method?: string };
      if (msg.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: msg.id,
            result: {
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'r', version: '1' } },
            },
          }),
        );
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json', 'www-authenticate': challenge });
      res.end(JSON.stringify({ error: status === 403 ? 'insufficient_scope' : 'invalid_token' }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

test('E7: a 403 insufficient_scope on a modern call keeps its status and challenge, so the worker offers step-up', async () => {
  const { http, url } = await refusingServer(403, 'Bearer error="insufficient_scope", scope="mcp:write"');
  try {
    const s = await open(url);
    await s.connect();
    const e = await s
      .callTool('t', {}, new AbortController().signal, () => undefined)
      .then(
        () => undefined,
        (x: unknown) => x,
      );
    const w = describeSdkError(e, url);
    assert.equal(w.code, 'auth');
    assert.equal(w.httpStatus, 403);
    assert.match(s.lastChallenge ?? '', /insufficient_scope/);
    await s.close();
  } finally {
    http.close();
  }
});

test('E9: a 401 on a modern call after connect keeps its status, so the worker refreshes or asks to authorize', async () => {
  const { http, url } = await refusingServer(401, 'Bearer error="invalid_token"');
  try {
    const s = await open(url);
    await s.connect();
    const e = await s.listCategory('tools').then(
      () => undefined,
      (x: unknown) => x,
    );
    const w = describeSdkError(e, url);
    assert.equal(w.code, 'auth');
    assert.equal(w.httpStatus, 401);
    await s.close();
  } finally {
    http.close();
  }
});

test('R1 (N): a -32022 that lists 2026-07-28 among its supported versions is asked once more, and the second answer decides', async () => {
  let discovers = 0;
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body || '{}') as { id?: unknown; method?: string };
      if (msg.method === 'server/discover' && discovers++ === 0) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: msg.id,
            error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  try {
    const s = await open(url);
    assert.ok(s instanceof ModernSession);
    assert.equal(discovers, 2);
  } finally {
    http.close();
  }
});

test('R4: a modern result without resultType is taken as complete (SEP-2322), as JSON and on an event stream', async () => {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body || '{}') as { id?: unknown; method?: string; params?: { arguments?: { sse?: boolean } } };
      const answer = (result: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
      if (msg.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }));
      } else if (msg.method === 'tools/list') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer({ resultType: 'complete', tools: [{ name: 't', inputSchema: { type: 'object' } }] }));
      } else if (msg.params?.arguments?.sse) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: ${answer({ content: [{ type: 'text', text: 'sse-ok' }] })}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer({ content: [{ type: 'text', text: 'json-ok' }] }));
      }
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  try {
    const s = await open(url);
    await s.connect();
    assert.equal(text(await s.callTool('t', {}, new AbortController().signal, () => undefined)), 'json-ok');
    assert.equal(text(await s.callTool('t', { sse: true }, new AbortController().signal, () => undefined)), 'sse-ok');
    await s.close();
  } finally {
    http.close();
  }
});

const noProgress = () => undefined;

test('R6: a call the server answers with a task is followed to its result: tasks/get with Mcp-Name = taskId, the 0 ms poll interval clamped, each status told once', async () => {
  const s = await open(modern.url);
  await s.connect();
  modern.seen.length = 0;
  const statuses: string[] = [];
  const r = await s.callTool('research', { topic: 'tides' }, new AbortController().signal, noProgress, {
    required: false,
    onStatus: (u) => statuses.push(`${u.taskId} ${u.status}`),
  });
  assert.equal(text(r), 'Report on tides');
  const call = modern.seen.find((x) => x.method === 'tools/call')!;
  const caps = (call.body as { params: { _meta: Record<string, { extensions?: Record<string, unknown> }> } }).params._meta[
    'io.modelcontextprotocol/clientCapabilities'
  ];
  assert.deepEqual(caps?.extensions?.['io.modelcontextprotocol/tasks'], {}, 'the extension is declared on the call');
  const gets = modern.seen.filter((x) => x.method === 'tasks/get');
  const taskId = [...modern.tasks.values()].at(-1)!.taskId;
  assert.ok(gets.length >= 2, `polled: ${gets.length}`);
  for (const g of gets) assert.equal(g.headers['mcp-name'], taskId);
  const polls = modern.tasks.get(taskId)!.polls;
  for (let i = 1; i < polls.length; i++) assert.ok(polls[i]! - polls[i - 1]! >= 200, 'a 0 ms interval is clamped (N5)');
  assert.deepEqual([statuses[0], statuses.at(-1)], [`${taskId} working`, `${taskId} completed`]);
  await s.close();
});

test('R6: a task waiting for input asks through the same cards once per key; tasks/update brings the answer, the report has it', async () => {
  const asked: { message?: string }[] = [];
  const s = await open(modern.url, {
    onElicitation: async (params) => {
      asked.push(params);
      return { action: 'accept', content: { angle: 'economic' } };
    },
  });
  await s.connect();
  modern.seen.length = 0;
  const r = await s.callTool('research', { topic: 'tides', ask: true }, new AbortController().signal, noProgress, {
    required: false,
    onStatus: () => undefined,
  });
  assert.equal(text(r), 'Report on tides from the economic angle');
  assert.deepEqual(
    asked.map((a) => a.message),
    ['Which angle on tides?'],
  );
  const updates = modern.seen.filter((x) => x.method === 'tasks/update').map((x) => (x.body as { params: unknown }).params);
  assert.equal(updates.length, 1);
  assert.deepEqual((updates[0] as { inputResponses: unknown }).inputResponses, {
    topic: { action: 'accept', content: { angle: 'economic' } },
  });
  await s.close();
});

test('R6: aborting a task call sends tasks/cancel', async () => {
  const s = await open(modern.url);
  await s.connect();
  modern.seen.length = 0;
  const stop = new AbortController();
  const call = s.callTool('research', { topic: 'stop me', ask: true }, stop.signal, noProgress, {
    required: false,
    onStatus: () => undefined,
  });
  await waitFor(() => modern.seen.some((x) => x.method === 'tasks/get'), 'the task polled');
  stop.abort(new DOMException('stopped by the user', 'AbortError'));
  await assert.rejects(call);
  await waitFor(
    () => [...modern.tasks.values()].some((t) => t.topic === 'stop me' && t.status === 'cancelled'),
    'the task cancelled on the server',
  );
  await s.close();
});

test('R6 (N): a task handle is honoured only as the answer to tools/call, and a server error cannot pose as one', async () => {
  const { withDefaultResultType, taskHandleOf, TASK_HANDLE_KEY } = await import('../../../src/offscreen/result-type.js');
  const handle = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'task', taskId: 't', status: 'working' } });
  assert.equal(
    (JSON.parse(withDefaultResultType(handle)) as { result: { resultType: string } }).result.resultType,
    'task',
    'left as it is (invalid) for another method',
  );
  const rewritten = JSON.parse(withDefaultResultType(handle, true)) as { error: { data: unknown } };
  assert.equal(taskHandleOf(rewritten.error)?.['taskId'], 't');
  const forged = { code: -32000, message: 'x', data: { 'remote-mcp/task-handle/guess': { taskId: 'evil' } } };
  assert.equal(taskHandleOf(forged), undefined);
  assert.notEqual(TASK_HANDLE_KEY, 'remote-mcp/task-handle/guess');
});
