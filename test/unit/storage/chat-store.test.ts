import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from './helpers.js';
import { boundChat, ChatStore, MAX_CHATS } from '../../../src/storage/chat-store.js';
import { ProviderSettingsStore } from '../../../src/storage/provider-settings.js';
import type { ChatView } from '../../../src/protocol/panel-chat.js';
import { MemoryArea } from '../../support/memory-area.js';

beforeEach(freshIndexedDb);

const chat = (id: string, updatedAt: number, extra: Partial<ChatView> = {}): ChatView => ({
  id,
  title: id,
  createdAt: updatedAt,
  updatedAt,
  disabledTools: [],
  status: 'idle',
  entries: [],
  ...extra,
});

test('chats are kept newest first, bounded to the last 100', async () => {
  const store = new ChatStore();
  for (let i = 0; i < MAX_CHATS + 3; i++) await store.put(chat(`c${i}`, i));
  const list = await store.list();
  assert.equal(list.length, MAX_CHATS);
  assert.equal(list[0]!.id, `c${MAX_CHATS + 2}`);
  assert.equal(await store.get('c0'), undefined);
  assert.equal(await store.delete('c50'), true);
  assert.equal(await store.delete('c50'), false);
});

test('a chat over its size bound loses its oldest tool results first', () => {
  const big = 'x'.repeat(1000);
  const c = chat('a', 1, {
    entries: [1, 2, 3].map((n) => ({
      kind: 'tool' as const,
      id: `t${n}`,
      callId: 'c',
      name: 'n',
      arguments: '{}',
      status: 'done' as const,
      result: big,
      startedAt: 0,
    })),
  });
  const bounded = boundChat(c, JSON.stringify(c).length - 500);
  const results = bounded.entries.map((e) => (e.kind === 'tool' ? e.result!.length : 0));
  assert.ok(results[0]! < 1000 && results[1] === 1000 && results[2] === 1000);
});

test('running chats are found for the next worker to close', async () => {
  const store = new ChatStore();
  await store.put(chat('a', 1, { status: 'running' }));
  await store.put(chat('b', 2));
  assert.deepEqual(
    (await store.running()).map((c) => c.id),
    ['a'],
  );
});

test('the provider key is sealed for its origin, never stored in clear, and kept when only the model changes', async () => {
  const area = new MemoryArea();
  const providers = new ProviderSettingsStore(area);
  await providers.save({ kind: 'openai', baseUrl: 'https://api.example.com/v1/', model: 'm1', apiKey: 'sk-live-secret' });
  assert.doesNotMatch(JSON.stringify(await area.get('mcp_chat_provider')), /sk-live-secret/);
  assert.equal((await providers.opened())?.apiKey, 'sk-live-secret');
  assert.equal((await providers.opened())?.baseUrl, 'https://api.example.com/v1');
  await providers.save({ kind: 'openai', baseUrl: 'https://api.example.com/v1', model: 'm2' });
  assert.equal((await providers.opened())?.apiKey, 'sk-live-secret');
  const moved = await providers.save({ kind: 'openai', baseUrl: 'https://elsewhere.example.org/v1', model: 'm2' });
  assert.equal(moved.hasKey, false);
  assert.equal((await providers.opened())?.apiKey, undefined);
  assert.equal(moved.maxSteps, 20);
});
