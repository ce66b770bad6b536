/**
 * Keeps the service worker alive only while it has work in progress (SPEC C7): an in-flight tool
 * call, an open approval, an authorization window, a connect attempt. Chrome stops a worker after
 * ~30 s without events or extension-API calls, and an API call resets that timer; so while
 * `pending()` is true the worker calls a cheap extension API every 20 s, and once nothing is
 * pending it stops and lets Chrome stop the worker. Nothing here runs while idle.
 */
export const KEEP_ALIVE_INTERVAL_MS = 20_000;

export interface KeepAliveDeps {
  /** Whether anything is in progress; read at every tick, so a stale `check()` stops on its own. */
  pending(): boolean;
  /** A cheap extension-API call (`chrome.runtime.getPlatformInfo`). */
  touch(): Promise<unknown>;
  setInterval?(fn: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
}

export class KeepAlive {
  #timer: unknown;

  constructor(private readonly deps: KeepAliveDeps) {}

  /** Call when work may have started or ended: starts or stops the ticking. */
  check(): void {
    if (this.deps.pending()) {
      if (this.#timer === undefined) this.#timer = (this.deps.setInterval ?? setInterval)(() => this.#tick(), KEEP_ALIVE_INTERVAL_MS);
    } else this.#stop();
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
