/**
 * The worker's end of the import-validation Port (SPEC B3). It accepts the Port only from this
 * extension's exact offscreen document URL, sends one preview request at a time per call with
 * the digest of its input, and hands the reply to {@link verifyImportReply}. The offscreen
 * document opens this Port right after its main one, so a caller waits briefly for it.
 */
import { canonicalJson, digest, type ImportPreview } from '../../import/import-schema.js';
import { IMPORT_PORT, importInput } from '../../protocol/import-channel.js';
import { RemoteError } from '../../protocol/result.js';
import { verifyImportReply } from './import-verify.js';

const OFFSCREEN_PATH = 'offscreen.html';
const PORT_WAIT_MS = 10_000;
const REPLY_WAIT_MS = 20_000;

let current: chrome.runtime.Port | undefined;
const waiters = new Set<(port: chrome.runtime.Port) => void>();
const pending = new Map<number, { resolve: (raw: unknown) => void; reject: (e: Error) => void }>();
let nextId = 1;

/** Called from the worker's top-level `onConnect`. Returns true if the Port was the import Port. */
export function acceptImportPort(port: chrome.runtime.Port): boolean {
  if (port.name !== IMPORT_PORT) return false;
  if (port.sender?.id !== chrome.runtime.id || port.sender?.url !== chrome.runtime.getURL(OFFSCREEN_PATH)) {
    port.disconnect();
    return true;
  }
  current?.disconnect();
  current = port;
  port.onMessage.addListener((message: unknown) => {
    const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
    const waiter = typeof id === 'number' ? pending.get(id) : undefined;
    if (!waiter) return;
    pending.delete(id as number);
    waiter.resolve(message);
  });
  port.onDisconnect.addListener(() => {
    if (current !== port) return;
    current = undefined;
    for (const w of pending.values())
      w.reject(
        new RemoteError({ code: 'offscreen-lost', message: 'The import check stopped before it answered; try again.', action: 'retry' }),
      );
    pending.clear();
  });
  for (const w of waiters) w(port);
  waiters.clear();
  return true;
}

function importPort(ensureOffscreen: () => Promise<unknown>): Promise<chrome.runtime.Port> {
  return (async () => {
    await ensureOffscreen();
    if (current) return current;
    return new Promise<chrome.runtime.Port>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(done);
        reject(new RemoteError({ code: 'offscreen-lost', message: 'The import check could not start; try again.', action: 'retry' }));
      }, PORT_WAIT_MS);
      const done = (port: chrome.runtime.Port) => {
        clearTimeout(timer);
        resolve(port);
      };
      waiters.add(done);
    });
  })();
}

/** The validated preview of `text` against the saved servers, computed in the offscreen document. */
export async function previewImport(
  text: string,
  existing: readonly { name: string; url: string }[],
  ensureOffscreen: () => Promise<unknown>,
): Promise<ImportPreview> {
  const port = await importPort(ensureOffscreen);
  const id = nextId++;
  const list = existing.map((s) => ({ name: s.name, url: s.url }));
  const inputDigest = await digest(canonicalJson(importInput(text, list)));
  const raw = await new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new RemoteError({ code: 'timeout', message: 'The import check took too long; try again.', action: 'retry' }));
    }, REPLY_WAIT_MS);
    pending.set(id, {
      resolve: (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      reject: (e) => {
        clearTimeout(timer);
        reject(e);
      },
    });
    port.postMessage({ kind: 'import:preview', id, text, existing: list, inputDigest });
  });
  return verifyImportReply(inputDigest, id, raw);
}
