/**
 * Regenerate and edit-and-resend in the worker (T5): the chat is cut back to a user message, what
 * followed is dropped (not kept as a branch), an edited message is marked, and the chat answers
 * again with the provider set up now — also when the worker was stopped and started again in
 * between (a fresh service over the same store).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markAnswering, rewindForEdit, rewindForRegenerate } from '../../../../src/sw/chat/chat-rewind.js';
import { startChatService, type ChatServiceDeps } from '../../../../src/sw/chat/chat-service.js';
import type { LanguageModelLike } from '../../../../src/sw/chat/providers/builtin.js';
import type { ChatEntry, ChatView } from '../../../../src/protocol/panel-chat.js';
import type { RemoteError } from '../../../../src/protocol/result.js';
import type { OpenedProvider } from '../../../../src/storage/provider-settings.js';

const conversation = (): ChatEntry[] => [
  { kind: 'user', id: 'u1', text: 'first', blocks: [] },
  { kind: 'assistant', id: 'a1', text: 'one', toolCalls: [], usage: { inputTokens: 3, outputTokens: 1 } },
  { kind: 'user', id: 'u2', text: 'second', blocks: [] },
  { kind: 'assistant', id: 'a2', text: '', toolCalls: [{ id: 'c', name: 'mcp__demo__echo', arguments: '{}' }] },
  {
    kind: 'tool',
    id: 't1',
    callId: 'c',
    name: 'mcp__demo__echo',
    arguments: '{}',
    status: 'done',
    startedAt: 1,
    result: 'r',
  },
  { kind: 'error', id: 'e1', errorKind: 'rate-limit', message: 'HTTP 429' },
];

const chat = (over: Partial<ChatView> = {}): ChatView => ({
  id: 'c1',
  title: 'c1',
  createdAt: 1,
  updatedAt: 2,
  disabledTools: [],
  status: 'idle',
  entries: conversation(),
  provider: { kind: 'openai', model: 'old-model', host: 'old.example' },
  ...over,
});

const refusal = (wording: string) => (e: RemoteError) => e.code === 'bad-request' && e.wording?.code === wording;

test('regenerate drops the whole last answer (text, steps, errors) and keeps the message it answers', () => {
  const c = chat();
  rewindForRegenerate(c);
  assert.deepEqual(
    c.entries.map((e) => e.id),
    ['u1', 'a1', 'u2'],
  );
  assert.throws(() => rewindForRegenerate(chat({ entries: [] })), refusal('reasonChatNothingToRegenerate'));
});

test('an edit replaces the message, marks it edited and drops every later entry; an unknown or non-user entry is refused', () => {
  const c = chat();
  rewindForEdit(c, 'u1', 'first, better');
  assert.deepEqual(c.entries, [{ kind: 'user', id: 'u1', text: 'first, better', blocks: [], edited: true }]);
  assert.throws(() => rewindForEdit(chat(), 'a1', 'x'), refusal('reasonChatEditGone'));
  assert.throws(() => rewindForEdit(chat(), 'gone', 'x'), refusal('reasonChatEditGone'));
});

test('answering again names the provider set up now: a switch applies from this turn', () => {
  const c = chat();
  markAnswering(c, { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'new-model', maxSteps: 3 }, 9);
  assert.deepEqual(c.provider, { kind: 'anthropic', model: 'new-model', host: 'api.anthropic.com' });
  assert.equal(c.status, 'running');
  assert.equal(c.updatedAt, 9);
});

/** A built-in model that answers "again" at once. */
const answering: LanguageModelLike = {
  availability: async () => 'available',
  create: async () => ({
    promptStreaming: () =>
      new ReadableStream<string>({
        start(controller) {
          controller.enqueue('again');
          controller.close();
        },
      }),
    destroy: () => undefined,
  }),
};

function service(stored: Map<string, ChatView>) {
  let n = 0;
  const builtin: OpenedProvider = { kind: 'builtin', baseUrl: '', model: '', maxSteps: 3 };
  const pushes: unknown[] = [];
  const deps = {
    store: {
      get: async (id: string) => structuredClone(stored.get(id)),
      put: async (c: ChatView) => void stored.set(c.id, structuredClone(c)),
      list: async () => [],
      delete: async (id: string) => stored.delete(id),
      running: async () => [],
    },
    providers: { opened: async () => builtin, view: async () => undefined, save: async () => undefined },
    registry: { list: () => [], call: () => Promise.reject(new Error('no tools')) },
    fetch: () => Promise.reject(new Error('no network')),
    languageModel: () => answering,
    hasHostPermission: async () => false,
    onSettingsChange: () => undefined,
    push: (m: unknown) => pushes.push(m),
    activityChanged: () => undefined,
    newId: () => `n${n++}`,
    now: () => 50,
  } as unknown as ChatServiceDeps;
  return startChatService(deps);
}

async function idle(stored: Map<string, ChatView>, id: string) {
  for (let i = 0; i < 200 && stored.get(id)?.status !== 'idle'; i++) await new Promise((r) => setTimeout(r, 5));
  return stored.get(id)!;
}

test('through the service: regenerate and edit answer again, and still work in a new worker over the same store', async () => {
  const stored = new Map([['c1', chat()]]);
  const first = service(stored);
  assert.deepEqual(await first.handlers['panel:chat-regenerate']({ chatId: 'c1' }), { started: true });
  let c = await idle(stored, 'c1');
  const answers = c.entries.filter((e) => e.kind === 'assistant');
  assert.deepEqual(
    c.entries.slice(0, 3).map((e) => e.id),
    ['u1', 'a1', 'u2'],
  );
  assert.equal(answers.at(-1)?.text, 'again');
  assert.equal(c.provider?.kind, 'builtin');
  assert.equal(
    c.entries.some((e) => e.id === 't1' || e.id === 'e1'),
    false,
    'the old answer is dropped',
  );

  // A worker stop: the next instance reads the chat from the store and edits it.
  const second = service(stored);
  await second.handlers['panel:chat-edit']({ chatId: 'c1', entryId: 'u1', text: 'edited first' });
  c = await idle(stored, 'c1');
  assert.deepEqual(c.entries[0], { kind: 'user', id: 'u1', text: 'edited first', blocks: [], edited: true });
  assert.deepEqual(
    c.entries.map((e) => e.kind),
    ['user', 'notice', 'assistant'],
  );
  const last = c.entries.at(-1);
  assert.equal(last?.kind === 'assistant' && last.text, 'again');
  await assert.rejects(second.handlers['panel:chat-edit']({ chatId: 'c1', entryId: 'u2', text: 'x' }), refusal('reasonChatEditGone'));
});
