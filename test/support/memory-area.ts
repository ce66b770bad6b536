import type { AreaChanges, AreaListener, KeyValueArea } from '../../src/storage/ports.js';

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
