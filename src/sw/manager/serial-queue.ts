/**
 * Per-server serialization of connect / disconnect / reconnect (SPEC C3, C4, C5).
 *
 * Operations on one key run one after another, in the order they were requested, whether
 * earlier ones succeeded or failed. Keys are independent of each other.
 *
 * Two rules on top of plain serialization:
 * - Concurrent `connect` calls share one attempt: the second caller gets the first caller's
 *   promise instead of starting another handshake.
 * - `disconnect` is a barrier. It bumps the key's *epoch* at the moment it is requested, so
 *   a `connect` requested afterwards never joins an attempt started before it, and (being
 *   queued behind the disconnect) only runs once the disconnect has finished.
 *
 * The epoch is also how an attempt detects drift (C5): an attempt receives the epoch it was
 * started in and must check {@link KeyedSerialQueue.isCurrent} before it publishes a client
 * to the ready map; if a disconnect happened meanwhile, it closes its candidate instead.
 */
export class KeyedSerialQueue<T = unknown> {
  readonly #slots = new Map<string, Slot<T>>();

  /** The current epoch of `key`; it changes only when a disconnect is requested. */
  epoch(key: string): number {
    return this.#slots.get(key)?.epoch ?? 0;
  }

  /** Whether no disconnect has been requested since `epoch` was handed out. */
  isCurrent(key: string, epoch: number): boolean {
    return this.epoch(key) === epoch;
  }

  /** Whether an operation for `key` is queued or running. */
  isBusy(key: string): boolean {
    return (this.#slots.get(key)?.pending ?? 0) > 0;
  }

  /**
   * Connect, or join the attempt already requested in the current epoch. `fn` gets the epoch
   * it runs in. The in-flight slot is cleared inside the operation's `finally`, before its
   * promise settles, so a failed attempt is never handed to a later caller.
   */
  connect(key: string, fn: (epoch: number) => Promise<T>): Promise<T> {
    const slot = this.#slot(key);
    const current = slot.inflight;
    if (current && current.epoch === slot.epoch) return current.promise;
    const epoch = slot.epoch;
    const entry: InFlight<T> = { epoch, promise: undefined as unknown as Promise<T> };
    entry.promise = this.#enqueue(slot, async () => {
      try {
        return await fn(epoch);
      } finally {
        if (slot.inflight === entry) slot.inflight = null;
      }
    });
    slot.inflight = entry;
    return entry.promise;
  }

  /**
   * Barrier: bumps the epoch now, then runs `fn` after everything already queued. `fn` gets
   * the new epoch. Later operations run after it even if it fails.
   */
  disconnect<R>(key: string, fn: (epoch: number) => Promise<R>): Promise<R> {
    const slot = this.#slot(key);
    slot.epoch += 1;
    slot.inflight = null;
    const epoch = slot.epoch;
    return this.#enqueue(slot, () => fn(epoch));
  }

  /**
   * Disconnect barrier followed by a fresh connect (SPEC C3: URL or binding changed). The
   * connect runs even if the disconnect fails; its failure is not reported here.
   */
  reconnect<R>(key: string, disconnectFn: (epoch: number) => Promise<R>, connectFn: (epoch: number) => Promise<T>): Promise<T> {
    void this.disconnect(key, disconnectFn).catch(() => undefined);
    return this.connect(key, connectFn);
  }

  /** Any other operation that must not interleave with connects and disconnects. */
  run<R>(key: string, fn: (epoch: number) => Promise<R>): Promise<R> {
    const slot = this.#slot(key);
    const epoch = slot.epoch;
    return this.#enqueue(slot, () => fn(epoch));
  }

  #slot(key: string): Slot<T> {
    let slot = this.#slots.get(key);
    if (!slot) {
      slot = { tail: Promise.resolve(), inflight: null, epoch: 0, pending: 0 };
      this.#slots.set(key, slot);
    }
    return slot;
  }

  #enqueue<R>(slot: Slot<T>, op: () => Promise<R>): Promise<R> {
    slot.pending += 1;
    const run = slot.tail.then(async () => {
      try {
        return await op();
      } finally {
        slot.pending -= 1;
      }
    });
    slot.tail = run.then(ignore, ignore);
    return run;
  }
}

function ignore(): void {}

interface InFlight<T> {
  epoch: number;
  promise: Promise<T>;
}

interface Slot<T> {
  /** Settles when the last queued operation has settled; never rejects. */
  tail: Promise<void>;
  inflight: InFlight<T> | null;
  epoch: number;
  pending: number;
}
