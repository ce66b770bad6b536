/**
 * The chat engine in the worker (docs/architecture.md "Chat"): the panel's chat requests over a
 * chat cache (chat-cache.ts), the provider and grants a send needs (provider-access.ts) and the
 * runs in progress (run-starter.ts). A run lives here, next to the AgentTool registry and the
 * approval broker it uses, and keeps the worker alive while it is active (`active()`); its chat
 * is persisted after every step, so a reopened panel re-attaches by opening the chat, and a chat
 * a stopped worker was running is closed at the next start with an "interrupted" notice.
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import type { ChatPanelPush, ChatPanelRequestSchemas, ChatView } from '../../protocol/panel-chat.js';
import { stepInFlight } from '../../protocol/panel-chat.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import type { ChatStore } from '../../storage/chat-store.js';
import type { OpenedProvider, ProviderSettingsStore } from '../../storage/provider-settings.js';
import { checkServerUrl } from '../../common/url-rules.js';
import type { AgentToolRegistry } from '../use/tool-registry.js';
import { builtinAvailable, type LanguageModelLike } from './providers/builtin.js';
import type { FetchLike } from './providers/types.js';
import { ChatCache } from './chat-cache.js';
import { ProviderAccess } from './provider-access.js';
import { modelsForPanel } from './model-list.js';
import { addUserMessage, chatPush, RunStarter } from './run-starter.js';
import { markAnswering, rewindForEdit, rewindForRegenerate } from './chat-rewind.js';
import { systemClock, type Clock } from './text-throttle.js';
import { toolHandlers } from './tool-handlers.js';
import { checkedChatPrompt } from './chat-prompt.js';

const MAX_ENTRIES = 800;

export interface ChatServiceDeps {
  store: ChatStore;
  providers: ProviderSettingsStore;
  registry: Pick<AgentToolRegistry, 'list' | 'peek' | 'call'>;
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
  /** Paces the answer's text pushes; the system clock unless a test gives one. */
  clock?: Clock;
}

