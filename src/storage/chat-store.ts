/**
 * Chat history (section P) in its own IndexedDB database, `remote-mcp-chats`, so its schema
 * never shares a version number with the main database's stores (idb.ts). Bounded: at most
 * {@link MAX_CHATS} chats (the least recently updated go first), and each chat at most
 * {@link MAX_CHAT_BYTES} of JSON — over it, the oldest tool results are replaced by a short
 * marker until it fits (the conversation's words are kept). Nothing here leaves the machine.
 */
import type { ChatSummary, ChatView } from '../protocol/panel-chat.js';
import { ChatViewSchema } from '../protocol/panel-chat.js';
import { idbDone, idbRequest } from './idb.js';

const DB_NAME = 'remote-mcp-chats';
const STORE = 'chats';
export const MAX_CHATS = 100;
export const MAX_CHAT_BYTES = 2 * 1024 * 1024;
const DROPPED = '[result removed from the history to keep this chat under its size limit]';

let cached: { factory: IDBFactory; db: Promise<IDBDatabase> } | undefined;

function db(): Promise<IDBDatabase> {
  const factory = globalThis.indexedDB;
  if (cached?.factory === factory) return cached.db;
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('updatedAt', 'updatedAt');
    };
    request.onsuccess = () => {
      const conn = request.result;
      conn.onversionchange = () => conn.close();
      conn.onclose = () => (cached = undefined);
      resolve(conn);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  });
  cached = { factory, db: opening };
  opening.catch(() => (cached = undefined));
  return opening;
}

/** Replaces the oldest tool results by a marker until the chat's JSON is within the bound. */
export function boundChat(chat: ChatView, maxBytes = MAX_CHAT_BYTES): ChatView {
  let size = JSON.stringify(chat).length;
  if (size <= maxBytes) return chat;
  const entries = chat.entries.map((e) => ({ ...e }));
  for (const e of entries) {
    if (size <= maxBytes) break;
    if (e.kind === 'tool' && e.result && e.result !== DROPPED) {
      size -= e.result.length - DROPPED.length;
      e.result = DROPPED;
    }
  }
  return { ...chat, entries };
}

const SNIPPET_AROUND = 60;

/** The words around the first place `query` occurs in `text`, with an ellipsis where cut. */
function snippetAt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_AROUND);
  const end = Math.min(text.length, at + length + SNIPPET_AROUND);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/**
 * A chat as the history lists it (T5: date, provider/model), or undefined when `query` is given
 * and neither its title nor the text of its messages (the user's and the model's) contains it.
 * Tool results are not searched: they are the servers' words, not the conversation.
 */
export function chatSummary(chat: ChatView, query?: string): ChatSummary | undefined {
  const summary: ChatSummary = {
    id: chat.id,
    title: chat.title,
    updatedAt: chat.updatedAt,
    status: chat.status,
    createdAt: chat.createdAt,
    ...(chat.provider ? { provider: chat.provider } : {}),
  };
  const q = query?.trim().toLowerCase();
  if (!q) return summary;
  if (chat.title.toLowerCase().includes(q)) return summary;
  for (const e of chat.entries) {
    if (e.kind !== 'user' && e.kind !== 'assistant') continue;
    const at = e.text.toLowerCase().indexOf(q);
    if (at >= 0) return { ...summary, snippet: snippetAt(e.text, at, q.length) };
  }
  return undefined;
}

export class ChatStore {
  async get(id: string): Promise<ChatView | undefined> {
    const raw: unknown = await idbRequest((await db()).transaction(STORE, 'readonly').objectStore(STORE).get(id));
    const parsed = ChatViewSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  /** Newest first; with `query`, only the chats whose title or messages contain it. */
  async list(query?: string): Promise<ChatSummary[]> {
    const all = (await idbRequest((await db()).transaction(STORE, 'readonly').objectStore(STORE).getAll())) as ChatView[];
    return all.sort((a, b) => b.updatedAt - a.updatedAt).flatMap((c) => chatSummary(c, query) ?? []);
  }

  /** Writes the chat (bounded) and drops the oldest chats over {@link MAX_CHATS}. */
  async put(chat: ChatView): Promise<void> {
    const tx = (await db()).transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    store.put(boundChat(chat));
    const keys = store.index('updatedAt').getAllKeys();
    keys.onsuccess = () => {
      const ids = keys.result as string[];
      // Ascending by updatedAt: the first ones are the oldest.
      for (const old of ids.slice(0, Math.max(0, ids.length - MAX_CHATS))) if (old !== chat.id) store.delete(old);
    };
    await idbDone(tx);
  }

  async delete(id: string): Promise<boolean> {
    const conn = await db();
    const existing = await idbRequest(conn.transaction(STORE, 'readonly').objectStore(STORE).getKey(id));
    if (existing === undefined) return false;
    const tx = conn.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).delete(id);
    await idbDone(tx);
    return true;
  }

  /** Chats a worker was running when it stopped (their runs are gone). */
  async running(): Promise<ChatView[]> {
    const all = (await idbRequest((await db()).transaction(STORE, 'readonly').objectStore(STORE).getAll())) as unknown[];
    return all.flatMap((raw) => {
      const p = ChatViewSchema.safeParse(raw);
      return p.success && p.data.status === 'running' ? [p.data] : [];
    });
  }
}
