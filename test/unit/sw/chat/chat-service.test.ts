/**
 * The worker's chat service over fakes: every refusal of a request comes with a wording the panel
 * translates (SPEC K6), and a chat a previous worker left running is closed as interrupted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startChatService, type ChatServiceDeps } from '../../../../src/sw/chat/chat-service.js';
import type { LanguageModelLike } from '../../../../src/sw/chat/providers/builtin.js';
import { MAX_SYSTEM_PROMPT, type ChatView } from '../../../../src/protocol/panel-chat.js';
import type { RemoteError } from '../../../../src/protocol/result.js';
import type { OpenedProvider } from '../../../../src/storage/provider-settings.js';

const chat = (id: string, over: Partial<ChatView> = {}): ChatView => ({
  id,
  title: id,
  createdAt: 0,
  updatedAt: 0,
  disabledTools: [],
  status: 'idle',
  entries: [],
  ...over,
});

/** A built-in model that never finishes its answer: the run stays busy. */
const hanging: LanguageModelLike = {
  availability: async () => 'available',
  create: async () => ({
    promptStreaming: () => new ReadableStream<string>({ pull: () => new Promise(() => undefined) }),
    destroy: () => undefined,
  }),
};

function service(options: {
  chats?: ChatView[];
  opened?: () => Promise<OpenedProvider | undefined>;
  permitted?: boolean;
  model?: LanguageModelLike;
}) {
  const stored = new Map((options.chats ?? []).map((c) => [c.id, structuredClone(c)]));
  let n = 0;
  const deps = {
    store: {
      get: async (id: string) => structuredClone(stored.get(id)),
      put: async (c: ChatView) => void stored.set(c.id, structuredClone(c)),
      list: async () => [...stored.values()].map(({ id, title, updatedAt, status }) => ({ id, title, updatedAt, status })),
      delete: async (id: string) => stored.delete(id),
      running: async () => [...stored.values()].filter((c) => c.status === 'running').map((c) => structuredClone(c)),
    },
    providers: { opened: options.opened ?? (async () => undefined), view: async () => undefined, save: async () => undefined },
    registry: { list: () => [], call: () => Promise.reject(new Error('no tools')) },
    fetch: () => Promise.reject(new Error('no network')),
    languageModel: () => options.model,
    hasHostPermission: async () => options.permitted ?? false,
    onSettingsChange: () => undefined,
    push: () => undefined,
    activityChanged: () => undefined,
    newId: () => `id${n++}`,
    now: () => 5,
  } as unknown as ChatServiceDeps;
  return { chat: startChatService(deps), stored };
}

const send = (chatId: string) => ({ chatId, text: 'hi', blocks: [], disabledTools: [] });
const refusal = (code: string, wording: string) => (e: RemoteError) => e.code === code && e.wording?.code === wording;

test('sending is refused in translated words: a gone chat, no provider, an unreadable key, no host access', async () => {
  const openai: OpenedProvider = { kind: 'openai', baseUrl: 'https://api.example/v1', model: 'm', maxSteps: 3 };
  await assert.rejects(service({}).chat.handlers['panel:chat-send'](send('gone')), refusal('not-found', 'reasonChatGone'));
  const none = service({ chats: [chat('a')] });
  await assert.rejects(none.chat.handlers['panel:chat-send'](send('a')), refusal('config-invalid', 'reasonChatNoProvider'));
  const locked = service({ chats: [chat('a')], opened: () => Promise.reject(new Error('cannot decrypt')) });
  await assert.rejects(locked.chat.handlers['panel:chat-send'](send('a')), refusal('config-invalid', 'reasonChatKeyUnreadable'));
  const denied = service({ chats: [chat('a')], opened: async () => openai, permitted: false });
  await assert.rejects(
    denied.chat.handlers['panel:chat-send'](send('a')),
    (e: RemoteError) => refusal('permission', 'reasonChatNoHostAccess')(e) && e.wording?.params?.origin === 'https://api.example',
  );
});

