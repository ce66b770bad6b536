import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startProviderServer, type ProviderServer } from '../../../support/provider-server.js';
import { createChatProvider } from '../../../../src/sw/chat/providers/chat-provider.js';
import { retryAfterMs } from '../../../../src/sw/chat/providers/http.js';
import { LineSplitter, readSse } from '../../../../src/sw/chat/providers/sse.js';
import {
  ProviderError,
  type FetchLike,
  type ProviderTarget,
  type StreamHooks,
  type TurnRequest,
} from '../../../../src/sw/chat/providers/types.js';

let server: ProviderServer;
before(async () => (server = await startProviderServer()));
after(() => server.close());

const fetchFn = (input: string, init: RequestInit) => fetch(input, init);
/** One turn through the provider factory, as the chat service makes its providers. */
const streamTurn = (fetch: FetchLike, target: ProviderTarget, request: TurnRequest, hooks: StreamHooks, signal?: AbortSignal) =>
  createChatProvider(target, { fetch, languageModel: () => undefined }).stream(request, hooks, signal);
const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const request: TurnRequest = {
  system: 'Be brief.',
  turns: [
    { role: 'user', text: 'echo hi' },
    { role: 'assistant', text: '', toolCalls: [{ id: 'c0', name: 'mcp__demo__echo', arguments: '{"text":"hi"}' }] },
    { role: 'tool', callId: 'c0', name: 'mcp__demo__echo', content: 'echo: hi', isError: false },
  ],
  tools: [{ name: 'mcp__demo__echo', description: 'Echo', inputSchema: schema }],
};

