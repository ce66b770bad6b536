/**
 * Per-connection cancel records (SPEC H2, H3).
 *
 * Cancellation and the call it cancels travel on different messages and can arrive in either
 * order. If `cancel` comes first, a short-lived record remembers it so the late call is
 * refused at admission; a cancel after admission aborts the call's signal. Finished ids are
 * remembered the same way, so a duplicate of a call that already ran is refused rather than
 * sent twice.
 *
 * Records of unknown or finished ids are bounded in number and age: a flood of cancels for
 * ids that never arrive cannot grow memory. Records of admitted, unsettled calls are owned by
 * those calls and leave on {@link CancelRecords.settle} or {@link CancelRecords.close}.
 */

const DEFAULT_MAX_RECORDS = 1024;
const DEFAULT_RECORD_TTL_MS = 5 * 60_000;

export interface CancelRecordsOptions {
  maxRecords?: number;
  ttlMs?: number;
  now?: () => number;
}

export type CancelOutcome =
  /** The call was admitted; its signal is now aborted. */
  | 'aborted'
  /** The call is not known yet; it will be refused when it arrives. */
  | 'recorded'
  /** The call already finished or was already cancelled; nothing changed. */
  | 'no-op';

type Tombstone = { state: 'cancelled' | 'finished'; at: number };

export class CancelRecords {
  readonly #live = new Map<string, AbortController>();
  readonly #records = new Map<string, Tombstone>();
  readonly #max: number;
  readonly #ttl: number;
  readonly #now: () => number;

  constructor(options: CancelRecordsOptions = {}) {
    this.#max = Math.max(1, options.maxRecords ?? DEFAULT_MAX_RECORDS);
    this.#ttl = options.ttlMs ?? DEFAULT_RECORD_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Accepts a call for execution. False when it was cancelled before it arrived, when it is
   * already running, or when it already ran: in all three cases it must not be sent.
   */
  admit(opId: string): boolean {
    this.#prune();
    if (this.#records.has(opId) || this.#live.has(opId)) return false;
    this.#live.set(opId, new AbortController());
    return true;
  }

  /** The abort signal of an admitted call, to hand to the SDK request. */
  signalOf(opId: string): AbortSignal | undefined {
    return this.#live.get(opId)?.signal;
  }

  cancel(opId: string, reason = 'Cancelled by the user.'): CancelOutcome {
    const controller = this.#live.get(opId);
    if (controller) {
      if (controller.signal.aborted) return 'no-op';
      controller.abort(reason);
      return 'aborted';
    }
    this.#prune();
    if (this.#records.has(opId)) return 'no-op';
    this.#remember(opId, 'cancelled');
    return 'recorded';
  }

  /** The call finished (any outcome); later admits of the same id are refused for a while. */
  settle(opId: string): void {
    if (!this.#live.delete(opId)) return;
    this.#remember(opId, 'finished');
  }

  /**
   * The server refused the call before running it (HTTP 401): the worker may resend it once
   * with a refreshed token under the same id (oauth-requests.ts), so no "finished" record is
   * kept — but a cancel that landed meanwhile still wins over that resend.
   */
  release(opId: string): void {
    const controller = this.#live.get(opId);
    if (!controller) return;
    this.#live.delete(opId);
    if (controller.signal.aborted) this.#remember(opId, 'cancelled');
  }

  /** The connection is closing: abort what is still running and forget everything. */
  close(reason = 'The connection was closed.'): void {
    for (const controller of this.#live.values()) controller.abort(reason);
    this.#live.clear();
    this.#records.clear();
  }

  /** Number of remembered cancelled/finished ids (for tests and diagnostics). */
  get recordCount(): number {
    return this.#records.size;
  }

  #remember(opId: string, state: Tombstone['state']): void {
    this.#records.delete(opId);
    this.#records.set(opId, { state, at: this.#now() });
    while (this.#records.size > this.#max) {
      const oldest = this.#records.keys().next().value;
      if (oldest === undefined) break;
      this.#records.delete(oldest);
    }
  }

  #prune(): void {
    const cutoff = this.#now() - this.#ttl;
    for (const [id, record] of this.#records) {
      if (record.at > cutoff) break;
      this.#records.delete(id);
    }
  }
}
