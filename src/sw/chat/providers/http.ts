/**
 * One streamed provider request: POST, map a refusal to plain words, retry only what is safe.
 * A 429 or a 5xx comes before any byte of the answer, so retrying it cannot repeat anything the
 * user saw; it is retried at most {@link MAX_RETRIES} times, waiting what `Retry-After` asks
 * (up to {@link MAX_RETRY_WAIT_MS}; a longer wait is reported instead). Once the body streams,
 * nothing is retried. Every request refuses redirects and is guarded against stalls
 * (stall-guard.ts). The API key never appears in a message: the provider's own words are
 * quoted only with the key cut out.
 */
import { say } from '../../../protocol/wording.js';
import {
  cancelledError,
  noteOf,
  ProviderError,
  type FetchLike,
  type ProviderTarget,
  type StreamHooks,
  type TurnRequest,
  type TurnResult,
} from './types.js';
import { StallGuard, watchedBody } from './stall-guard.js';

const MAX_RETRIES = 2;
/** The longest `Retry-After` we wait through (the wait is shown with its countdown and Stop ends it, T1). */
export const MAX_RETRY_WAIT_MS = 30_000;
const DEFAULT_RETRY_MS = 1_000;
const MAX_DETAIL = 300;

export interface PostOptions {
  fetch: FetchLike;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Cut from any provider text quoted in an error. */
  secret?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** The request goes out (again): the first-byte limit runs. */
  onAttempt?(): void;
  /** A retry waits `until` (epoch ms), after the refusal with this status; Stop ends the wait. */
  onRetry?(wait: { until: number; attempt: number; status: number | undefined }): void;
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(cancelledError());
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The provider's own explanation, if its error body has one, without the key. */
async function detailOf(response: Response, secret?: string): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof m === 'string') message = m;
  } catch {
    // Not JSON: the text itself.
  }
  if (secret) message = message.split(secret).join('[key]');
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}…` : message;
}

export async function errorFor(response: Response, secret?: string, now = Date.now()): Promise<ProviderError> {
  const status = response.status;
  const detail = (await detailOf(response, secret)) || undefined;
  if (status === 401 || status === 403)
    return new ProviderError('invalid-key', say('reasonChatKeyRefused', { status }), status, undefined, detail);
  if (status === 429) {
    const wait = retryAfterMs(response.headers.get('retry-after'), now);
    const said = wait !== undefined ? say('reasonChatRateLimitWait', { seconds: seconds(wait) }) : say('reasonChatRateLimit');
    return new ProviderError('rate-limit', said, status, wait, detail);
  }
  if (status === 404) return new ProviderError('model-not-found', say('reasonChatModelNotFound'), status, undefined, detail);
  if (status >= 500) return new ProviderError('provider-server', say('reasonChatProviderServer', { status }), status, undefined, detail);
  return new ProviderError('bad-response', say('reasonChatProviderRefused', { status }), status, undefined, detail);
}

/** One POST; a failure to reach the provider (a refused redirect among them) in plain words. */
async function post(options: PostOptions): Promise<Response> {
  try {
    return await options.fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
      body: JSON.stringify(options.body),
      // N: a 307/308 would re-send the conversation and the key (custom headers are not stripped) to another origin.
      redirect: 'error',
      credentials: 'omit',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    if (options.signal?.aborted) throw cancelledError();
    throw new ProviderError('network', say('reasonChatProviderUnreachable', { host: new URL(options.url).host, note: noteOf(e) }));
  }
}

/** POSTs and returns the response whose body is about to stream. */
export async function postForStream(options: PostOptions): Promise<Response> {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw cancelledError();
    options.onAttempt?.();
    const response = await post(options);
    if (response.ok) {
      if (!response.body) throw new ProviderError('bad-response', say('reasonChatNoBody'));
      return response;
    }
    const error = await errorFor(response, options.secret, now());
    const retriable = error.kind === 'rate-limit' || error.kind === 'provider-server';
    const wait = error.retryAfterMs ?? DEFAULT_RETRY_MS * 2 ** attempt;
    if (!retriable || attempt >= MAX_RETRIES || wait > MAX_RETRY_WAIT_MS) throw error;
    options.onRetry?.({ until: now() + wait, attempt: attempt + 1, status: error.status });
    await sleep(wait, options.signal);
  }
}

/** What one HTTP provider's API looks like on the wire: where to post, how to sign, what to send, how to read. */
export interface WireFormat {
  url(baseUrl: string): string;
  /** The key's header(s); none without a key (a loopback server may need none). */
  headers(apiKey: string | undefined): Record<string, string>;
  body(target: ProviderTarget, request: TurnRequest): unknown;
  /**
   * After a refusal: a leaner body to try once (an optional field the server may not know), and
   * what to remember when that one is accepted; undefined when there is nothing to try.
   */
  retryBody?(target: ProviderTarget, request: TurnRequest, error: ProviderError): { body: unknown; accepted(): void } | undefined;
  parse(body: ReadableStream<Uint8Array>, hooks: StreamHooks, signal?: AbortSignal): Promise<TurnResult>;
}

type Turn = { request: TurnRequest; hooks: StreamHooks; signal?: AbortSignal | undefined };

/** The POST, guarded against stalls, the wait for a retry shown as the turn's phase. */
function postGuarded(fetch: FetchLike, target: ProviderTarget, wire: WireFormat, turn: Turn, guard: StallGuard, body: unknown) {
  return postForStream({
    fetch,
    url: wire.url(target.baseUrl),
    headers: wire.headers(target.apiKey),
    body,
    signal: guard.signal,
    ...(target.apiKey ? { secret: target.apiKey } : {}),
    onAttempt: () => {
      guard.awaitFirstByte();
      turn.hooks.onPhase?.({ kind: 'waiting-model' });
    },
    onRetry: (wait) => {
      guard.pause();
      turn.hooks.onPhase?.({ kind: 'retrying', ...wait });
    },
  });
}

/** The POST, and once more with the wire's leaner body if the server refused an optional field. */
async function postTurn(fetch: FetchLike, target: ProviderTarget, wire: WireFormat, turn: Turn, guard: StallGuard): Promise<Response> {
  try {
    return await postGuarded(fetch, target, wire, turn, guard, wire.body(target, turn.request));
  } catch (e) {
    const lean = e instanceof ProviderError ? wire.retryBody?.(target, turn.request, e) : undefined;
    if (!lean) throw e;
    const response = await postGuarded(fetch, target, wire, turn, guard, lean.body);
    lean.accepted();
    return response;
  }
}

/** One turn over HTTP: the request in the wire's shape, the streamed answer read by the wire's parser, never hanging (T1). */
export async function streamOverHttp(fetch: FetchLike, target: ProviderTarget, wire: WireFormat, turn: Turn): Promise<TurnResult> {
  const guard = new StallGuard(new URL(target.baseUrl).host, target, turn.signal);
  try {
    const response = await postTurn(fetch, target, wire, turn, guard);
    return await wire.parse(
      watchedBody(response.body!, () => guard.chunk()),
      turn.hooks,
      guard.signal,
    );
  } catch (e) {
    throw guard.explain(e);
  } finally {
    guard.done();
  }
}