test('a busy chat and a full chat refuse another message in translated words', async () => {
  const builtin: OpenedProvider = { kind: 'builtin', baseUrl: '', model: '', maxSteps: 3 };
  const full = chat('full', {
    entries: Array.from({ length: 800 }, (_, i) => ({ kind: 'notice' as const, id: `n${i}`, notice: 'stopped' as const })),
  });
  const s = service({ chats: [chat('a'), full], opened: async () => builtin, model: hanging });
  assert.deepEqual(await s.chat.handlers['panel:chat-send'](send('a')), { started: true });
  assert.equal(s.chat.active(), true);
  await assert.rejects(s.chat.handlers['panel:chat-send'](send('a')), refusal('bad-request', 'reasonChatBusy'));
  await assert.rejects(s.chat.handlers['panel:chat-send'](send('full')), refusal('bad-request', 'reasonChatFull'));
  assert.deepEqual(await s.chat.handlers['panel:chat-stop']({ chatId: 'a' }), { stopped: true });
});

test('saving a provider is refused in translated words: no built-in model, no model name', async () => {
  const s = service({});
  await assert.rejects(
    s.chat.handlers['panel:chat-save-provider']({ kind: 'builtin', baseUrl: '', model: '' }),
    refusal('bad-request', 'reasonChatBuiltinNotOffered'),
  );
  await assert.rejects(
    s.chat.handlers['panel:chat-save-provider']({ kind: 'openai', baseUrl: 'https://api.example/v1', model: ' ' }),
    refusal('bad-request', 'reasonChatModelMissing'),
  );
});

test('a chat a previous worker left running is closed as interrupted before it is read', async () => {
  const s = service({
    chats: [chat('r', { status: 'running', entries: [{ kind: 'assistant', id: 'a', text: 'par', toolCalls: [], streaming: true }] })],
  });
  const opened = await s.chat.handlers['panel:chat-open']({ chatId: 'r' });
  assert.equal(opened.chat?.status, 'idle');
  assert.deepEqual(
    opened.chat?.entries.map((e) => (e.kind === 'notice' ? `notice:${e.notice}` : e.kind)),
    ['assistant', 'notice:interrupted'],
  );
  assert.equal(s.stored.get('r')?.status, 'idle');
});

test('a chat’s own system prompt (T5): kept trimmed, cleared with an empty one, refused in words when too long with the chat unchanged', async () => {
  const s = service({ chats: [chat('a'), chat('b')] });
  const set = s.chat.handlers['panel:chat-system-prompt'];
  assert.deepEqual(await set({ chatId: 'a', systemPrompt: '  Answer like a pirate.  ' }), { saved: true });
  assert.equal(s.stored.get('a')?.systemPrompt, 'Answer like a pirate.');
  assert.equal(s.stored.get('b')?.systemPrompt, undefined, 'another chat keeps the provider’s');

  const tooLong = 'x'.repeat(MAX_SYSTEM_PROMPT + 1);
  await assert.rejects(
    set({ chatId: 'a', systemPrompt: tooLong }),
    (e: RemoteError) =>
      refusal('bad-request', 'reasonChatSystemPromptTooLong')(e) &&
      e.wording?.params?.count === String(MAX_SYSTEM_PROMPT + 1) &&
      e.wording?.params?.limit === String(MAX_SYSTEM_PROMPT) &&
      e.message ===
        `This chat’s system prompt has ${MAX_SYSTEM_PROMPT + 1} characters; at most ${MAX_SYSTEM_PROMPT} are allowed. Nothing was changed.`,
  );
  assert.equal(s.stored.get('a')?.systemPrompt, 'Answer like a pirate.', 'the refused prompt changed nothing');
  assert.deepEqual(await set({ chatId: 'a', systemPrompt: 'y'.repeat(MAX_SYSTEM_PROMPT) }), { saved: true }, 'exactly the limit is kept');

  assert.deepEqual(await set({ chatId: 'a', systemPrompt: '   ' }), { saved: true });
  assert.equal(Object.hasOwn(s.stored.get('a') ?? {}, 'systemPrompt'), false, 'empty: the provider’s prompt again');
  await assert.rejects(set({ chatId: 'gone', systemPrompt: 'x' }), refusal('not-found', 'reasonChatGone'));
});
