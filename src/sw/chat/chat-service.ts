/**
 * The chat engine in the worker (issue 17; docs/architecture.md "Chat"): the panel's chat
 * requests, the runs in progress (one AbortController each, for Stop), and the pushes that keep
 * every open panel's conversation current. A run lives here, next to the AgentTool registry and
 * the approval broker it uses, and keeps the worker alive while it is active (`active()`); its
 * chat is persisted after every step, so a reopened panel re-attaches by opening the chat, and a
 * chat a stopped worker was running is closed at the next start with an "interrupted" notice.
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import type { ChatPanelPush, ChatPanelRequestSchemas, ChatView } from '../../protocol/panel-chat.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import type { ChatStore } from '../../storage/chat-store.js';
import type { OpenedProvider, ProviderSettingsStore } from '../../storage/provider-settings.js';
import { checkServerUrl } from '../../common/url-rules.js';
import type { AgentToolRegistry } from '../use/tool-registry.js';
import { streamTurn } from './providers/index.js';
import { builtinAvailable, streamBuiltin, type LanguageModelLike } from './providers/builtin.js';
import type { FetchLike } from './providers/types.js';
import { runChat } from './run-loop.js';

/** Text pushes of a streaming answer are at most this often (the first piece goes at once). */
const TEXT_PUSH_MS = 40;
const MAX_ENTRIES = 800;
const TITLE_LENGTH = 60;
/** Chats kept in memory after they were read or written here (the worker is their only writer). */
const CACHED_CHATS = 20;

export interface ChatServiceDeps {
  store: ChatStore;
  providers: ProviderSettingsStore;
  registry: Pick<AgentToolRegistry, 'list' | 'call'>;
  fetch: FetchLike;
  /** Chrome's built-in model (Prompt API) where this context has one. */
  languageModel(): LanguageModelLike | undefined;
  hasHostPermission(url: string): Promise<boolean>;
  /** Calls back whenever the stored provider settings or the granted host permissions change. */
  onSettingsChange(listener: () => void): void;
  push(message: ChatPanelPush): void;
  /** A run started or ended (keep-alive). */
  activityChanged(): void;
  newId: () => string;
  now: () => number;
}