type ChatHandlers = { [M in keyof typeof ChatPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

/** What the handlers share: the deps, the chat cache, the provider access and the runs. */
interface Service {
  deps: ChatServiceDeps;
  chats: ChatCache;
  access: ProviderAccess;
  runs: RunStarter;
  /** Settles once the chats a previous worker left running are closed. */
  recovered: Promise<void>;
}

/** Closes a chat whose run died with a previous worker: nothing is silently lost. */
function markInterrupted(chat: ChatView, newId: () => string, now: number): ChatView {
  delete chat.phase;
  for (const e of chat.entries) {
    if (e.kind === 'assistant') delete e.streaming;
    if (e.kind === 'tool' && stepInFlight(e.status)) {
      e.status = 'cancelled';
      ({ message: e.result, wording: e.resultWording } = say('reasonChatToolInterrupted'));
    }
  }
  chat.entries.push({ kind: 'notice', id: newId(), notice: 'interrupted' });
  delete chat.phase;
  chat.status = 'idle';
  chat.updatedAt = now;
  return chat;
}

/** The provider a send may use now, or the refusal that says what to do first. */
async function providerForSend(s: Service, chat: ChatView): Promise<OpenedProvider> {
  if (s.runs.has(chat.id)) throw new RemoteError({ code: 'bad-request', ...say('reasonChatBusy') });
  if (chat.entries.length >= MAX_ENTRIES) throw new RemoteError({ code: 'bad-request', ...say('reasonChatFull') });
  const provider = await s.access.opened().catch(() => {
    throw new RemoteError({ code: 'config-invalid', ...say('reasonChatKeyUnreadable') });
  });
  if (!provider) throw new RemoteError({ code: 'config-invalid', ...say('reasonChatNoProvider') });
  if (provider.kind !== 'builtin' && !(await s.access.permitted(provider.baseUrl)))
    throw new RemoteError({ code: 'permission', ...say('reasonChatNoHostAccess', { origin: new URL(provider.baseUrl).origin }) });
  return provider;
}

function providerHandlers({
  deps,
  access,
}: Service): Pick<ChatHandlers, 'panel:chat-provider' | 'panel:chat-save-provider' | 'panel:chat-models'> {
  return {
    'panel:chat-models': () => modelsForPanel(access, deps.fetch),
    'panel:chat-provider': async () => {
      const [provider, builtin] = await Promise.all([deps.providers.view(), builtinAvailable(deps.languageModel())]);
      return { ...(provider ? { provider } : {}), builtinAvailable: builtin };
    },
    'panel:chat-save-provider': async (p) => {
      if (p.kind === 'builtin') {
        if (!(await builtinAvailable(deps.languageModel())))
          throw new RemoteError({ code: 'bad-request', ...say('reasonChatBuiltinNotOffered') });
        const saved = await deps.providers.save({
          kind: 'builtin',
          baseUrl: '',
          model: '',
          maxSteps: p.maxSteps,
          systemPrompt: p.systemPrompt,
        });
        access.forgetProvider();
        return saved;
      }
      if (!p.model.trim()) throw new RemoteError({ code: 'bad-request', ...say('reasonChatModelMissing') });
      const checked = checkServerUrl(p.baseUrl);
      if (!checked.ok)
        throw new RemoteError({ code: 'invalid-url', message: checked.message, ...(checked.wording ? { wording: checked.wording } : {}) });
      const saved = await deps.providers.save({ ...p, baseUrl: checked.url });
      access.forget();
      return saved;
    },
  };
}

/** A copy of the chat, once the interrupted chats are closed. */
async function chatOf(s: Service, chatId: string): Promise<ChatView> {
  await s.recovered;
  return s.chats.get(chatId);
}

type HistoryMethods = 'panel:chat-list' | 'panel:chat-open' | 'panel:chat-new' | 'panel:chat-delete';

/** The chats as a list: open, start, delete. */
function historyHandlers(s: Service): Pick<ChatHandlers, HistoryMethods> {
  const { deps, chats, runs, recovered } = s;
  return {
    'panel:chat-list': async (p) => {
      await recovered;
      return { chats: await deps.store.list(p.query) };
    },
    'panel:chat-open': async (p) => {
      await recovered;
      const id = p.chatId ?? (await deps.store.list())[0]?.id;
      const chat = id ? await chatOf(s, id).catch(() => undefined) : undefined;
      return chat ? { chat } : {};
    },
    'panel:chat-new': async () => {
      await recovered;
      const now = deps.now();
      const chat: ChatView = {
        id: deps.newId(),
        title: '',
        createdAt: now,
        updatedAt: now,
        disabledTools: [],
        status: 'idle',
        entries: [],
      };
      await chats.put(chat);
      return chat;
    },
    'panel:chat-delete': async (p) => {
      await recovered;
      runs.stop(p.chatId);
      chats.forget(p.chatId);
      const deleted = await deps.store.delete(p.chatId);
      if (deleted) deps.push({ type: 'panel:chat-deleted', chatId: p.chatId });
      return { deleted };
    },
  };
}

type RunMethods = 'panel:chat-send' | 'panel:chat-stop' | 'panel:chat-rename' | 'panel:chat-system-prompt';

/** One chat: send a message (starts a run), stop the run, rename the chat, set its own system prompt. */
function runHandlers(s: Service): Pick<ChatHandlers, RunMethods> {
  const { deps, chats, runs } = s;
  return {
    'panel:chat-send': async (p) => {
      const chat = await chatOf(s, p.chatId);
      const provider = await providerForSend(s, chat);
      addUserMessage(chat, p, provider, deps);
      // Not awaited: the run's first push shows the message, its saves queue behind this one.
      chats.put(chat).catch((e: unknown) => console.error('[chat] could not save the chat', e));
      runs.start(chat, provider);
      return { started: true };
    },
    'panel:chat-stop': async (p) => ({ stopped: runs.stop(p.chatId) }),
    'panel:chat-rename': async (p) => {
      // A running chat is renamed in the run's own copy, which its next save writes.
      const chat = runs.chat(p.chatId) ?? (await chatOf(s, p.chatId));
      chat.title = p.title.trim().slice(0, 200);
      await chats.put(chat);
      deps.push(chatPush(chat));
      return { renamed: true };
    },
    'panel:chat-system-prompt': async (p) => {
      // Checked before the chat is touched: a refused prompt changes nothing (T5).
      const prompt = checkedChatPrompt(p.systemPrompt);
      // A running chat takes it in the run's own copy: its next request uses it.
      const chat = runs.chat(p.chatId) ?? (await chatOf(s, p.chatId));
      if (prompt) chat.systemPrompt = prompt;
      else delete chat.systemPrompt;
      await chats.put(chat);
      deps.push(chatPush(chat));
      return { saved: true };
    },
  };
}

/** Regenerate and edit-and-resend (T5): the chat is cut back (chat-rewind.ts) and answered again. */
function rewindHandlers(s: Service): Pick<ChatHandlers, 'panel:chat-regenerate' | 'panel:chat-edit'> {
  const again = async (chatId: string, rewind: (chat: ChatView) => void) => {
    const chat = await chatOf(s, chatId);
    const provider = await providerForSend(s, chat);
    rewind(chat);
    markAnswering(chat, provider, s.deps.now());
    await s.chats.put(chat);
    s.runs.start(chat, provider);
    return { started: true };
  };
  return {
    'panel:chat-regenerate': (p) => again(p.chatId, rewindForRegenerate),
    'panel:chat-edit': (p) => again(p.chatId, (chat) => rewindForEdit(chat, p.entryId, p.text)),
  };
}

export function startChatService(deps: ChatServiceDeps) {
  const access = new ProviderAccess(deps.providers, (url) => deps.hasHostPermission(url));
  deps.onSettingsChange(() => access.forget());
  // The cache keeps a running chat; a run saves through the cache.
  const chats: ChatCache = new ChatCache(deps.store, (chatId) => runs.has(chatId));
  const runs = new RunStarter({
    registry: deps.registry,
    reach: { fetch: deps.fetch, languageModel: () => deps.languageModel() },
    save: (chat) => chats.put(chat),
    push: (message) => deps.push(message),
    activityChanged: () => deps.activityChanged(),
    newId: deps.newId,
    now: deps.now,
    clock: deps.clock ?? systemClock,
  });
  const recovered = (async () => {
    for (const chat of await deps.store.running()) await chats.put(markInterrupted(chat, deps.newId, deps.now()));
  })().catch((e: unknown) => console.error('[chat] could not close the interrupted chats', e));
  const service: Service = { deps, chats, access, runs, recovered };
  return {
    handlers: {
      ...providerHandlers(service),
      ...historyHandlers(service),
      ...runHandlers(service),
      ...toolHandlers({
        registry: deps.registry,
        provider: () => deps.providers.view(),
        chat: async (id) => runs.chat(id) ?? (await chatOf(service, id).catch(() => undefined)),
        save: (chat) => chats.put(chat),
      }),
      ...rewindHandlers(service),
    } satisfies ChatHandlers,
    /** Whether a run is in progress (the worker must stay alive). */
    active: () => runs.active,
  };
}
