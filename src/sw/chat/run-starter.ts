/**
 * The chat's runs in progress: one AbortController each (for Stop), started with the provider the
 * settings name and the pushes that keep every open panel current. A run keeps the worker alive
 * while it is active (`activityChanged`), and its chat stays the run's own copy until it ends.
 */
import type { ChatPanelPush, ChatView } from '../../protocol/panel-chat.js';
import type { PanelParams } from '../../protocol/panel.js';
import type { OpenedProvider } from '../../storage/provider-settings.js';
import type { AgentToolRegistry } from '../use/tool-registry.js';
import { createChatProvider, type ProviderReach } from './providers/chat-provider.js';
import { runChat, type RunDeps } from './run-loop.js';
import { textThrottle, type Clock } from './text-throttle.js';
import { toolLimitOf } from './tool-budget.js';
import { createToolOffer } from './tool-offer.js';
import { applySelection } from './tool-selection.js';

const TITLE_LENGTH = 60;

type SendParams = PanelParams<'panel:chat-send'>;

export interface RunStarterDeps {
  registry: Pick<AgentToolRegistry, 'list' | 'call'>;
  reach: ProviderReach;
  save(chat: ChatView): Promise<void>;
  push(message: ChatPanelPush): void;
  /** A run started or ended (keep-alive). */
  activityChanged(): void;
  newId: () => string;
  now: () => number;
  /** Paces the answer's text pushes. */
  clock: Clock;
}

/** Why a call to a tool this run did not offer is refused (the model reads it). */
const notOffered = (name: string) => `The tool "${name}" is not offered in this chat; call only the tools you were given.`;

/** The whole chat as the panels get it when its shape changes. */
export const chatPush = (chat: ChatView): ChatPanelPush => ({ type: 'panel:chat', chat: structuredClone(chat) });

/** The user's message joins the chat, which is marked running with the provider that will answer. */
export function addUserMessage(chat: ChatView, p: SendParams, provider: OpenedProvider, ids: Pick<RunStarterDeps, 'newId' | 'now'>): void {
  applySelection(chat, p);
  if (!chat.title) chat.title = (p.text.trim().split('\n')[0] ?? '').slice(0, TITLE_LENGTH) || p.blocks[0]?.provenance.serverName || '';
  chat.entries.push({
    kind: 'user',
    id: ids.newId(),
    text: p.text,
    blocks: p.blocks.map((b) => ({
      label:
        b.kind === 'prompt'
          ? `/${b.provenance.prompt ?? ''} · ${b.provenance.serverName}`
          : `@${b.provenance.uri ?? ''} · ${b.provenance.serverName}`,
      text: b.text,
    })),
  });
  const builtin = provider.kind === 'builtin';
  chat.provider = { kind: provider.kind, model: provider.model, host: builtin ? '' : new URL(provider.baseUrl).host };
  chat.status = 'running';
  chat.updatedAt = ids.now();
}

/** What one run is given: the provider, this chat's tools, and pushes to the panels. */
function runDepsFor(chat: ChatView, settings: OpenedProvider, deps: RunStarterDeps): RunDeps {
  const provider = createChatProvider(settings, deps.reach);
  const pushText = textThrottle(deps.clock);
  // T2: the chat's selection, within the provider's tool limit, or tool search over it.
  const offer = createToolOffer(chat, { list: () => deps.registry.list(), limit: toolLimitOf(settings), newId: deps.newId });
  return {
    stream: (request, hooks, signal) => provider.stream(request, hooks, signal),
    withoutTools: !provider.callsTools,
    tools: () => offer.tools(),
    localTools: offer,
    call: (name, args, options) =>
      offer.callable(name) ? deps.registry.call(name, args, options) : Promise.reject(new Error(notOffered(name))),
    save: (c) => deps.save(c),
    changed: (c) => deps.push(chatPush(c)),
    viewResult: (c, entryId, result) => deps.push({ type: 'panel:chat-tool-result', chatId: c.id, entryId, result }),
    text: (c, entryId, text) => pushText(() => deps.push({ type: 'panel:chat-text', chatId: c.id, entryId, text })),
    newId: deps.newId,
    now: deps.now,
    maxSteps: settings.maxSteps,
    systemPrompt: settings.systemPrompt,
  };
}

export class RunStarter {
  readonly #runs = new Map<string, { controller: AbortController; chat: ChatView }>();
  readonly #deps: RunStarterDeps;

  constructor(deps: RunStarterDeps) {
    this.#deps = deps;
  }

  /** Starts answering the chat (not awaited: the run reports through its pushes and saves). */
  start(chat: ChatView, settings: OpenedProvider): void {
    const controller = new AbortController();
    this.#runs.set(chat.id, { controller, chat });
    this.#deps.activityChanged();
    void runChat(chat, runDepsFor(chat, settings, this.#deps), controller.signal)
      .catch((e: unknown) => console.error('[chat] the run failed', e))
      .finally(() => {
        this.#runs.delete(chat.id);
        this.#deps.activityChanged();
      });
  }

  /** Stop: whether a run was there to stop. */
  stop(chatId: string): boolean {
    const run = this.#runs.get(chatId);
    run?.controller.abort();
    return run !== undefined;
  }

  has(chatId: string): boolean {
    return this.#runs.has(chatId);
  }

  /** The running chat's own copy, which its next save writes. */
  chat(chatId: string): ChatView | undefined {
    return this.#runs.get(chatId)?.chat;
  }

  /** Whether a run is in progress (the worker must stay alive). */
  get active(): boolean {
    return this.#runs.size > 0;
  }
}
