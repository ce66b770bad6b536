/**
 * The history's list and search (T5): each chat with its date and provider/model; a search
 * matches the title or the words of the messages (the user's and the model's), shows where, and
 * never the servers' tool results.
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from './helpers.js';
import { ChatStore, chatSummary } from '../../../src/storage/chat-store.js';
import type { ChatView } from '../../../src/protocol/panel-chat.js';

beforeEach(freshIndexedDb);

const chat = (id: string, title: string, text: string, extra: Partial<ChatView> = {}): ChatView => ({
  id,
  title,
  createdAt: 100,
  updatedAt: 200,
  disabledTools: [],
  status: 'idle',
  entries: [
    { kind: 'user', id: 'u', text: 'Please plan it', blocks: [] },
    { kind: 'assistant', id: 'a', text, toolCalls: [] },
    {
      kind: 'tool',
      id: 't',
      callId: 'c',
      name: 'mcp__demo__echo',
      arguments: '{}',
      status: 'done',
      startedAt: 1,
      result: 'SECRET-IN-RESULT',
    },
  ],
  ...extra,
});

test('a summary carries the creation date and the provider/model that answered', () => {
  const s = chatSummary(chat('a', 'Sprint', 'x', { provider: { kind: 'openai', model: 'gpt-x', host: 'api.example' } }));
  assert.deepEqual(s, {
    id: 'a',
    title: 'Sprint',
    updatedAt: 200,
    status: 'idle',
    createdAt: 100,
    provider: { kind: 'openai', model: 'gpt-x', host: 'api.example' },
  });
});

test('search matches the title, then the messages with a snippet, case-insensitively; tool results are not searched', () => {
  assert.equal(chatSummary(chat('a', 'Sprint plan', 'x'), 'SPRINT')?.snippet, undefined);
  const inText = chatSummary(chat('b', 'Other', `${'word '.repeat(30)}the Release notes are ready${' more'.repeat(30)}`), 'release');
  assert.ok(inText?.snippet?.includes('the Release notes are ready'), inText?.snippet);
  assert.ok(inText?.snippet?.startsWith('…') && inText.snippet.endsWith('…'));
  assert.equal(chatSummary(chat('c', 'Other', 'nothing'), 'secret-in-result'), undefined);
  assert.equal(chatSummary(chat('d', 'Other', 'nothing'), 'absent'), undefined);
});

test('the store lists only the matching chats, newest first', async () => {
  const store = new ChatStore();
  await store.put(chat('old', 'Budget', 'about the release', { updatedAt: 1 }));
  await store.put(chat('new', 'Release', 'other words', { updatedAt: 5 }));
  await store.put(chat('none', 'Lunch', 'pizza', { updatedAt: 9 }));
  assert.deepEqual(
    (await store.list('release')).map((c) => c.id),
    ['new', 'old'],
  );
  assert.equal((await store.list()).length, 3);
  assert.equal((await store.list('  ')).length, 3);
});
