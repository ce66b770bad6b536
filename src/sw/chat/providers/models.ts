/**
 * The provider's model list for the model picker (T5): OpenAI-compatible `GET {base}/models`
 * (`{data: [{id}]}`), Anthropic `GET {base}/v1/models?limit=1000` with its version header
 * (`{data: [{id, display_name}], has_more}`). Like every provider request it refuses redirects
 * and sends no cookies; the answer is read to at most {@link MAX_MODELS_BYTES}, and only names
 * that look like model ids are kept, sorted, at most MAX_MODELS of them.
 */
import { MAX_MODELS } from '../../../protocol/panel-chat.js';
import { say } from '../../../protocol/wording.js';
import { errorFor } from './http.js';
import { readBodyCapped } from '../../auth/bounded-fetch.js';
import { ResponseTooLargeError } from '../../auth/errors.js';
import { anthropicWire } from './anthropic.js';
import { openAiWire } from './openai.js';
import { noteOf, ProviderError, type FetchLike, type ProviderTarget } from './types.js';

export const MAX_MODELS_BYTES = 1024 * 1024;
const MODEL_ID = /^[\x21-\x7e]{1,256}$/;

export function modelsUrl(target: Pick<ProviderTarget, 'kind' | 'baseUrl'>): string {
  const base = target.baseUrl.replace(/\/+$/, '');
  if (target.kind === 'openai') return `${base}/models`;
  return `${base.endsWith('/v1') ? base : `${base}/v1`}/models?limit=1000`;
}

/** The body as text, refused past `limit` bytes without reading further (the auth layer's bounded reader). */
async function boundedText(response: Response, url: string, limit: number): Promise<string> {
  try {
    return new TextDecoder().decode(await readBodyCapped(response, url, 'model list', limit));
  } catch (e) {
    if (e instanceof ResponseTooLargeError) throw new ProviderError('bad-response', say('reasonChatModelsTooLarge', { limit: '1 MiB' }));
    throw e;
  }
}

/** The model ids of a list answer: `data[].id` strings that look like ids, sorted, deduplicated, bounded. */
export function modelIdsOf(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError('bad-response', say('reasonChatModelsUnreadable'));
  }
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new ProviderError('bad-response', say('reasonChatModelsUnreadable'));
  const ids = new Set<string>();
  for (const item of data) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && MODEL_ID.test(id)) ids.add(id);
    if (ids.size >= MAX_MODELS) break;
  }
  return [...ids].sort();
}

export async function listModels(fetch: FetchLike, target: ProviderTarget): Promise<string[]> {
  const url = modelsUrl(target);
  const wire = target.kind === 'anthropic' ? anthropicWire : openAiWire;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...wire.headers(target.apiKey) },
      // Like the chat request: a redirect would carry the key to another origin (SECURITY.md).
      redirect: 'error',
      credentials: 'omit',
      signal: AbortSignal.timeout(target.firstByteTimeoutMs ?? 30_000),
    });
  } catch (e) {
    throw new ProviderError('network', say('reasonChatProviderUnreachable', { host: new URL(url).host, note: noteOf(e) }));
  }
  if (!response.ok) throw await errorFor(response, target.apiKey);
  return modelIdsOf(await boundedText(response, url, MAX_MODELS_BYTES));
}
