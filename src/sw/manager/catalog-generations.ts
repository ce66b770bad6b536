/**
 * Generation-guarded catalog state per server (SPEC D2, N5).
 *
 * A refresh is started with {@link CatalogGenerations.begin} and each category it lists is
 * committed separately. Two races are handled here so callers don't have to:
 * - Refreshes overlap (a `list_changed` arrives while the previous listing is still running).
 *   A category accepts a commit only from a generation newer than the last one it accepted,
 *   so a slow old listing that finishes late cannot overwrite a newer one.
 * - A category fails temporarily. Its last valid list is kept and marked stale, because a
 *   network blip is not "the server removed everything".
 */

export const CATALOG_CATEGORIES = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;
export type CatalogCategory = (typeof CATALOG_CATEGORIES)[number];

export type ListResult<T> = { ok: true; items: readonly T[] } | { ok: false; error: string };

export interface CategoryState<T> {
  /** Last valid list; null when no listing of this category has ever succeeded. */
  items: readonly T[] | null;
  /** Generation whose result (success or failure) this state reflects; 0 = none yet. */
  generation: number;
  /** Message of the latest failure; null when fresh. */
  error: string | null;
  /** When the first of the failures since the last good list happened (epoch ms); null when fresh. */
  staleSince: number | null;
}

export type CommitOutcome =
  /** The new list replaced the old one. */
  | 'committed'
  /** The listing failed; the previous list is kept and marked stale. */
  | 'kept-stale'
  /** A newer generation already committed this category; this result was discarded. */
  | 'superseded'
  /** The generation was never begun for this server (or the server was forgotten). */
  | 'unknown';

type ServerCatalog = { latest: number; categories: Map<CatalogCategory, CategoryState<unknown>> };

function emptyState<T>(): CategoryState<T> {
  return { items: null, generation: 0, error: null, staleSince: null };
}

export class CatalogGenerations {
  readonly #servers = new Map<string, ServerCatalog>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts a refresh and returns its generation (increasing per server, starting at 1). */
  begin(serverId: string): number {
    let server = this.#servers.get(serverId);
    if (!server) {
      server = { latest: 0, categories: new Map() };
      this.#servers.set(serverId, server);
    }
    server.latest += 1;
    return server.latest;
  }

  /** Whether `generation` is the most recently begun refresh of `serverId`. */
  isLatest(serverId: string, generation: number): boolean {
    return this.#servers.get(serverId)?.latest === generation;
  }

  commit<T>(serverId: string, generation: number, category: CatalogCategory, result: ListResult<T>): CommitOutcome {
    const server = this.#servers.get(serverId);
    if (!server || generation < 1 || generation > server.latest) return 'unknown';
    const previous = server.categories.get(category) ?? emptyState<unknown>();
    if (generation <= previous.generation) return 'superseded';
    if (result.ok) {
      server.categories.set(category, { items: [...result.items], generation, error: null, staleSince: null });
      return 'committed';
    }
    server.categories.set(category, {
      items: previous.items,
      generation,
      error: result.error,
      staleSince: previous.staleSince ?? this.now(),
    });
    return 'kept-stale';
  }

  /** The state of one category; a never-listed category is empty, not stale. */
  get<T>(serverId: string, category: CatalogCategory): CategoryState<T> {
    const state = this.#servers.get(serverId)?.categories.get(category);
    return (state as CategoryState<T> | undefined) ?? emptyState<T>();
  }

  /** Drops everything known about a server (disconnect, delete, URL change). */
  forget(serverId: string): void {
    this.#servers.delete(serverId);
  }
}

/** A trigger that runs a refresh with at most one run in flight and one queued. */
export interface Coalesced {
  /**
   * Requests a run. Resolves when a run that started after this request has finished, so
   * the caller sees a result at least as new as its request.
   */
  trigger(): Promise<void>;
  /** Whether a run is in flight. */
  readonly running: boolean;
  /** Whether a run is queued behind the one in flight. */
  readonly queued: boolean;
}

export interface CoalesceOptions {
  /** Least time between the starts of two runs; a run requested sooner waits (SPEC N5). */
  minIntervalMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Coalesces bursts (SPEC N5): a server that fires a hundred `list_changed` notifications in
 * a row causes one refresh in flight plus one queued, never a hundred. Requests arriving while
 * a run is queued join that queued run. A failing run does not stop the queued one. With
 * `minIntervalMs`, runs also start at most once per interval, so a storm spread over time is
 * paced as well: one refresh at once, then at most one per interval, the last one after the
 * storm ended.
 */
export function coalesce(run: () => Promise<void>, options: CoalesceOptions = {}): Coalesced {
  return new Coalescer(run, options);
}

class Coalescer implements Coalesced {
  readonly #run: () => Promise<void>;
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #inFlight: Promise<void> | null = null;
  #queuedRun: Promise<void> | null = null;
  #lastStart = -Infinity;
  /** The run in flight is still waiting out the interval: a request now is served by it. */
  #waiting = false;

  constructor(run: () => Promise<void>, { minIntervalMs = 0, now = Date.now, sleep = realSleep }: CoalesceOptions) {
    this.#run = run;
    this.#minIntervalMs = minIntervalMs;
    this.#now = now;
    this.#sleep = sleep;
  }

  trigger(): Promise<void> {
    if (this.#queuedRun) return this.#queuedRun;
    if (!this.#inFlight) return this.#start();
    if (this.#waiting) return this.#inFlight;
    const next = this.#inFlight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.#queuedRun = null;
        return this.#start();
      });
    this.#queuedRun = next;
    return next;
  }

  get running() {
    return this.#inFlight !== null;
  }

  get queued() {
    return this.#queuedRun !== null;
  }

  #start(): Promise<void> {
    const p = this.#paced();
    this.#inFlight = p;
    return p;
  }

  async #paced(): Promise<void> {
    try {
      const wait = this.#lastStart + this.#minIntervalMs - this.#now();
      if (wait > 0) {
        this.#waiting = true;
        await this.#sleep(wait);
        this.#waiting = false;
      }
      this.#lastStart = this.#now();
      await this.#run();
    } finally {
      this.#inFlight = null;
    }
  }
}
