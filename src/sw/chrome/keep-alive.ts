/**
 * Keeps the service worker alive only while it has work in progress (SPEC C7): an in-flight tool
 * call, an open approval, an authorization window, a connect attempt. Chrome stops a worker after
 * ~30 s without events or extension-API calls, and an API call resets that timer; so while
 * `pending()` is true the worker calls a cheap extension API every 20 s, and once nothing is
 * pending it stops and lets Chrome stop the worker. Nothing here runs while idle.
 */
export const KEEP_ALIVE_INTERVAL_MS = 20_000;
/** The least time between two touches asked for by work Chrome's idle timer does not see ({@link KeepAlive.touchSoon}). */
export const TOUCH_THROTTLE_MS = 10_000;

export interface KeepAliveDeps {
  /** Whether anything is in progress; read at every tick, so a stale `check()` stops on its own. */
  pending(): boolean;
  /** A cheap extension-API call (`chrome.runtime.getPlatformInfo`). */
  touch(): Promise<unknown>;
  setInterval?(fn: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
  now?(): number;
}

export class KeepAlive {
  #timer: unknown;
  #touchedAt = -Infinity;

  constructor(private readonly deps: KeepAliveDeps) {}

  /** Call when work may have started or ended: starts or stops the ticking. */
  check(): void {
    if (this.deps.pending()) {
      if (this.#timer === undefined) this.#timer = (this.deps.setInterval ?? setInterval)(() => this.#tick(), KEEP_ALIVE_INTERVAL_MS);
    } else this.#stop();
  }

  /**
   * For work that resets none of Chrome's idle timers although it came from outside, e.g. a panel
   * request on its data channel (a Port message would have reset it): Chrome could stop the worker
   * while it answers one. The first such work in a while makes the extension-API call, which does;
   * at most one per {@link TOUCH_THROTTLE_MS}, far inside Chrome's ~30 s.
   */
  touchSoon(): void {
    const now = (this.deps.now ?? Date.now)();
    if (now - this.#touchedAt < TOUCH_THROTTLE_MS) return;
    this.#touchedAt = now;
    void this.deps.touch().catch(() => undefined);
  }

  /** Whether the worker is being kept alive right now. */
  get active(): boolean {
    return this.#timer !== undefined;
  }

  #tick() {
    if (!this.deps.pending()) return this.#stop();
    void this.deps.touch().catch(() => undefined);
  }

  #stop() {
    if (this.#timer === undefined) return;
    (this.deps.clearInterval ?? ((h) => clearInterval(h as ReturnType<typeof setInterval>)))(this.#timer);
    this.#timer = undefined;
  }
}
