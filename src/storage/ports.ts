/**
 * The slice of `chrome.storage.*` the storage layer relies on, as an interface, so the same
 * logic runs in the service worker and in Node tests (pure core with ports,
 * docs/architecture.md). Only {@link chromeArea} touches `chrome.*`.
 */

/** One key's change, as `chrome.storage` reports it (absent value = key was absent). */
interface AreaChange {
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
