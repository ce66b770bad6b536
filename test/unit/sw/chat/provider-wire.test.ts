/**
 * T1 and T3 against the provider stand-in: stalls end the turn with a sentence naming the host,
 * retries show their phase and Stop ends their wait, a redirect sends nothing to its target, and
 * the OpenAI-compatible stream shapes of real servers (from their public API docs) assemble right.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sseEvent, startProviderServer, type ProviderServer } from '../../../support/provider-server.js';
import { createChatProvider } from '../../../../src/sw/chat/providers/chat-provider.js';
import { listModels } from '../../../../src/sw/chat/providers/models.js';
import { LineSplitter } from '../../../../src/sw/chat/providers/sse.js';
import { runChat, type RunDeps } from '../../../../src/sw/chat/run-loop.js';
import { ProviderError, type ProviderTarget, type TurnPhase, type TurnRequest } from '../../../../src/sw/chat/providers/types.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';

let server: ProviderServer;
let other: ProviderServer;
before(async () => {
  server = await startProviderServer();
  other = await startProviderServer();
});
after(async () => {
  await server.close();
  await other.close();
});

const fetchFn = (input: string, init: RequestInit) => fetch(input, init);
const request: TurnRequest = { turns: [{ role: 'user', text: 'hi' }], tools: [] };
const openai = (over: Partial<ProviderTarget> = {}): ProviderTarget => ({
  kind: 'openai',
  baseUrl: server.openAiBase,
  model: 'm',
  ...over,
});
const anthropic = (over: Partial<ProviderTarget> = {}): ProviderTarget => ({
  kind: 'anthropic',
  baseUrl: server.anthropicBase,
  model: 'm',
  apiKey: 'sk-ant',
  ...over,
});
const turn = (
  target: ProviderTarget,
  hooks: Partial<Parameters<ReturnType<typeof createChatProvider>['stream']>[1]> = {},
  signal?: AbortSignal,
) =>
  createChatProvider(target, { fetch: fetchFn, languageModel: () => undefined }).stream(
    request,
    { onText: () => undefined, ...hooks },
    signal,
  );
const failure = (p: Promise<unknown>) =>
  p.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e as ProviderError,
  );
const host = () => new URL(server.openAiBase).host;

test('T1: a provider that sends its headers and then nothing ends the turn, naming the host and the wait', async () => {
  server.script({ kind: 'stall-after-headers' });
  const e = await failure(turn(openai({ firstByteTimeoutMs: 1000 })));
  assert.equal(e.kind, 'timeout');
  assert.equal(e.message, `${host()} sent no answer within 1 s. Try again, or allow a longer wait in the chat settings.`);
  assert.deepEqual(e.wording, { code: 'reasonChatNoFirstByte', params: { host: host(), seconds: '1' } });
});

test('T1: a provider that never sends its headers ends the turn the same way', async () => {
  server.script({ kind: 'stall-before-headers' });
  const e = await failure(turn(anthropic({ firstByteTimeoutMs: 1000 })));
  assert.equal(e.kind, 'timeout');
  assert.match(e.message, /sent no answer within 1 s/);
});

test('T1: a stream that stops mid-answer ends the turn with "stopped sending"', async () => {
  server.script({ kind: 'stream', text: ['a', 'b'], hangAfter: 2 });
  const texts: string[] = [];
  const e = await failure(turn(openai({ idleTimeoutMs: 1000 }), { onText: (t) => texts.push(t) }));
  assert.equal(e.kind, 'timeout');
  assert.deepEqual(texts, ['a']);
  assert.equal(e.wording?.code, 'reasonChatStreamIdle');
  assert.match(e.message, /stopped sending for 1 s/);
});

test('T1 (done when): a stalled provider ends the chat turn with a clear error entry', async () => {
  server.script({ kind: 'stall-after-headers' });
  const chat: ChatView = { id: 'c', title: '', createdAt: 0, updatedAt: 0, disabledTools: [], status: 'idle', entries: [] };
  chat.entries.push({ kind: 'user', id: 'u', text: 'hi', blocks: [] });
  const phases: Array<ChatView['phase']> = [];
  const provider = createChatProvider(openai({ firstByteTimeoutMs: 1000 }), { fetch: fetchFn, languageModel: () => undefined });
  let n = 0;
  const deps: RunDeps = {
    stream: (r, h, s) => provider.stream(r, h, s),
    tools: () => [],
    call: () => Promise.reject(new Error('no tools')),
    save: async () => undefined,
    changed: (c) => phases.push(c.phase && { ...c.phase }),
    text: () => undefined,
    newId: () => `id${n++}`,
    now: () => 5,
    maxSteps: 3,
  };
  await runChat(chat, deps, new AbortController().signal);
  const last = chat.entries.at(-1)!;
  assert.equal(last.kind, 'error');
  assert.equal(last.kind === 'error' && last.errorKind, 'timeout');
  assert.match(last.kind === 'error' ? last.message : '', /sent no answer within 1 s/);
  assert.deepEqual(phases[0], { kind: 'waiting-model', since: 5 }, 'the first push says the model is being waited for');
  assert.equal(chat.phase, undefined, 'the phase is gone when the turn ends');
  assert.equal(chat.status, 'idle');
});

test('T1: a 429 retry is shown with its time and attempt, then waiting again', async () => {
  server.script({ kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: {} }, { kind: 'stream', text: ['ok'] });
  const phases: TurnPhase[] = [];
  await turn(openai(), { onPhase: (p) => phases.push(p) });
  assert.deepEqual(
    phases.map((p) => p.kind),
    ['waiting-model', 'retrying', 'waiting-model'],
  );
  const retry = phases[1] as Extract<TurnPhase, { kind: 'retrying' }>;
  assert.equal(retry.attempt, 1);
  assert.equal(retry.status, 429);
});

test('T1: Stop during a retry wait ends it at once; nothing more is asked', async () => {
  const before = server.requests.length;
  server.script({ kind: 'status', status: 503, headers: { 'retry-after': '25' }, body: {} }, { kind: 'stream', text: ['never'] });
  const controller = new AbortController();
  const e = await failure(turn(openai(), { onPhase: (p) => p.kind === 'retrying' && controller.abort() }, controller.signal));
  assert.equal(e.kind, 'cancelled');
  assert.equal(server.requests.length - before, 1);
  // The unused stream answer is taken here, not by the next test.
  assert.equal((await turn(openai())).text, 'never');
});

for (const status of [307, 308]) {
  test(`T3 (done when): a ${status} from the provider sends nothing to the redirect target`, async () => {
    const before = other.requests.length;
    server.script({ kind: 'redirect', status, location: `${other.openAiBase}/chat/completions` });
    const e = await failure(turn(openai({ apiKey: 'sk-secret' })));
    assert.equal(e.kind, 'network');
    assert.equal(other.requests.length, before, 'the redirect target received nothing');
  });
}

test('T3: the model list refuses a redirect too, and nothing reaches its target', async () => {
  const before = other.requests.length;
  server.models.location = `${other.openAiBase}/models`;
  try {
    const e = await failure(listModels(fetchFn, openai({ apiKey: 'sk-secret' })));
    assert.equal(e.kind, 'network');
    assert.equal(other.requests.length, before);
  } finally {
    delete server.models.location;
  }
});

test('T5: the model list: OpenAI-compatible with the bearer key, Anthropic with its headers; odd ids dropped', async () => {
  server.models.ids = ['gpt-b', 'gpt-a', 'bad id with spaces', 'gpt-a'];
  assert.deepEqual(await listModels(fetchFn, openai({ apiKey: 'sk-1' })), ['gpt-a', 'gpt-b']);
  assert.equal(server.requests.at(-1)!.headers.authorization, 'Bearer sk-1');
  assert.deepEqual(await listModels(fetchFn, anthropic()), ['gpt-a', 'gpt-b']);
  const sent = server.requests.at(-1)!;
  assert.equal(sent.headers['x-api-key'], 'sk-ant');
  assert.equal(sent.headers['anthropic-version'], '2023-06-01');
});

test('T5: a model list that is not a list, or too large, is refused in plain words', async () => {
  server.models.body = '{"nope": true}';
  assert.equal((await failure(listModels(fetchFn, openai()))).wording?.code, 'reasonChatModelsUnreadable');
  server.models.body = JSON.stringify({ data: [{ id: 'x'.repeat(200) }], pad: 'y'.repeat(1_100_000) });
  assert.equal((await failure(listModels(fetchFn, openai()))).wording?.code, 'reasonChatModelsTooLarge');
  delete server.models.body;
  server.models.status = 401;
  assert.equal((await failure(listModels(fetchFn, openai()))).kind, 'invalid-key');
  delete server.models.status;
});

/** An OpenAI-compatible chunk as the named server writes it. */
const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  sseEvent({
    id: 'x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
const done = sseEvent('[DONE]');

test('T3 (done when): a name repeated in every delta is one name', async () => {
  server.script({
    kind: 'raw',
    events: [
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
      done,
    ],
  });
  const r = await turn(openai());
  assert.deepEqual(r.toolCalls, [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
});

test('T3 (done when): two parallel calls with ids and no index stay two calls', async () => {
  server.script({
    kind: 'raw',
    events: [
      chunk({ tool_calls: [{ id: 'one', type: 'function', function: { name: 'one', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ id: 'two', type: 'function', function: { name: 'two', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      done,
    ],
  });
  const r = await turn(openai());
  assert.deepEqual(r.toolCalls, [
    { id: 'one', name: 'one', arguments: '{}' },
    { id: 'two', name: 'two', arguments: '{}' },
  ]);
});

test('T3: Qwen compatible mode (id "" on later pieces), usage in the last chunk', async () => {
  server.script({
    kind: 'raw',
    events: [
      chunk(
        {
          content: null,
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_0bdc', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":' } },
          ],
        },
        null,
        { usage: null },
      ),
      chunk({ tool_calls: [{ index: 0, id: '', type: 'function', function: { arguments: ' "杭州市"}' } }] }, null, { usage: null }),
      chunk({}, 'tool_calls', { usage: null }),
      sseEvent({
        id: 'x',
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
      }),
      done,
    ],
  });
  const r = await turn(openai());
  assert.deepEqual(r.toolCalls, [{ id: 'call_0bdc', name: 'get_current_weather', arguments: '{"location": "杭州市"}' }]);
  assert.deepEqual(r.usage, { inputTokens: 9, outputTokens: 4 });
});

test('T3: one index for two calls with different ids (and SGLang-style changing indexes) stays two calls', async () => {
  server.script({
    kind: 'raw',
    events: [
      chunk({ tool_calls: [{ index: 3, id: 'a', type: 'function', function: { name: 'alpha', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'beta', arguments: '{"y"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':2}' } }] }),
      chunk({}, 'stop'),
      done,
    ],
  });
  const r = await turn(openai());
  assert.deepEqual(r.toolCalls, [
    { id: 'a', name: 'alpha', arguments: '{"x":1}' },
    { id: 'b', name: 'beta', arguments: '{"y":2}' },
  ]);
  assert.equal(r.stopReason, 'stop', '"stop" with tool calls still runs the calls');
});

test('T3: Ollama /v1 (whole call in one delta, finish "stop"), legacy function_call, null finish with [DONE]', async () => {
  server.script(
    {
      kind: 'raw',
      events: [
        chunk({
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_x', index: 0, type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }],
        }),
        chunk({ role: 'assistant', content: '' }, 'stop'),
        done,
      ],
    },
    {
      kind: 'raw',
      events: [
        chunk({ function_call: { name: 'legacy', arguments: '{"q"' } }),
        chunk({ function_call: { arguments: ':1}' } }, 'function_call'),
        done,
      ],
    },
    { kind: 'raw', events: [chunk({ content: 'plain' }), done] },
  );
  assert.deepEqual((await turn(openai())).toolCalls, [{ id: 'call_x', name: 'add', arguments: '{"a":1,"b":2}' }]);
  assert.deepEqual((await turn(openai())).toolCalls, [{ id: 'call_0', name: 'legacy', arguments: '{"q":1}' }]);
  const plain = await turn(openai());
  assert.equal(plain.text, 'plain');
  assert.equal(plain.stopReason, '');
});

test('T3: DeepSeek reasoning_content, OpenRouter/vLLM/Ollama reasoning: shown as reasoning, never as text', async () => {
  server.script(
    {
      kind: 'raw',
      events: [
        chunk({ role: 'assistant', content: null, reasoning_content: 'Let me ' }),
        chunk({ reasoning_content: 'think.' }),
        chunk({ content: 'Answer', reasoning_content: null }),
        chunk({}, 'stop'),
        done,
      ],
    },
    {
      kind: 'raw',
      events: [chunk({ role: 'assistant', content: '', reasoning: 'Hmm.' }), chunk({ content: 'Hi' }), chunk({}, 'stop'), done],
    },
  );
  const reasoning: string[] = [];
  const deepseek = await turn(openai(), { onReasoning: (d) => reasoning.push(d) });
  assert.equal(deepseek.text, 'Answer');
  assert.equal(deepseek.reasoning, 'Let me think.');
  assert.deepEqual(reasoning, ['Let me ', 'think.']);
  const router = await turn(openai());
  assert.equal(router.text, 'Hi');
  assert.equal(router.reasoning, 'Hmm.');
});

test('T3: a server that rejects stream_options with 400 is asked once without it, and that is remembered', async () => {
  const base = `${server.openAiBase}/`; // its own base URL, so the memory is this test's
  const before = server.requests.length;
  server.script(
    { kind: 'status', status: 400, body: { error: { message: 'Unrecognized request argument supplied: stream_options' } } },
    { kind: 'stream', text: ['ok'] },
  );
  assert.equal((await turn(openai({ baseUrl: base }))).text, 'ok');
  assert.equal(server.requests.length - before, 2);
  assert.ok('stream_options' in server.requests.at(-2)!.body);
  assert.ok(!('stream_options' in server.requests.at(-1)!.body));
  server.script({ kind: 'stream', text: ['again'] });
  await turn(openai({ baseUrl: base }));
  assert.ok(!('stream_options' in server.requests.at(-1)!.body));
  assert.ok('stream_options' in (await turn(openai()).then(() => server.requests.at(-1)!.body)), 'another base URL still asks for usage');
});

test('T3: Anthropic thinking and redacted_thinking: reasoning for the user, replayed unmodified with the tool turn', async () => {
  const ev = (type: string, data: Record<string, unknown>) => sseEvent({ type, ...data }, type);
  server.script({
    kind: 'raw',
    events: [
      ev('message_start', { message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'I should look it up.' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } }),
      ev('content_block_stop', { index: 1 }),
      ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'look', input: {} } }),
      ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } }),
      ev('content_block_stop', { index: 2 }),
      ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      ev('message_stop', {}),
    ],
  });
  const r = await turn(anthropic());
  assert.equal(r.text, '');
  assert.equal(r.reasoning, 'I should look it up.');
  const replay = [
    { type: 'thinking', thinking: 'I should look it up.', signature: 'EqQBCgIYAhIM' },
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
  ];
  assert.deepEqual(r.replay, replay);
  server.script({ kind: 'stream', text: ['done'] });
  const provider = createChatProvider(anthropic(), { fetch: fetchFn, languageModel: () => undefined });
  await provider.stream(
    {
      turns: [
        { role: 'user', text: 'q' },
        { role: 'assistant', text: '', toolCalls: r.toolCalls, replay: r.replay },
        { role: 'tool', callId: 'toolu_1', name: 'look', content: 'found', isError: false },
      ],
      tools: [],
    },
    { onText: () => undefined },
  );
  const sent = server.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown[] }> };
  assert.deepEqual(sent.messages[1]!.content, [...replay, { type: 'tool_use', id: 'toolu_1', name: 'look', input: { q: 'x' } }]);
  assert.ok(!JSON.stringify(sent.messages).includes('"text":"I should look it up."'), 'reasoning never goes back as text');
});

test('T3: an SSE line past 1 MiB is refused with a clear error; one just under passes, split anywhere', () => {
  const lines = new LineSplitter();
  const piece = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 15; i++) assert.deepEqual(lines.push(piece), []);
  assert.deepEqual(lines.push('y\n'), [`${piece.repeat(15)}y`]);
  const long = new LineSplitter();
  assert.throws(
    () => {
      for (let i = 0; i < 17; i++) long.push(piece);
    },
    (e: unknown) => e instanceof ProviderError && e.kind === 'bad-response' && e.wording?.code === 'reasonChatLineTooLong',
  );
});
