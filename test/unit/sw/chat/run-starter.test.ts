import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addUserMessage, RunStarter, type RunStarterDeps } from '../../../../src/sw/chat/run-starter.js';
import type { LanguageModelLike } from '../../../../src/sw/chat/providers/builtin.js';
import type { Clock } from '../../../../src/sw/chat/text-throttle.js';
import type { ChatPanelPush, ChatView } from '../../../../src/protocol/panel-chat.js';
import type { OpenedProvider } from '../../../../src/storage/provider-settings.js';

const emptyChat = (): ChatView => ({ id: 'c1', title: '', createdAt: 0, updatedAt: 0, disabledTools: [], status: 'idle', entries: [] });
const builtin: OpenedProvider = { kind: 'builtin', baseUrl: '', model: '', maxSteps: 5 };

/** Chrome's built-in model answering with these pieces; `gate` holds the stream open until it resolves. */
function model(pieces: string[], gate: Promise<void> = Promise.resolve()): LanguageModelLike {
  return {
    availability: async () => 'available',
    create: async () => ({
      promptStreaming: () => {
        let i = 0;
        return new ReadableStream<string>({
          async pull(c) {
            if (i < pieces.length) return c.enqueue(pieces[i++]);
            await gate;
            c.close();
          },
        });
      },
      destroy: () => undefined,
    }),
  };
}

function starter(languageModel: LanguageModelLike) {
  const pushes: ChatPanelPush[] = [];
  const saved: ChatView[] = [];
  const timers: Array<() => void> = [];
  let activity = 0;
  const clock: Clock = { now: () => 0, setTimeout: (run) => timers.push(run) };
  const deps: RunStarterDeps = {
    registry: { list: () => [], call: () => Promise.reject(new Error('no tools')) },
    reach: { fetch: () => Promise.reject(new Error('no network')), languageModel: () => languageModel },
    save: async (c) => void saved.push(structuredClone(c)),
    push: (m) => pushes.push(m),
    activityChanged: () => void activity++,
    newId: (() => {
      let n = 0;
      return () => `id${n++}`;
    })(),
    now: () => 7,
    clock,
  };
  return { runs: new RunStarter(deps), pushes, saved, timers, activity: () => activity };
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(what(), 'timed out');
};

test('the user message gets a title, labelled blocks, the answering provider, and the chat runs', () => {
  const chat = emptyChat();
  const block = (kind: 'prompt' | 'resource') => ({
    kind,
    provenance: { serverId: 's', serverName: 'Demo', ...(kind === 'prompt' ? { prompt: 'plan' } : { uri: 'file:///a' }) },
    untrusted: true as const,
    delimiter: 'd',
    text: `${kind} text`,
  });
  const openai: OpenedProvider = { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama', maxSteps: 5 };
  addUserMessage(
    chat,
    { chatId: 'c1', text: '  First line\nsecond', blocks: [block('prompt'), block('resource')], disabledTools: ['s:x'] },
    openai,
    {
      newId: () => 'u1',
      now: () => 42,
    },
  );
  assert.equal(chat.title, 'First line');
  assert.deepEqual(chat.disabledTools, ['s:x']);
  assert.deepEqual(chat.entries, [
    {
      kind: 'user',
      id: 'u1',
      text: '  First line\nsecond',
      blocks: [
        { label: '/plan · Demo', text: 'prompt text' },
        { label: '@file:///a · Demo', text: 'resource text' },
      ],
    },
  ]);
  assert.deepEqual(chat.provider, { kind: 'openai', model: 'llama', host: '127.0.0.1:11434' });
  assert.equal(chat.status, 'running');
  assert.equal(chat.updatedAt, 42);
});

test('a run is active while it answers, pushes its text paced by the clock, saves, and ends idle', async () => {
  let open!: () => void;
  const s = starter(model(['Hel', 'lo'], new Promise<void>((r) => (open = r))));
  const chat = emptyChat();
  chat.entries.push({ kind: 'user', id: 'u', text: 'hi', blocks: [] });
  s.runs.start(chat, builtin);
  assert.equal(s.runs.active, true);
  assert.equal(s.runs.has('c1'), true);
  assert.equal(s.runs.chat('c1'), chat, 'the run holds the very chat it changes');
  assert.equal(s.activity(), 1);
  await until(() => s.timers.length === 1);
  const texts = () => s.pushes.filter((p) => p.type === 'panel:chat-text').map((p) => p.type === 'panel:chat-text' && p.text);
  assert.deepEqual(texts(), ['Hel'], 'the first piece at once, the second waits for the clock');
  s.timers.shift()!();
  assert.deepEqual(texts(), ['Hel', 'Hello']);
  open();
  await until(() => !s.runs.active);
  assert.equal(s.activity(), 2);
  assert.equal(chat.status, 'idle');
  assert.equal(s.saved.at(-1)?.status, 'idle');
  const last = s.pushes.at(-1)!;
  assert.equal(last.type === 'panel:chat' && last.chat.entries.at(-1)?.kind, 'assistant');
  assert.deepEqual(
    chat.entries.map((e) => (e.kind === 'notice' ? `notice:${e.notice}` : e.kind)),
    ['user', 'notice:no-tools', 'assistant'],
  );
});

test('stop aborts the run, which ends with a "stopped" notice; stopping no run says so', async () => {
  const s = starter(model(['partial'], new Promise<void>(() => undefined)));
  const chat = emptyChat();
  chat.entries.push({ kind: 'user', id: 'u', text: 'hi', blocks: [] });
  assert.equal(s.runs.stop('c1'), false);
  s.runs.start(chat, builtin);
  await until(() => s.pushes.some((p) => p.type === 'panel:chat-text'));
  assert.equal(s.runs.stop('c1'), true);
  await until(() => !s.runs.active);
  const last = chat.entries.at(-1)!;
  assert.equal(last.kind === 'notice' && last.notice, 'stopped');
});
