/**
 * Time limits of a session's tool calls, paused while the server waits for the user (SPEC H1,
 * I1). A server that asks a form question during a call cannot answer before the user does, so
 * the call's own timeout does not run while a question is open; it starts again from zero once
 * the last open question is settled (the server then needs its time to act on the answer). The
 * human gets a separate, longer limit per question: when it passes, the question is withdrawn
 * and the calls then running fail with {@link QuestionExpiredError} — "the question expired",
 * never "the server did not answer".
 */

/** How long a form question may stay open before it expires. */
export const QUESTION_LIMIT_MS = 10 * 60_000;

/** The call stopped because a question of the server was not answered in time. */
export class QuestionExpiredError extends Error {
  constructor(readonly limitMs: number) {
    super('The question expired.');
    this.name = 'QuestionExpiredError';
  }
}

interface Timer {
  ms: number;
  onTimeout(): void;
  onExpired(e: QuestionExpiredError): void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

export class CallTimers {
  readonly #timers = new Set<Timer>();
  #openQuestions = 0;

  constructor(private readonly questionLimitMs = QUESTION_LIMIT_MS) {}

  /** Starts a call's timeout; `reset` on progress (the SDK's resetTimeoutOnProgress), `stop` when it settles. */
  start(ms: number, onTimeout: () => void, onExpired: (e: QuestionExpiredError) => void): { reset(): void; stop(): void } {
    const timer: Timer = { ms, onTimeout, onExpired, handle: undefined };
    this.#timers.add(timer);
    this.#arm(timer);
    return {
      reset: () => this.#arm(timer),
      stop: () => {
        clearTimeout(timer.handle);
        this.#timers.delete(timer);
      },
    };
  }

  #arm(timer: Timer) {
    clearTimeout(timer.handle);
    timer.handle = undefined;
    if (this.#openQuestions > 0 || !this.#timers.has(timer)) return;
    timer.handle = setTimeout(() => {
      this.#timers.delete(timer);
      timer.onTimeout();
    }, timer.ms);
  }

  /**
   * A question is open until the returned `settle` is called. `expire` is called if the human
   * limit passes first: the caller withdraws the question; the running calls fail as expired.
   */
  /**
   * Asks the user a server's question (either era): the calls' timeouts wait while it is open, and
   * past the human limit it is withdrawn and answered `cancel`.
   */
  async askUser<A extends { action: string }>(
    signal: AbortSignal | undefined,
    ask: (signal: AbortSignal) => Promise<A>,
  ): Promise<A | { action: 'cancel' }> {
    const expired = new AbortController();
    const settle = this.questionOpened(() => expired.abort());
    try {
      return await ask(signal ? AbortSignal.any([signal, expired.signal]) : expired.signal);
    } catch (e) {
      if (expired.signal.aborted) return { action: 'cancel' };
      throw e;
    } finally {
      settle();
    }
  }

  questionOpened(expire: () => void): () => void {
    this.#openQuestions++;
    for (const t of this.#timers) this.#arm(t);
    let open = true;
    const limit = setTimeout(() => {
      if (!open) return;
      const error = new QuestionExpiredError(this.questionLimitMs);
      for (const t of [...this.#timers]) {
        this.#timers.delete(t);
        t.onExpired(error);
      }
      expire();
    }, this.questionLimitMs);
    return () => {
      if (!open) return;
      open = false;
      clearTimeout(limit);
      this.#openQuestions--;
      for (const t of this.#timers) this.#arm(t);
    };
  }
}

/**
 * One tool call under our own timer (either era's session): the caller's signal and the timer
 * both abort `stop`; progress resets the timer; an expired question, or a reason `ownReason`
 * accepts (the timeout error this helper was given), is what the call rejects with, since a client
 * reports an abort with a reason it does not know as something else.
 */
export async function timedCall<T>(
  timers: CallTimers,
  timeoutMs: number,
  signal: AbortSignal,
  timeoutError: () => Error,
  run: (stop: AbortSignal, reset: () => void) => Promise<T>,
  ownReason: (reason: unknown) => boolean = () => false,
): Promise<T> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const timer = timers.start(
    timeoutMs,
    () => stop.abort(timeoutError()),
    (expired) => stop.abort(expired),
  );
  try {
    return await run(stop.signal, () => timer.reset());
  } catch (e) {
    const reason: unknown = stop.signal.reason;
    if (reason instanceof QuestionExpiredError || (stop.signal.aborted && ownReason(reason))) throw reason;
    throw e;
  } finally {
    timer.stop();
    signal.removeEventListener('abort', onAbort);
  }
}
