/**
 * The worker's end of the import-validation Port (SPEC B3). It accepts the Port only from this
 * extension's exact offscreen document URL, sends one preview request at a time per call with
 * the digest of its input, and hands the reply to {@link verifyImportReply}. The offscreen
 * document opens this Port right after its main one, so a caller waits briefly for it.
 */
import { canonicalJson, digest, type ImportPreview } from '../../import/import-schema.js';
import { IMPORT_PORT, importInput } from '../../protocol/import-channel.js';
import { RemoteError } from '../../protocol/result.js';
import { OFFSCREEN_PATH } from '../../protocol/offscreen.js';
import { verifyImportReply } from './import-verify.js';

const PORT_WAIT_MS = 10_000;
const REPLY_WAIT_MS = 20_000;

export class ImportChannel {
  #current: chrome.runtime.Port | undefined;
  readonly #waiters = new Set<(port: chrome.runtime.Port) => void>();
  readonly #pending = new Map<number, { resolve: (raw: unknown) => void; reject: (e: Error) => void }>();
  #nextId = 1;

  /** `ensureOffscreen` creates the offscreen document, which then opens this Port. */
  constructor(private readonly ensureOffscreen: () => Promise<unknown>) {}

  /** Called from the worker's top-level `onConnect`. Returns true if the Port was the import Port. */
  accept(port: chrome.runtime.Port): boolean {
    if (port.name !== IMPORT_PORT) return false;
    if (port.sender?.id !== chrome.runtime.id || port.sender?.url !== chrome.runtime.getURL(OFFSCREEN_PATH)) {
      port.disconnect();
      return true;
    }
    this.#current?.disconnect();
    this.#current = port;
    port.onMessage.addListener((message: unknown) => {
      const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
      const waiter = typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (!waiter) return;
      this.#pending.delete(id as number);
      waiter.resolve(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.#current !== port) return;
      this.#current = undefined;
      for (const w of this.#pending.values())
        w.reject(
          new RemoteError({ code: 'offscreen-lost', message: 'The import check stopped before it answered; try again.', action: 'retry' }),
        );
      this.#pending.clear();
    });
    for (const w of this.#waiters) w(port);
    this.#waiters.clear();
    return true;
  }

  async #port(): Promise<chrome.runtime.Port> {
    await this.ensureOffscreen();
    if (this.#current) return this.#current;
    return new Promise<chrome.runtime.Port>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(done);
        reject(new RemoteError({ code: 'offscreen-lost', message: 'The import check could not start; try again.', action: 'retry' }));
      }, PORT_WAIT_MS);
      const done = (port: chrome.runtime.Port) => {
        clearTimeout(timer);
        resolve(port);
      };
      this.#waiters.add(done);
    });
  }

  /** The validated preview of `text` against the saved servers, computed in the offscreen document. */
  async preview(text: string, existing: readonly { name: string; url: string }[]): Promise<ImportPreview> {
    const port = await this.#port();
    const id = this.#nextId++;
    const list = existing.map((s) => ({ name: s.name, url: s.url }));
    const inputDigest = await digest(canonicalJson(importInput(text, list)));
    const raw = await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new RemoteError({ code: 'timeout', message: 'The import check took too long; try again.', action: 'retry' }));
      }, REPLY_WAIT_MS);
      this.#pending.set(id, {
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
}
