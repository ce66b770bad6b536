/**
 * Tool calls that have started but not yet been handed to the offscreen host (SPEC H2): they may
 * be waiting for a lazy connect, a session recovery or the per-server queue. A cancel for one of
 * them must win however long that wait is, so it is recorded here by operationId and the call is
 * refused before it is sent. Once a call is sent, cancelling it is the offscreen host's job
 * (`offscreen:cancel`, whose early-cancel records cover the hop between worker and host).
 */
import { say } from '../../protocol/wording.js';
import { RemoteError } from '../../protocol/result.js';

export class UnsentCalls {
  readonly #calls = new Map<string, AbortController>();

  /** Registers a call; its signal aborts when {@link cancel} is called for it before {@link sent}. */
  begin(operationId: string): AbortSignal {
    const controller = new AbortController();
    this.#calls.set(operationId, controller);
    return controller.signal;
  }

  /** The call is about to be sent (or ended): a later cancel is no longer ours to handle. */
  sent(operationId: string): void {
    this.#calls.delete(operationId);
  }

  /** Cancels a call that has not been sent; false if there is none (it was sent, or never started). */
  cancel(operationId: string): boolean {
    const controller = this.#calls.get(operationId);
    if (!controller) return false;
    this.#calls.delete(operationId);
    controller.abort();
    return true;
  }
}

export function cancelledBeforeSending(tool: string): RemoteError {
  return new RemoteError({ code: 'cancelled', ...say('reasonCallCancelledUnsent', { tool }) });
}

/** Settles with `work`, or rejects at once with `reason()` when `signal` aborts first. */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
