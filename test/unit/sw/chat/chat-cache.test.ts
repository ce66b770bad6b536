import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatCache } from '../../../../src/sw/chat/chat-cache.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';

const chat = (id: string): ChatView => ({ id, title: id, createdAt: 0, updatedAt: 0, disabledTools: [], status: 'idle', entries: [] });

function fakeStore(...chats: ChatView[]) {
  const stored = new Map(chats.map((c) => [c.id, structuredClone(c)]));
  const reads: string[] = [];
  return {
    reads,
    stored,
    get: async (id: string) => {
      reads.push(id);
      const c = stored.get(id);
      return c && structuredClone(c);
    },
    put: async (c: ChatView) => void stored.set(c.id, structuredClone(c)),
  };
}

test('a chat is read from the store once, then from memory, always as a copy the caller may change', async () => {
  const store = fakeStore(chat('a'));
  const cache = new ChatCache(store, () => false);
  const first = await cache.get('a');
  first.title = 'changed by the caller';
  const second = await cache.get('a');
  assert.equal(second.title, 'a');
  assert.deepEqual(store.reads, ['a']);
});

test('a written chat is stored and served from memory without a read', async () => {
  const store = fakeStore();
  const cache = new ChatCache(store, () => false);
  await cache.put(chat('b'));
  assert.equal(store.stored.get('b')?.title, 'b');
  assert.equal((await cache.get('b')).id, 'b');
  assert.deepEqual(store.reads, []);
});

test('a missing chat is not-found, in words the panel translates', async () => {
  const cache = new ChatCache(fakeStore(), () => false);
  await assert.rejects(cache.get('gone'), (e: RemoteError) => e.code === 'not-found' && e.wording?.code === 'reasonChatGone');
});

test('beyond its size the oldest chat is evicted, but never one a run holds', async () => {
  const store = fakeStore();
  const cache = new ChatCache(store, (id) => id === 'running', 2);
  await cache.put(chat('running'));
  await cache.put(chat('old'));
  await cache.put(chat('new'));
  await cache.get('running');
  await cache.get('new');
  assert.deepEqual(store.reads, [], 'the running and the newest chat stayed');
  await cache.get('old');
  assert.deepEqual(store.reads, ['old'], 'the oldest idle chat was evicted');
});

test('a forgotten chat is read from the store again', async () => {
  const store = fakeStore(chat('a'));
  const cache = new ChatCache(store, () => false);
  await cache.get('a');
  cache.forget('a');
  await cache.get('a');
  assert.deepEqual(store.reads, ['a', 'a']);
});
