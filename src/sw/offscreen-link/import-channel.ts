/**
 * The worker's end of the import-validation Port (SPEC B3). It accepts the Port only from this
 * extension's exact offscreen document URL, sends one preview request at a time per call with
 * the digest of its input, and hands the reply to {@link verifyImportReply}. The offscreen
 * document opens this Port right after its main one, so a caller waits briefly for it. A
 * document that outlived the worker it opened its Port to is asked for a new one (C7): without
 * that, import would fail for good after the first worker stop.
 */
import { canonicalJson, digest, type ImportPreview } from '../../import/import-schema.js';
import { IMPORT_PORT, IMPORT_RECONNECT, importInput } from '../../protocol/import-channel.js';
import { RemoteError } from '../../protocol/result.js';
import { say, type ReasonCode } from '../../protocol/wording.js';
import { OFFSCREEN_PATH } from '../../protocol/offscreen.js';
import { RequestPeer, type ReadAnswer } from '../../protocol/request-peer.js';
import { verifyImportReply } from './import-verify.js';

const PORT_WAIT_MS = 10_000;
const REPLY_WAIT_MS = 20_000;

/** A message with a numeric id answers that request; the whole message is checked afterwards (import-verify.ts). */
function readImportReply(message: unknown): ReadAnswer {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'number' ? { id, result: message } : 'malformed';
}

/** Worded, so the panel says it in the user's language. */
const retry = (code: 'offscreen-lost' | 'timeout', reason: ReasonCode & `reasonImportCheck${string}`) => () =>
  new RemoteError({ code, ...say(reason), action: 'retry' });

/** Asks a document that outlived an earlier worker to open its import Port to this one; no receiver is fine. */
function askDocumentForPort() {
  try {
    void chrome.runtime.sendMessage({ type: IMPORT_RECONNECT }).catch(() => undefined);
  } catch {
    // No messaging here (a test's fake runtime): the caller's wait runs out and says so.
  }
}

export class ImportChannel {
  #current: chrome.runtime.Port | undefined;
  readonly #waiters = new Set<(port: chrome.runtime.Port) => void>();
  readonly #peer = new RequestPeer<chrome.runtime.Port>({
    label: 'import-channel',
    read: readImportReply,
    lost: retry('offscreen-lost', 'reasonImportCheckStopped'),
    timedOut: retry('timeout', 'reasonImportCheckTimedOut'),
  });

  /**
   * `ensureOffscreen` creates the offscreen document, which then opens this Port; `askForPort`
   * asks a document that already exists for a new one.
   */
  constructor(
    private readonly ensureOffscreen: () => Promise<unknown>,
    private readonly askForPort: () => void = askDocumentForPort,
  ) {}

  /** Called from the worker's top-level `onConnect`. Returns true if the Port was the import Port. */
  accept(port: chrome.runtime.Port): boolean {
    if (port.name !== IMPORT_PORT) return false;
    if (port.sender?.id !== chrome.runtime.id || port.sender?.url !== chrome.runtime.getURL(OFFSCREEN_PATH)) {
      port.disconnect();
      return true;
    }
    const replaced = this.#current;
    if (replaced) {
      // disconnect() fires no onDisconnect on this end: the requests on the old Port fail here.
      replaced.disconnect();
      this.#peer.closed(replaced);
    }
    this.#current = port;
    port.onMessage.addListener((message: unknown) => void this.#peer.receive(message));
    port.onDisconnect.addListener(() => {
      if (this.#current !== port) return;
      this.#current = undefined;
      this.#peer.closed(port);
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
        reject(retry('offscreen-lost', 'reasonImportCheckNotStarted')());
      }, PORT_WAIT_MS);
      const done = (port: chrome.runtime.Port) => {
        clearTimeout(timer);
        resolve(port);
      };
      this.#waiters.add(done);
      this.askForPort();
    });
  }

  /** The validated preview of `text` against the saved servers, computed in the offscreen document. */
  async preview(text: string, existing: readonly { name: string; url: string }[]): Promise<ImportPreview> {
    const port = await this.#port();
    const list = existing.map((s) => ({ name: s.name, url: s.url }));
    const inputDigest = await digest(canonicalJson(importInput(text, list)));
    let sentId = -1;
    const raw = await this.#peer.request(port, (id) => ({ kind: 'import:preview', id: (sentId = id), text, existing: list, inputDigest }), {
      timeoutMs: REPLY_WAIT_MS,
    });
    return verifyImportReply(inputDigest, sentId, raw);
  }
}
