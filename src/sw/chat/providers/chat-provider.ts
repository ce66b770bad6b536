/**
 * The one face every model provider shows the chat: a streamed turn, and whether it can call
 * tools. One factory picks the adapter from the saved settings' kind: an HTTP API (OpenAI-
 * compatible or Anthropic, each a {@link WireFormat}) or Chrome's built-in model (Prompt API).
 */
import type { PROVIDER_KINDS } from '../../../protocol/panel-chat.js';
import { anthropicWire } from './anthropic.js';
import { streamBuiltin, type LanguageModelLike } from './builtin.js';
import { streamOverHttp } from './http.js';
import { openAiWire } from './openai.js';
import type { FetchLike, StreamHooks, TurnRequest, TurnResult } from './types.js';

export interface ChatProvider {
  /** False for a model that cannot call tools (Chrome's built-in one): the run sends none and says so. */
  readonly callsTools: boolean;
  stream(request: TurnRequest, hooks: StreamHooks, signal?: AbortSignal): Promise<TurnResult>;
}

/** The settings a provider is made from; the API key is plaintext here, in memory only for the run. */
export interface ProviderSettings {
  kind: (typeof PROVIDER_KINDS)[number];
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The stall limits (T1); the defaults when absent. */
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** What the adapters reach the outside world through. */
export interface ProviderReach {
  fetch: FetchLike;
  /** Chrome's built-in model, looked up at each turn (it may be downloaded meanwhile). */
  languageModel(): LanguageModelLike | undefined;
}

export function createChatProvider(settings: ProviderSettings, reach: ProviderReach): ChatProvider {
  const { kind } = settings;
  if (kind === 'builtin')
    return { callsTools: false, stream: (request, hooks, signal) => streamBuiltin(reach.languageModel(), request, hooks, signal) };
  const wire = kind === 'anthropic' ? anthropicWire : openAiWire;
  const target = { ...settings, kind };
  return { callsTools: true, stream: (request, hooks, signal) => streamOverHttp(reach.fetch, target, wire, { request, hooks, signal }) };
}
