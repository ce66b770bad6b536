/**
 * The one IndexedDB database of the extension. Every object store is declared here, in one
 * upgrade function, because several modules opening the same database with their own
 * versions is how stores go missing. `globalThis.indexedDB` works in the service worker,
 * the offscreen document and (with fake-indexeddb) in Node.
 */

export const DB_NAME = 'remote-mcp';
const DB_VERSION = 1;
export const STORE_KEYS = 'keys';
export const STORE_INTERACTIONS = 'interactions';
export const STORE_REQUEST_LOG = 'request_log';

let dbPromise: Promise<IDBDatabase> | null = null;

/** Single-flight open; a connection closed by the browser (or a version change) is reopened. */
export function openStorageDb(): Promise<IDBDatabase> {
  dbPromise ??= openOnce().catch((error: unknown) => {
    dbPromise = null;
    throw error;
  });
  return dbPromise;
}

function openOnce(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORE_KEYS)) db.createObjectStore(STORE_KEYS);
      if (!db.objectStoreNames.contains(STORE_INTERACTIONS)) {
        const store = db.createObjectStore(STORE_INTERACTIONS, { keyPath: 'id' });
        store.createIndex('status', 'status');
      }
      if (!db.objectStoreNames.contains(STORE_REQUEST_LOG)) {
        const store = db.createObjectStore(STORE_REQUEST_LOG, { keyPath: 'seq', autoIncrement: true });
        store.createIndex('serverId', 'serverId');
      }
    };
    request.onsuccess = () => {
      const db = request.result;
      const forget = () => {
        dbPromise = null;
      };
      db.onclose = forget;
      db.onversionchange = () => {
        db.close();
        forget();
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  });
}

/** Settles with the request's result, or its error. */
export function idbRequest<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * Resolves when the transaction commits; rejects when it aborts, with the error of the
 * request that caused it (the transaction's own `error` is often still null then).
 */
export function idbDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    let cause: DOMException | null = null;
    tx.oncomplete = () => resolve();
    tx.onerror = (event) => {
      cause ??= (event.target as IDBRequest | null)?.error ?? null;
    };
    tx.onabort = () => reject(tx.error ?? cause ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * Drops the cached connection so a test can swap `globalThis.indexedDB` or simulate a restart.
 * @internal test hook: module state cannot be reset from outside (knip --production skips it).
 */
export async function resetStorageDbForTests(): Promise<void> {
  const pending = dbPromise;
  dbPromise = null;
  if (pending) (await pending.catch(() => null))?.close();
}
