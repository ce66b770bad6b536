/**
 * Everything the extension keeps, read from inside its service worker: `chrome.storage.local`,
 * `chrome.storage.session` and every store of every IndexedDB database. Tests of secrets at rest
 * (SPEC F3) search this for plaintext. CryptoKeys are described (type, extractable), since a
 * key cannot be serialised — and must not be exportable. An extension page (the panel) reads the
 * same storage, for tests whose worker has no DevTools attached.
 */
import type { Page, WebWorker } from 'puppeteer-core';

export interface StorageDump {
  local: Record<string, unknown>;
  session: Record<string, unknown>;
  idb: Record<string, unknown>;
}

export function dumpExtensionStorage(context: WebWorker | Page): Promise<StorageDump> {
  return (context as WebWorker).evaluate(async () => {
    const local = await chrome.storage.local.get(null);
    const session = await chrome.storage.session.get(null);
    const idb: Record<string, unknown> = {};
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error ?? new Error(`could not open ${String(info.name)}`));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        idb[`${info.name}/${store}`] = await new Promise((resolve, reject) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () =>
            resolve(r.result.map((v: unknown) => (v instanceof CryptoKey ? { cryptoKey: v.type, extractable: v.extractable } : v)));
          r.onerror = () => reject(r.error ?? new Error(`could not read ${store}`));
        });
      }
      db.close();
    }
    return { local, session, idb };
  });
}