for (const kind of ['openai', 'anthropic'] as const) {
  const target = (): ProviderTarget => ({
    kind,
    baseUrl: kind === 'openai' ? server.openAiBase : server.anthropicBase,
    model: 'm1',
    apiKey: 'sk-secret-123',
  });

  test(`${kind}: streamed text arrives piece by piece, with usage`, async () => {
    server.script({ kind: 'stream', text: ['Hel', 'lo'], usage: { input: 12, output: 3 } });
    const pieces: string[] = [];
    const r = await streamTurn(fetchFn, target(), request, { onText: (t) => pieces.push(t) });
    assert.deepEqual(pieces, ['Hel', 'lo']);
    assert.equal(r.text, 'Hello');
    assert.deepEqual(r.usage, { inputTokens: 12, outputTokens: 3 });
    assert.deepEqual(r.toolCalls, []);
  });

  test(`${kind}: several tool calls in one turn, arguments assembled from fragments`, async () => {
    server.script({
      kind: 'stream',
      toolCalls: [
        { id: 'a1', name: 'mcp__demo__echo', arguments: '{"text":"one two three"}' },
        { id: 'a2', name: 'mcp__demo__add', arguments: '{"a":1,"b":2}' },
      ],
    });
    const r = await streamTurn(fetchFn, target(), request, { onText: () => undefined });
    assert.deepEqual(r.toolCalls, [
      { id: 'a1', name: 'mcp__demo__echo', arguments: '{"text":"one two three"}' },
      { id: 'a2', name: 'mcp__demo__add', arguments: '{"a":1,"b":2}' },
    ]);
    assert.equal(r.stopReason, kind === 'openai' ? 'tool_calls' : 'tool_use');
  });

  test(`${kind}: the request carries the raw schema, the key header and the tool result`, async () => {
    server.script({ kind: 'stream', text: ['ok'] });
    await streamTurn(fetchFn, target(), request, { onText: () => undefined });
    const sent = server.requests.at(-1)!;
    if (kind === 'openai') {
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers.authorization, 'Bearer sk-secret-123');
      const body = sent.body as {
        stream: boolean;
        tools: { function: { parameters: unknown } }[];
        messages: { role: string; content: unknown }[];
      };
      assert.equal(body.stream, true);
      assert.deepEqual(body.tools[0]!.function.parameters, schema);
      assert.deepEqual(body.messages.at(-1), { role: 'tool', tool_call_id: 'c0', content: 'echo: hi' });
      assert.equal(body.messages[0]!.role, 'system');
    } else {
      assert.equal(sent.path, '/v1/messages');
      assert.equal(sent.headers['x-api-key'], 'sk-secret-123');
      assert.equal(sent.headers['anthropic-version'], '2023-06-01');
      const body = sent.body as { tools: { input_schema: unknown }[]; messages: { role: string; content: unknown[] }[]; system: string };
      assert.deepEqual(body.tools[0]!.input_schema, schema);
      assert.equal(body.system, 'Be brief.');
      assert.deepEqual(body.messages[1]!.content, [{ type: 'tool_use', id: 'c0', name: 'mcp__demo__echo', input: { text: 'hi' } }]);
      assert.deepEqual(body.messages[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c0', content: 'echo: hi' }] });
    }
  });

  test(`${kind}: 401 is an invalid key in plain words, without the key`, async () => {
    server.script({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided: sk-secret-123' } } });
    const e = await streamTurn(fetchFn, target(), request, { onText: () => undefined }).catch((x: unknown) => x);
    assert.ok(e instanceof ProviderError);
    assert.equal(e.kind, 'invalid-key');
    assert.match(e.message, /refused the API key/);
    assert.doesNotMatch(e.message, /sk-secret-123/);
    // What the user reads is a wording the panel translates; the provider's words stay beside it, key cut out.
    assert.deepEqual(e.wording, { code: 'reasonChatKeyRefused', params: { status: '401' } });
    assert.equal(e.detail, 'Incorrect API key provided: [key]');
  });

  test(`${kind}: 429 is retried after Retry-After, before anything streamed`, async () => {
    const before = server.requests.length;
    server.script(
      { kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } },
      { kind: 'stream', text: ['late'] },
    );
    const r = await streamTurn(fetchFn, target(), request, { onText: () => undefined });
    assert.equal(r.text, 'late');
    assert.equal(server.requests.length - before, 2);
  });

  test(`${kind}: a long Retry-After is reported with the wait, not slept through`, async () => {
    server.script({ kind: 'status', status: 429, headers: { 'retry-after': '42' }, body: { error: { message: 'slow down' } } });
    const e = (await streamTurn(fetchFn, target(), request, { onText: () => undefined }).catch((x: unknown) => x)) as ProviderError;
    assert.equal(e.kind, 'rate-limit');
    assert.match(e.message, /Try again in 42 s/);
  });

  test(`${kind}: 404 says the model is not known`, async () => {
    server.script({ kind: 'status', status: 404, body: { error: { message: 'model not found' } } });
    const e = (await streamTurn(fetchFn, target(), request, { onText: () => undefined }).catch((x: unknown) => x)) as ProviderError;
    assert.equal(e.kind, 'model-not-found');
  });

  test(`${kind}: aborting mid-stream stops reading and reports cancelled`, async () => {
    server.script({ kind: 'stream', text: ['a', 'b', 'c'], hangAfter: kind === 'openai' ? 3 : 5 });
    const controller = new AbortController();
    const pending = streamTurn(fetchFn, target(), request, { onText: () => controller.abort() }, controller.signal);
    const e = (await pending.catch((x: unknown) => x)) as ProviderError;
    assert.equal(e.kind, 'cancelled');
  });
}

test('a network failure names the host', async () => {
  const e = (await streamTurn(fetchFn, { kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, request, {
    onText: () => undefined,
  }).catch((x: unknown) => x)) as ProviderError;
  assert.equal(e.kind, 'network');
  assert.match(e.message, /127\.0\.0\.1:1/);
});

test('Retry-After reads seconds and HTTP dates', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs('soon'), undefined);
});

test('SSE: CRLF, CR, comments, multi-line data, split chunks', async () => {
  const parts = ['event: a\r\ndata: 1\r', '\ndata: 2\r\n\r\n: comment\n', 'data:x\r\rdata: tail-without-blank-line'];
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });
  const events = [];
  for await (const e of readSse(body)) events.push(e);
  assert.deepEqual(events, [
    { event: 'a', data: '1\n2' },
    { event: 'message', data: 'x' },
  ]);
});

test('SSE lines: a CRLF split across pieces ends one line, a lone CR ends one, an unfinished line waits', () => {
  const lines = new LineSplitter();
  assert.deepEqual(lines.push('a\r'), ['a']);
  assert.deepEqual(lines.push('\nb\rc'), ['b']);
  assert.deepEqual(lines.push('d\n\n'), ['cd', '']);
});
