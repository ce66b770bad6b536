/**
 * The panel's requests on its state Port and their answers, matched by id. A message that is not
 * an answer is a push and goes to the caller's handlers; an answer for an id nobody waits for (or a
 * malformed one) is dropped and counted, never handed to another request. When the Port drops, the
 * requests sent on it fail with {@link WorkerGoneError}: the worker may have acted on them before it
 * stopped, so they are never sent again.
 */
import { PanelPortResponseSchema } from '../protocol/panel.js';

/** What the panel needs of a `chrome.runtime.Port` here (a fake one in the unit tests). */
export interface RequestPort {
  postMessage(message: unknown): void;
}

/** The Port carrying a request dropped before its answer came. */
export class WorkerGoneError extends Error {
  constructor() {
    super('The worker stopped before it answered');
  }
}

interface Waiting {
  port: RequestPort;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class PortRequests {
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();
  /** Answers dropped: malformed, or for an id nobody waits for. */
  dropped = 0;

  /**
   * Posts `{ kind: 'request', id, type, params }` on `port`; settles with the answer's `result`.
   * Throws at once if the Port is already dead (nothing was sent, so a fresh Port may carry it).
   */
  send(port: RequestPort, type: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    port.postMessage({ kind: 'request', id, type, params });
    // Port messages are delivered in a later task: the answer cannot come before this is set.
    return new Promise((resolve, reject) => this.#waiting.set(id, { port, resolve, reject }));
  }

  /** Takes `message` if it is an answer (true); anything else is a push (false). */
  receive(message: unknown): boolean {
    if ((message as { kind?: unknown } | null)?.kind !== 'response') return false;
    const answer = PanelPortResponseSchema.safeParse(message);
    const waiting = answer.success ? this.#waiting.get(answer.data.id) : undefined;
    if (!answer.success || !waiting) {
      this.dropped++;
      console.warn('[panel] dropped an answer that no request waits for');
      return true;
    }
    this.#waiting.delete(answer.data.id);
    waiting.resolve(answer.data.result);
    return true;
  }

  /** `port` dropped: every request sent on it fails. */
  portDropped(port: RequestPort) {
    for (const [id, w] of this.#waiting) {
      if (w.port !== port) continue;
      this.#waiting.delete(id);
      w.reject(new WorkerGoneError());
    }
  }

  /** Requests sent and not answered yet. */
  get waiting(): number {
    return this.#waiting.size;
  }
}
