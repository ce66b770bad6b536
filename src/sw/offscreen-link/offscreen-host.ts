/**
 * Creates the offscreen SDK host on demand, once (SPEC D3), and hands out the Port it opens
 * back to this worker. A document that outlived a previous worker instance keeps its sessions:
 * it is asked to open its Port to this instance, which then claims it and adopts what matches
 * (SPEC C6, C7). Only a document that does not answer is closed and replaced; otherwise the
 * document is closed only deliberately ({@link OffscreenHost.close}).
 */
import { OFFSCREEN_PATH, OFFSCREEN_PORT, OFFSCREEN_RECONNECT } from '../../protocol/offscreen.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** How long a document that outlived the previous worker gets to open its Port to this one. */
const RECONNECT_TIMEOUT_MS = 3_000;

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
    this.#pending ??= this.#settle(this.#create());
    return this.#pending;
  }

  /** Makes `flight` the single one, cleared in `finally`, also on failure. */
  #settle(flight: Promise<chrome.runtime.Port>): Promise<chrome.runtime.Port> {
    const pending: Promise<chrome.runtime.Port> = flight.finally(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    return pending;
  }

  /**
   * Start-up, which a woken call waits for: asks a document that outlived the previous worker to
   * connect here while checking that one exists, two round trips side by side rather than one
   * after the other. Resolves whether a document exists; if it does, `ensure()` waits for its Port.
   */
  async findExisting(): Promise<boolean> {
    const asked = this.#current ? undefined : this.#askForPort();
    const exists = await this.exists();
    if (exists && asked) this.#pending ??= this.#settle(this.#reconnected(asked));
    return exists;
  }

  /** Whether an offscreen document exists (whoever created it). */
  async exists(): Promise<boolean> {
    const url = chrome.runtime.getURL(OFFSCREEN_PATH);
    return (
      (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] })).length > 0
    );
  }

  /** Closes the document and every session in it: a deliberate act, never a Port side effect. */
  async close(): Promise<void> {
    if (!(await this.exists())) return;
    await chrome.offscreen.closeDocument().catch(() => undefined);
  }

  /** Resolves with the next Port the document opens, or undefined after `ms`. */
  #nextPort(ms: number): Promise<chrome.runtime.Port | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.#waiter === waiter) this.#waiter = undefined;
        resolve(undefined);
      }, ms);
      const waiter = (port: chrome.runtime.Port) => {
        clearTimeout(timer);
        resolve(port);
      };
      this.#waiter = waiter;
    });
  }

  /** Asks a previous worker's document, still holding its sessions, to connect here. */
  #askForPort(): Promise<chrome.runtime.Port | undefined> {
    const next = this.#nextPort(RECONNECT_TIMEOUT_MS);
    void chrome.runtime.sendMessage({ type: OFFSCREEN_RECONNECT }).catch(() => undefined);
    return next;
  }

  async #create(): Promise<chrome.runtime.Port> {
    return (await this.exists()) ? this.#reconnected(this.#askForPort()) : this.#createDocument();
  }

  async #reconnected(asked: Promise<chrome.runtime.Port | undefined>): Promise<chrome.runtime.Port> {
    const port = this.#current ?? (await asked);
    if (port) return port;
    // It did not answer: it is broken, and its sessions with it.
    await chrome.offscreen.closeDocument().catch(() => undefined);
    return this.#createDocument();
  }

  async #createDocument(): Promise<chrome.runtime.Port> {
    const connected = this.#nextPort(CONNECT_TIMEOUT_MS).then((port) => {
      if (!port) throw Object.assign(new Error('The MCP host document did not start.'), { code: 'offscreen-lost' });
      return port;
    });
    await chrome.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'Hosts the MCP client sessions (streaming HTTP connections) for the remote servers the user added.',
    });
    return connected;
  }
}
