/** Picks the wire adapter for a provider kind. */
import { streamAnthropic } from './anthropic.js';
import { streamOpenAi } from './openai.js';
import type { FetchLike, ProviderTarget, StreamHooks, TurnRequest, TurnResult } from './types.js';

export function streamTurn(
  fetch: FetchLike,
  target: ProviderTarget,
  request: TurnRequest,
  hooks: StreamHooks,
  signal?: AbortSignal,
): Promise<TurnResult> {
  return target.kind === 'anthropic'
    ? streamAnthropic(fetch, target, request, hooks, signal)
    : streamOpenAi(fetch, target, request, hooks, signal);
}
