/**
 * `completion/complete` (SPEC R8), for either era's client: asked only of a server that declares
 * `completions`, and its answer bounded before it leaves the document (N8) — strings only, one
 * line each, cut to {@link MAX_COMPLETION_LENGTH}, no repeats, at most {@link MAX_COMPLETIONS}
 * (the protocol's own maximum).
 */
import { MAX_COMPLETION_LENGTH, MAX_COMPLETIONS } from '../protocol/completion.js';
import type { OffscreenParams } from '../protocol/offscreen.js';

type Params = OffscreenParams<'offscreen:complete'>;
export type CompletionAsk = Omit<Params, 'connectionId'>;

interface CompletingClient {
  getServerCapabilities(): { completions?: unknown } | undefined;
  complete(
    params: { ref: Params['ref']; argument: Params['argument']; context?: { arguments: Record<string, string> } },
    options: { timeout: number },
  ): Promise<{ completion: { values: unknown[]; hasMore?: boolean | undefined } }>;
}

export async function completeWith(client: CompletingClient, ask: CompletionAsk, timeoutMs: number) {
  if (!client.getServerCapabilities()?.completions) return { values: [] };
  const { completion } = await client.complete(
    { ref: ask.ref, argument: ask.argument, ...(ask.context ? { context: { arguments: ask.context } } : {}) },
    { timeout: timeoutMs },
  );
  return { values: boundedValues(completion.values), ...(completion.hasMore === true ? { hasMore: true } : {}) };
}

export function boundedValues(values: unknown[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    const line = v.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').slice(0, MAX_COMPLETION_LENGTH);
    if (line.trim()) out.add(line);
    if (out.size >= MAX_COMPLETIONS) break;
  }
  return [...out];
}
