/**
 * The slice of `chrome.storage.*` the storage layer relies on, as an interface, so the same
 * logic runs in the service worker and in Node tests (pure core with ports,
 * docs/architecture.md). Only {@link chromeArea} touches `chrome.*`.
 */

/** One key's change, as `chrome.storage` reports it (absent value = key was absent). */
export interface AreaChange {
  oldValue?: unknown;
  newValue?: unknown;
}
export type AreaChanges = Record<string, AreaChange>;
export type AreaListener = (changes: AreaChanges) => void;

export interface KeyValueArea {
  /** Resolves to the present keys only; absent keys are missing from the result. */
  get(keys: string | readonly string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | readonly string[]): Promise<void>;
  /** Subscribes to changes made by any context; returns the unsubscribe function. */
  onChanged(listener: AreaListener): () => void;
}

/** Adapter over a real `chrome.storage.local` / `chrome.storage.session`. */
export function chromeArea(area: chrome.storage.StorageArea): KeyValueArea {
  return {
    get: (keys) => area.get([...(typeof keys === 'string' ? [keys] : keys)]),
    set: (items) => area.set(items),
    remove: (keys) => area.remove(typeof keys === 'string' ? keys : [...keys]),
    onChanged(listener) {
      const wrapped = (changes: Record<string, chrome.storage.StorageChange>) => listener(changes);
      area.onChanged.addListener(wrapped);
      return () => area.onChanged.removeListener(wrapped);
    },
  };
}

/**
 * In-memory area for tests. Values go through a JSON round trip, like `chrome.storage`
 * serializes them, so a test cannot pass by sharing object identity with the store.
 * Every call yields a macrotask first, as the real IPC does, so overlapping read-modify-writes
 * interleave in tests the way they would in Chrome. Change events fire after the write is
 * applied and before the returned promise settles.
 */
export class MemoryArea implements KeyValueArea {
  readonly #data = new Map<string, string>();
  readonly #listeners = new Set<AreaListener>();

  async get(keys: string | readonly string[]): Promise<Record<string, unknown>> {
    await ipcDelay();
    const out: Record<string, unknown> = {};
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      const raw = this.#data.get(key);
      if (raw !== undefined) out[key] = JSON.parse(raw);
    }
    return out;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    await ipcDelay();
    const changes: AreaChanges = {};
    for (const [key, value] of Object.entries(items)) {
      if (value === undefined) continue;
      const raw = JSON.stringify(value);
      const old = this.#data.get(key);
      this.#data.set(key, raw);
      if (old !== raw) changes[key] = { ...(old === undefined ? {} : { oldValue: JSON.parse(old) }), newValue: JSON.parse(raw) };
    }
    this.#emit(changes);
  }

  async remove(keys: string | readonly string[]): Promise<void> {
    await ipcDelay();
    const changes: AreaChanges = {};
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      const old = this.#data.get(key);
      if (old === undefined) continue;
      this.#data.delete(key);
      changes[key] = { oldValue: JSON.parse(old) };
    }
    this.#emit(changes);
  }

  onChanged(listener: AreaListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every stored key and value, as a dump of the real area would show them (F3 tests). */
  dump(): Record<string, unknown> {
    return Object.fromEntries([...this.#data].map(([k, v]) => [k, JSON.parse(v)]));
  }

  #emit(changes: AreaChanges): void {
    if (Object.keys(changes).length === 0) return;
    for (const listener of [...this.#listeners]) listener(changes);
  }
}

const ipcDelay = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
