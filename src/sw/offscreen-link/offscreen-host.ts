/**
 * Creates the offscreen SDK host on demand, once (SPEC D3), and hands out the Port it opens
 * back to this worker. A document that exists without a Port to this worker instance belongs to
 * a previous worker: it is closed and replaced, never reused (SPEC C6).
 */
import { OFFSCREEN_PATH, OFFSCREEN_PORT } from '../../protocol/offscreen.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** How long a previous worker's document gets to close itself before it is closed by force. */
const OLD_DOCUMENT_GRACE_MS = 1_000;

export class OffscreenHost {
  #current: chrome.runtime.Port | undefined;
  #pending: Promise<chrome.runtime.Port> | undefined;
  #waiter: ((port: chrome.runtime.Port) => void) | undefined;
  readonly #lostListeners = new Set<() => void>();

  /** Called from the worker's top-level `onConnect` listener. Returns true if the port was ours. */
  accept(port: chrome.runtime.Port): boolean {
    if (port.name !== OFFSCREEN_PORT) return false;
    const expectedUrl = chrome.runtime.getURL(OFFSCREEN_PATH);
    if (port.sender?.id !== chrome.runtime.id || port.sender?.url !== expectedUrl) {
      port.disconnect();
      return true;
    }
    const replaced = this.#current;
    this.#current = port;
    if (replaced) {
      // Chrome fires onDisconnect only on the other end: tell our own listeners that every
      // session of the replaced document is gone, or their requests would wait forever.
      replaced.disconnect();
      for (const l of this.#lostListeners) l();
    }
    port.onDisconnect.addListener(() => {
      if (this.#current !== port) return;
      this.#current = undefined;
      for (const l of this.#lostListeners) l();
    });
    this.#waiter?.(port);
    this.#waiter = undefined;
    return true;
  }

  onLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    return () => this.#lostListeners.delete(listener);
  }

  /** Single-flight: concurrent callers share one creation; cleared in `finally`, also on failure. */
  ensure(): Promise<chrome.runtime.Port> {
    if (this.#current) return Promise.resolve(this.#current);
    this.#pending ??= this.#create().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #create(): Promise<chrome.runtime.Port> {
    const url = chrome.runtime.getURL(OFFSCREEN_PATH);
    const exists = async () =>
      (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] })).length > 0;
    if (await exists()) {
      // A previous worker's document closes itself once its Port is gone, ending its sessions
      // cleanly; give it that moment before forcing it, so the server is told (SPEC C6, C7).
      const deadline = Date.now() + OLD_DOCUMENT_GRACE_MS;
      while (!this.#current && Date.now() < deadline && (await exists())) await new Promise((r) => setTimeout(r, 50));
      // A document still starting when the old worker stopped connects here instead: it holds no
      // session yet, so it is ours to use.
      if (this.#current) return this.#current;
      if (await exists()) await chrome.offscreen.closeDocument().catch(() => undefined);
    }
    // Only a document created below may answer the waiter: one closed above must not.
    const connected = new Promise<chrome.runtime.Port>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(Object.assign(new Error('The MCP host document did not start.'), { code: 'offscreen-lost' })),
        CONNECT_TIMEOUT_MS,
      );
      this.#waiter = (port) => {
        clearTimeout(timer);
        resolve(port);
      };
    });
    await chrome.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'Hosts the MCP client sessions (streaming HTTP connections) for the remote servers the user added.',
    });
    return connected;
  }
}
