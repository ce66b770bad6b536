/**
 * The worker's chat service over fakes: every refusal of a request comes with a wording the panel
 * translates (SPEC K6), and a chat a previous worker left running is closed as interrupted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startChatService, type ChatServiceDeps } from '../../../../src/sw/chat/chat-service.js';
import type { LanguageModelLike } from '../../../../src/sw/chat/providers/builtin.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';
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
