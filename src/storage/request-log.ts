/**
 * The per-server request log behind the log drawer (SPEC J2): the last 50 exchanges of each
 * server, redacted before they are stored (see redact.ts).
 *
 * Why IndexedDB and not `chrome.storage.session`: the worker can be evicted between any two
 * requests, so the log must live outside its memory, and both would survive that. But the
 * session area only offers whole-value read-modify-write, so each append would rewrite a
 * server's whole log (up to 50 bodies) and two contexts appending at once would lose
 * entries; its 10 MB quota is also shared with the access tokens, which must never be
 * evicted by a chatty log. IndexedDB appends rows (the worker stores a short window's rows
 * at once, src/sw/offscreen-link/request-log-batch.ts), trims in the same transaction, and
 * readwrite transactions on one store are run one at a time by the engine, which serializes
 * the writes without a queue of our own, across contexts too.
 * The offscreen document, which sees the HTTP traffic, can write it directly.
 * The cost: the log outlives a browser restart, which is acceptable only because nothing
 * secret is in it; `clear()` empties it.
 */
import type { Wording } from '../protocol/wording.js';
import { STORE_REQUEST_LOG, idbDone, idbRequest, openStorageDb } from './idb.js';
import { redact } from './redact.js';

export const LOG_ENTRIES_PER_SERVER = 50;
/** Bodies larger than this are kept as a truncated text preview (N1 spirit: bounded storage). */
export const MAX_LOGGED_BODY_CHARS = 16 * 1024;

export interface RequestLogEntry {
  /** Epoch milliseconds when the request started. */
  at: number;
  /**
   * JSON-RPC method (`tools/call`, `initialize`, `notifications/cancelled`), or the step of
   * non-MCP traffic (`oauth:token`, `session:close`).
   */
  method: string;
  /** What the method acts on: a tool or prompt name, a resource URI. */
  subject?: string;
  /** `in`: the server asked or notified (e.g. `elicitation/create`); absent: we sent it. */
  direction?: 'in';
  /** A JSON-RPC notification (no answer expected); absent: a request. */
  notification?: true;
  durationMs: number;
  status: 'ok' | 'error' | number;
  requestBytes: number;
  responseBytes: number;
  error?: string;
  /** `error` as a code + parameters, for the panel to say in the user's language. */
  errorWording?: Wording;
  request?: unknown;
  response?: unknown;
}

interface Row {
  seq?: number;
  serverId: string;
  entry: RequestLogEntry;
}

/** One entry with the server whose log it belongs to. */
export interface RequestLogRow {
  serverId: string;
  entry: RequestLogEntry;
}

/** Appends one redacted entry and drops the server's oldest beyond the limit, atomically. */
export function appendRequestLog(serverId: string, entry: RequestLogEntry): Promise<void> {
  return appendRequestLogs([{ serverId, entry }]);
}

/**
 * Appends entries in the order given, each redacted, in one transaction, then drops each server's
 * oldest beyond the limit in the same transaction. The requests of a transaction run in the order
 * they are made, so the counts see every row added before them.
 */
export async function appendRequestLogs(rows: readonly RequestLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const stored: Row[] = rows.map((r) => ({ serverId: r.serverId, entry: sanitize(r.entry) }));
  const tx = (await openStorageDb()).transaction(STORE_REQUEST_LOG, 'readwrite');
  const store = tx.objectStore(STORE_REQUEST_LOG);
  const index = store.index('serverId');
  for (const row of stored) store.add(row);
  for (const serverId of new Set(stored.map((r) => r.serverId))) dropOldest(store, index, serverId);
  await idbDone(tx);
}

/**
 * Drops the server's oldest rows beyond the limit, inside the caller's transaction. Their keys come
 * in one request (same index key → primary-key order, oldest first). Keys are the store's
 * increasing sequence, so when they are consecutive no other server's row lies between them and
 * one range delete takes them all: the usual case, one server busy at a time. Otherwise each is
 * deleted by its key. Either way a few requests, not a cursor step and a delete per row (which
 * was a third of the worker's CPU per call on the bench's agent path).
 */
function dropOldest(store: IDBObjectStore, index: IDBIndex, serverId: string) {
  const counting = index.count(serverId);
  counting.onsuccess = () => {
    const excess = counting.result - LOG_ENTRIES_PER_SERVER;
    if (excess <= 0) return;
    const oldest = index.getAllKeys(serverId, excess);
    oldest.onsuccess = () => {
      const keys = oldest.result as number[];
      const first = keys[0];
      const last = keys[keys.length - 1];
      if (first === undefined || last === undefined) return;
      if (last - first + 1 === keys.length) store.delete(IDBKeyRange.bound(first, last));
      else for (const key of keys) store.delete(key);
    };
  };
}

/** Oldest first. */
export async function readRequestLog(serverId: string): Promise<RequestLogEntry[]> {
  const tx = (await openStorageDb()).transaction(STORE_REQUEST_LOG, 'readonly');
  const rows = (await idbRequest(tx.objectStore(STORE_REQUEST_LOG).index('serverId').getAll(serverId))) as Row[];
  return rows.map((r) => r.entry);
}

/** Every server's entries, in the order they were stored. */
export async function readAllRequestLogs(): Promise<{ serverId: string; entry: RequestLogEntry }[]> {
  const tx = (await openStorageDb()).transaction(STORE_REQUEST_LOG, 'readonly');
  const rows = (await idbRequest(tx.objectStore(STORE_REQUEST_LOG).getAll())) as Row[];
  return rows.map((r) => ({ serverId: r.serverId, entry: r.entry }));
}

/** Empties one server's log (the server was removed). */
export async function clearRequestLog(serverId: string): Promise<void> {
  const tx = (await openStorageDb()).transaction(STORE_REQUEST_LOG, 'readwrite');
  const cursorRequest = tx.objectStore(STORE_REQUEST_LOG).index('serverId').openCursor(serverId);
  cursorRequest.onsuccess = () => {
    const cursor = cursorRequest.result;
    if (!cursor) return;
    cursor.delete();
    cursor.continue();
  };
  await idbDone(tx);
}

function sanitize(entry: RequestLogEntry): RequestLogEntry {
  const out: RequestLogEntry = {
    at: entry.at,
    method: String(entry.method).slice(0, 256),
    ...(entry.subject !== undefined ? { subject: (redact(String(entry.subject)) as string).slice(0, 1024) } : {}),
    ...(entry.direction === 'in' ? { direction: 'in' as const } : {}),
    ...(entry.notification ? { notification: true as const } : {}),
    durationMs: entry.durationMs,
    status: entry.status,
    requestBytes: entry.requestBytes,
    responseBytes: entry.responseBytes,
  };
  if (entry.error !== undefined) out.error = (redact(String(entry.error)) as string).slice(0, 4096);
  // Parameters are redacted like the text they fill in (a URL or a server's message may carry a token).
  if (entry.errorWording !== undefined)
    out.errorWording = {
      code: entry.errorWording.code,
      ...(entry.errorWording.params
        ? {
            params: Object.fromEntries(
              Object.entries(entry.errorWording.params).map(([k, v]) => [k, (redact(String(v)) as string).slice(0, 1024)]),
            ),
          }
        : {}),
    };
  if (entry.request !== undefined) out.request = bounded(redact(entry.request));
  if (entry.response !== undefined) out.response = bounded(redact(entry.response));
  return out;
}

function bounded(body: unknown): unknown {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined || text.length <= MAX_LOGGED_BODY_CHARS) return body;
  return `${text.slice(0, MAX_LOGGED_BODY_CHARS)}… [truncated, ${text.length} chars]`;
}