type ChatHandlers = { [M in keyof typeof ChatPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

/** Closes a chat whose run died with a previous worker: nothing is silently lost. */
function markInterrupted(chat: ChatView, newId: () => string, now: number): ChatView {
  for (const e of chat.entries) {
    if (e.kind === 'assistant') delete e.streaming;
    if (e.kind === 'tool' && e.status === 'running') {
      e.status = 'cancelled';
      ({ message: e.result, wording: e.resultWording } = say('reasonChatToolInterrupted'));
    }
  }
  chat.entries.push({ kind: 'notice', id: newId(), notice: 'interrupted' });
  chat.status = 'idle';
  chat.updatedAt = now;
  return chat;
}

export function setUpChat(deps: ChatServiceDeps) {
  const runs = new Map<string, { controller: AbortController; chat: ChatView }>();

  const pushChat = (chat: ChatView) => deps.push({ type: 'panel:chat', chat: structuredClone(chat) });
  const textPusher = () => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: (() => void) | undefined;
    return (send: () => void) => {
      pending = send;
      const wait = last + TEXT_PUSH_MS - Date.now();
      if (wait <= 0) {
        last = Date.now();
        pending = undefined;
        send();
      } else
        timer ??= setTimeout(() => {
          timer = undefined;
          last = Date.now();
          pending?.();
          pending = undefined;
        }, wait);
    };
  };

  /**
   * What a send needs before its request, kept off the stored copies (time to first token): the
   * opened provider and the host-permission answer are cached until the settings or the grants
   * change; chats are cached write-through, since every write goes through this service.
   */
  let provider: Promise<OpenedProvider | undefined> | undefined;
  const permitted = new Map<string, Promise<boolean>>();
  deps.onSettingsChange(() => {
    provider = undefined;
    permitted.clear();
  });
  const openedProvider = () => {
    const opening = (provider ??= deps.providers.opened());
    opening.catch(() => provider === opening && (provider = undefined));
    return opening;
  };
  const hasPermission = (url: string) => {
    let answer = permitted.get(url);
    if (!answer) permitted.set(url, (answer = deps.hasHostPermission(url)));
    answer.catch(() => permitted.delete(url));
    return answer;
  };
  const chats = new Map<string, ChatView>();
  const remember = (chat: ChatView) => {
    chats.delete(chat.id);
    chats.set(chat.id, chat);
    for (const old of chats.keys()) if (chats.size > CACHED_CHATS && !runs.has(old)) chats.delete(old);
  };
  const put = (chat: ChatView) => {
    remember(chat);
    return deps.store.put(chat);
  };

  const recovered = (async () => {
    for (const chat of await deps.store.running()) await put(markInterrupted(chat, deps.newId, deps.now()));
  })().catch((e: unknown) => console.error('[chat] could not close the interrupted chats', e));

  async function chatOf(chatId: string): Promise<ChatView> {
    await recovered;
    const cachedChat = chats.get(chatId);
    if (cachedChat) return structuredClone(cachedChat);
    const chat = await deps.store.get(chatId);
    if (!chat) throw new RemoteError({ code: 'not-found', message: 'This chat no longer exists.' });
    remember(structuredClone(chat));
    return chat;
  }

  function newChat(): ChatView {
    const now = deps.now();
    return { id: deps.newId(), title: '', createdAt: now, updatedAt: now, disabledTools: [], status: 'idle', entries: [] };
  }

  const handlers: ChatHandlers = {
    'panel:chat-provider': async () => {
      const [provider, builtin] = await Promise.all([deps.providers.view(), builtinAvailable(deps.languageModel())]);
      return { ...(provider ? { provider } : {}), builtinAvailable: builtin };
    },
    'panel:chat-save-provider': async (p) => {
      if (p.kind === 'builtin') {
        if (!(await builtinAvailable(deps.languageModel())))
          throw new RemoteError({ code: 'bad-request', message: 'Chrome’s built-in model is not available in this browser.' });
        const saved = await deps.providers.save({ kind: 'builtin', baseUrl: '', model: '', maxSteps: p.maxSteps });
        provider = undefined;
        return saved;
      }
      if (!p.model.trim()) throw new RemoteError({ code: 'bad-request', message: 'Enter the name of the model.' });
      const checked = checkServerUrl(p.baseUrl);
      if (!checked.ok) throw new RemoteError({ code: 'invalid-url', message: checked.message });
      const saved = await deps.providers.save({ ...p, baseUrl: checked.url });
      provider = undefined;
      permitted.clear();
      return saved;
    },
    'panel:chat-list': async () => {
      await recovered;
      return { chats: await deps.store.list() };
    },
    'panel:chat-open': async (p) => {
      await recovered;
      const id = p.chatId ?? (await deps.store.list())[0]?.id;
      const chat = id ? await chatOf(id).catch(() => undefined) : undefined;
      return chat ? { chat } : {};
    },
    'panel:chat-new': async () => {
      await recovered;
      const chat = newChat();
      await put(chat);
      return chat;
    },
    'panel:chat-send': async (p) => {
      const chat = await chatOf(p.chatId);
      if (runs.has(chat.id)) throw new RemoteError({ code: 'bad-request', message: 'This chat is still answering; stop it first.' });
      if (chat.entries.length >= MAX_ENTRIES)
        throw new RemoteError({ code: 'bad-request', message: 'This chat is full. Start a new chat to go on.' });
      const provider = await openedProvider().catch(() => {
        throw new RemoteError({
          code: 'config-invalid',
          message: 'The stored API key cannot be opened. Enter it again in the chat settings.',
        });
      });
      if (!provider)
        throw new RemoteError({ code: 'config-invalid', message: 'No model provider is set up. Add one in the chat settings.' });
      const builtin = provider.kind === 'builtin';
      if (!builtin && !(await hasPermission(provider.baseUrl)))
        throw new RemoteError({
          code: 'permission',
          message: `Chrome has not granted access to ${new URL(provider.baseUrl).origin}. Save the provider settings again to grant it.`,
        });
      chat.disabledTools = p.disabledTools;
      if (!chat.title) chat.title = (p.text.trim().split('\n')[0] ?? '').slice(0, TITLE_LENGTH) || p.blocks[0]?.provenance.serverName || '';
      chat.entries.push({
        kind: 'user',
        id: deps.newId(),
        text: p.text,
        blocks: p.blocks.map((b) => ({
          label:
            b.kind === 'prompt'
              ? `/${b.provenance.prompt ?? ''} · ${b.provenance.serverName}`
              : `@${b.provenance.uri ?? ''} · ${b.provenance.serverName}`,
          text: b.text,
        })),
      });
      chat.provider = { kind: provider.kind, model: provider.model, host: builtin ? '' : new URL(provider.baseUrl).host };
      chat.status = 'running';
      chat.updatedAt = deps.now();
      // Not awaited: the run's first push shows the message, its saves queue behind this one.
      put(chat).catch((e: unknown) => console.error('[chat] could not save the chat', e));

      const controller = new AbortController();
      runs.set(chat.id, { controller, chat });
      deps.activityChanged();
      const pushText = textPusher();
      const disabled = new Set(chat.disabledTools);
      void runChat(
        chat,
        {
          stream: (request, hooks, signal) =>
            provider.kind === 'builtin'
              ? streamBuiltin(deps.languageModel(), request, hooks, signal)
              : streamTurn(deps.fetch, { ...provider, kind: provider.kind }, request, hooks, signal),
          withoutTools: builtin,
          tools: () => deps.registry.list().filter((t) => !disabled.has(`${t.serverId}:${t.toolName}`)),
          call: (name, args, options) => deps.registry.call(name, args, options),
          save: put,
          changed: pushChat,
          viewResult: (c, entryId, result) => deps.push({ type: 'panel:chat-tool-result', chatId: c.id, entryId, result }),
          text: (c, entryId, text) => pushText(() => deps.push({ type: 'panel:chat-text', chatId: c.id, entryId, text })),
          newId: deps.newId,
          now: deps.now,
          maxSteps: provider.maxSteps,
        },
        controller.signal,
      )
        .catch((e: unknown) => console.error('[chat] the run failed', e))
        .finally(() => {
          runs.delete(chat.id);
          deps.activityChanged();
        });
      return { started: true };
    },
    'panel:chat-stop': async (p) => {
      const run = runs.get(p.chatId);
      run?.controller.abort();
      return { stopped: run !== undefined };
    },
    'panel:chat-rename': async (p) => {
      // A running chat is renamed in the run's own copy, which its next save writes.
      const chat = runs.get(p.chatId)?.chat ?? (await chatOf(p.chatId));
      chat.title = p.title.trim().slice(0, 200);
      await put(chat);
      pushChat(chat);
      return { renamed: true };
    },
    'panel:chat-delete': async (p) => {
      await recovered;
      runs.get(p.chatId)?.controller.abort();
      chats.delete(p.chatId);
      const deleted = await deps.store.delete(p.chatId);
      if (deleted) deps.push({ type: 'panel:chat-deleted', chatId: p.chatId });
      return { deleted };
    },
  };

  return {
    handlers,
    /** Whether a run is in progress (the worker must stay alive). */
    active: () => runs.size > 0,
  };
}
