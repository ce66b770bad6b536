/**
 * The one request/response peer of the extension's own channels: the panel's Port to the worker,
 * the worker's channel to the offscreen document, the import channel, and the host side of the
 * MCP Apps bridge. It owns what every channel needs the same way: request ids, the requests
 * waiting for an answer, per-request timeouts, cancellation, matching answers strictly by id
 * (SPEC N6: a malformed, unknown or second answer is dropped and counted, never handed to another
 * request), and what a dropped transport means (SPEC D3).
 *
 * The wire stays each channel's own: the caller builds each request's message from its id, and
 * `read` says what a received message is. The MCP SDK's `Protocol` is the model; this keeps only
 * what these channels need, and knows nothing of their envelopes.
 *
 * The one rule for a lost transport: every request waiting on it fails once, with the channel's
 * one `lost` error, and is never sent again — the other side may have acted on it before it went.
 * A request that could not be sent at all throws at once instead, so the caller may send it on a
 * fresh transport: nothing was sent.
 */

/** Where requests are posted: a runtime Port, a MessagePort, a frame (a fake one in tests). */
export interface PeerTransport {
  postMessage(message: unknown): void;
}

/** A received message as the channel's envelope reads it (see {@link PeerOptions.read}). */
export type ReadAnswer = { id: number; result: unknown } | 'malformed' | undefined;

export interface PeerOptions {
  /** Names the channel in the warnings about dropped answers. */
  label: string;
  /**
   * What `message` is: an answer (its id and what it carries), an answer that cannot be matched
   * (`'malformed'`), or no answer at all (`undefined`: a push or event the owner handles).
   */
  read: (message: unknown) => ReadAnswer;
  /** The error a request waiting on a transport that drops fails with. */
  lost: () => Error;
  /** The error a request fails with when its `timeoutMs` runs out. */
  timedOut?: () => Error;
}

export interface RequestOptions {
  /** Fails the request with {@link PeerOptions.timedOut} if no answer came by then. */
  timeoutMs?: number;
  /** Aborting fails the request with the signal's reason; a late answer is then dropped. */
  signal?: AbortSignal;
}

interface Waiting {
  transport: PeerTransport;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Clears the request's timer and abort listener. */
  release(): void;
}

export class RequestPeer<T extends PeerTransport = PeerTransport> {
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();
  #dropped = 0;

  constructor(private readonly options: PeerOptions) {}

  /**
   * Posts `message(id)` on `transport` under a fresh id; settles with the matching answer's
   * result. Throws at once, having sent nothing, if `signal` is already aborted or the transport
   * refuses the message.
   */
  request(transport: T, message: (id: number) => unknown, { timeoutMs, signal }: RequestOptions = {}): Promise<unknown> {
    signal?.throwIfAborted();
    const id = this.#nextId++;
    const wire = message(id);
    // Waiting before posting (the executor runs at once): a transport that delivers at once must
    // still find the request.
    const answer = new Promise<unknown>((resolve, reject) =>
      this.#waiting.set(id, { transport, resolve, reject, release: this.#bound(id, timeoutMs, signal) }),
    );
    try {
      transport.postMessage(wire);
    } catch (e) {
      this.#take(id);
      throw e;
    }
    return answer;
  }

  /** The timer and abort listener of request `id`; returns what removes them. */
  #bound(id: number, timeoutMs: number | undefined, signal: AbortSignal | undefined): () => void {
    const fail = (error: unknown) => this.#take(id)?.reject(error);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => fail(this.options.timedOut?.() ?? new Error('No answer came in time')), timeoutMs);
    const onAbort = () => fail(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    return () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
  }

  /** Removes request `id` from the waiting ones; whoever takes it settles it, so it settles once. */
  #take(id: number): Waiting | undefined {
    const waiting = this.#waiting.get(id);
    if (!waiting) return undefined;
    this.#waiting.delete(id);
    waiting.release();
    return waiting;
  }

  /** Takes `message` if it is an answer (true), settling its request; anything else is the owner's (false). */
  receive(message: unknown): boolean {
    const read = this.options.read(message);
    if (read === undefined) return false;
    if (read === 'malformed') return this.#drop('a malformed answer');
    const waiting = this.#take(read.id);
    if (!waiting) return this.#drop(`an answer to ${read.id}, which no request waits for`);
    waiting.resolve(read.result);
    return true;
  }

  #drop(what: string): true {
    this.#dropped++;
    console.warn(`[${this.options.label}] dropped ${what}`);
    return true;
  }

  /** `transport` dropped: every request waiting on it fails with `lost()` (the channel's by default). */
  closed(transport: T, lost: () => Error = this.options.lost) {
    for (const [id, waiting] of this.#waiting) if (waiting.transport === transport) this.#take(id)?.reject(lost());
  }

  /** Requests sent and not settled yet. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Answers dropped: malformed, for an id nobody waits for, or a second one. */
  get dropped(): number {
    return this.#dropped;
  }
}
