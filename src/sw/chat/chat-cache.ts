/**
 * The chats this worker read or wrote lately, kept in memory write-through (every write goes
 * through the chat service, the store's only writer), so a send does not wait for IndexedDB
 * before its request (time to first token). A chat a run holds is never evicted: the run keeps
 * writing it.
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import type { ChatView } from '../../protocol/panel-chat.js';
import type { ChatStore } from '../../storage/chat-store.js';

/** Chats kept in memory after they were read or written here. */
export const CACHED_CHATS = 20;

export class ChatCache {
  readonly #chats = new Map<string, ChatView>();
  readonly #store: Pick<ChatStore, 'get' | 'put'>;
  readonly #pinned: (chatId: string) => boolean;
  readonly #size: number;

  constructor(store: Pick<ChatStore, 'get' | 'put'>, pinned: (chatId: string) => boolean, size = CACHED_CHATS) {
    this.#store = store;
    this.#pinned = pinned;
    this.#size = size;
  }

  /** A copy of the chat the caller may change; `not-found` when it no longer exists. */
  async get(chatId: string): Promise<ChatView> {
    const cached = this.#chats.get(chatId);
    if (cached) return structuredClone(cached);
    const chat = await this.#store.get(chatId);
    if (!chat) throw new RemoteError({ code: 'not-found', ...say('reasonChatGone') });
    this.#remember(structuredClone(chat));
    return chat;
  }

  /** Stores the chat and keeps it as the newest in memory. */
  put(chat: ChatView): Promise<void> {
    this.#remember(chat);
    return this.#store.put(chat);
  }

  forget(chatId: string): void {
    this.#chats.delete(chatId);
  }

  #remember(chat: ChatView) {
    this.#chats.delete(chat.id);
    this.#chats.set(chat.id, chat);
    for (const old of this.#chats.keys()) if (this.#chats.size > this.#size && !this.#pinned(old)) this.#chats.delete(old);
  }
}
