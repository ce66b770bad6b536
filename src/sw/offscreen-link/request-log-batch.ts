/**
 * Gathers the worker's request-log writes and stores them in one IndexedDB transaction per short
 * window (SPEC J2). A transaction per call cost the worker about 2 ms of CPU per request, in
 * the middle of the next call when an agent calls tools back to back; one per window costs that
 * once for all the window's rows. Building each entry (sizes, redaction) waits for the flush too.
 *
 * Rows are stored in the order their writes were queued. A reader flushes first (`flush()`),
 * so the Activity view always sees every call that has ended. Chrome stops an idle worker only
 * after ~30 s without events, far beyond the window; a worker stopped for another reason within
 * the window loses that window's rows, as it lost the one write in flight before (best effort).
 */
import type { RequestLogEntry, RequestLogRow } from '../../storage/request-log.js';

/** How long the first write of a batch waits for others. */
export const LOG_BATCH_WINDOW_MS = 100;
/** A batch this large is stored at once rather than at the end of its window (bounded memory). */
export const LOG_BATCH_MAX_ROWS = 200;

export interface RequestLogBatchDeps {
  /** Stores rows in one transaction (`appendRequestLogs`). */
  store(rows: RequestLogRow[]): Promise<void>;
  /** Told after each stored batch (the open panels are notified). */
  stored?(): void;
  windowMs?: number;
  setTimeout?(fn: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
}

export class RequestLogBatch {
  /** Deferred writes (see `defer`), run at the flush in the order they came. */
  #writes: (() => void)[] = [];
  #rows: RequestLogRow[] = [];
  /** Settles when the batch being gathered is stored; what `append` returns. */
  #next: { promise: Promise<void>; resolve(): void; reject(e: unknown): void } | undefined;
  #timer: unknown;
  /** The previous batch's store: batches are stored one after another, in order. */
  #last: Promise<void> = Promise.resolve();
  #gathering = false;

  constructor(private readonly deps: RequestLogBatchDeps) {}

  /** A `LogScheduler`: runs `write` (which builds its entry and appends it) at the next flush. */
  readonly defer = (write: () => void): void => {
    this.#writes.push(write);
    this.#arm();
  };

  /** A `LogSink`: adds the entry to the batch; settles once the batch is stored. */
  readonly append = (serverId: string, entry: RequestLogEntry): Promise<void> => {
    if (!this.#next) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#next = { promise, resolve, reject };
    }
    // Taken before arming: a full batch is flushed right here, with this row in it.
    const { promise } = this.#next;
    this.#rows.push({ serverId, entry });
    this.#arm();
    return promise;
  };

  /** Writes queued or rows gathered that are not stored yet. */
  get pending(): number {
    return this.#writes.length + this.#rows.length;
  }

  /** Stores what is gathered now; settles when it (and every batch before it) is stored. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      (this.deps.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(this.#timer);
      this.#timer = undefined;
    }
    // Each deferred write appends its row here, synchronously; it arms nothing meanwhile.
    this.#gathering = true;
    try {
      for (const write of this.#writes.splice(0)) {
        try {
          write();
        } catch {
          // Logging never fails the worker; the other rows are still stored.
        }
      }
    } finally {
      this.#gathering = false;
    }
    const rows = this.#rows.splice(0);
    const next = this.#next;
    this.#next = undefined;
    if (rows.length === 0) return this.#last;
    const stored = this.#last.then(() => this.deps.store(rows));
    this.#last = stored.then(
      () => {
        next?.resolve();
        this.deps.stored?.();
      },
      (e: unknown) => next?.reject(e),
    );
    return this.#last;
  }

  #arm() {
    if (this.#gathering) return;
    if (this.pending >= LOG_BATCH_MAX_ROWS) {
      void this.flush();
      return;
    }
    if (this.#timer !== undefined) return;
    this.#timer = (this.deps.setTimeout ?? setTimeout)(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.deps.windowMs ?? LOG_BATCH_WINDOW_MS);
  }
}
