/**
 * A provider request never hangs (T1): one timer per request, armed for the first byte of the
 * answer when the request goes out (before the headers or after them: a server that sends its
 * headers and then nothing is as stalled as one that sends nothing), re-armed for the idle limit
 * after every chunk, paused while a retry waits. When it fires it aborts the request, and the
 * error names the provider's host and what it did not do.
 *
 * Defaults: 120 s for the first byte — a local server may first load the model from disk, and a
 * reasoning model may think a minute before its first token; 60 s between chunks — a live
 * stream sends something every few seconds (Anthropic pings), so a minute of silence mid-answer
 * is a dead connection. Both are set per provider in the chat settings.
 */
import { say, type Said } from '../../../protocol/wording.js';
import { ProviderError } from './types.js';

export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 120_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface StallLimits {
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

const seconds = (ms: number) => String(Math.max(1, Math.round(ms / 1000)));

export class StallGuard {
  readonly #controller = new AbortController();
  readonly #host: string;
  readonly #firstByteMs: number;
  readonly #idleMs: number;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#abort();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #error: ProviderError | undefined;

  constructor(host: string, limits: StallLimits, outer?: AbortSignal) {
    this.#host = host;
    this.#firstByteMs = limits.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
    this.#idleMs = limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.#outer = outer;
    if (outer?.aborted) this.#abort();
    else outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
  }

  /** Aborted by Stop or by a stall; what the request and the stream reader are given. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The stall that ended the request, if one did. */
  get error(): ProviderError | undefined {
    return this.#error;
  }

  /** A request goes out: its answer must begin within the first-byte limit. */
  awaitFirstByte(): void {
    this.#arm(this.#firstByteMs, say('reasonChatNoFirstByte', { host: this.#host, seconds: seconds(this.#firstByteMs) }));
  }

  /** A chunk arrived: the next must follow within the idle limit. */
  chunk(): void {
    this.#arm(this.#idleMs, say('reasonChatStreamIdle', { host: this.#host, seconds: seconds(this.#idleMs) }));
  }

  /** A retry waits: no limit runs while we are the ones waiting. */
  pause(): void {
    clearTimeout(this.#timer);
  }

  done(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  /** `error` if the guard fired, else `e` as it was. */
  explain(e: unknown): unknown {
    return this.#error ?? e;
  }

  #arm(ms: number, said: Said) {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#error = new ProviderError('timeout', said);
      this.#abort();
    }, ms);
  }

  #abort() {
    clearTimeout(this.#timer);
    this.#controller.abort();
  }
}

/** `body` as it is read, each chunk reported to `onChunk` (the guard's idle timer). */
export function watchedBody(body: ReadableStream<Uint8Array>, onChunk: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      onChunk();
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
