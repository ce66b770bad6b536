/**
 * Creates the offscreen SDK host on demand, once (SPEC D3), and hands out the Port it opens
 * back to this worker. A document that outlived a previous worker instance keeps its sessions:
 * it is asked to open its Port to this instance, which then claims it and adopts what matches
 * (SPEC C6, C7). Only a document that does not answer is closed and replaced; otherwise the
 * document is closed only deliberately ({@link OffscreenHost.close}).
 */
import { OFFSCREEN_PATH, OFFSCREEN_RECONNECT } from '../../protocol/offscreen.js';
import {
  ChannelLink,
  ChannelOfferSchema,
  nonceOfPortName,
  offeredChannel,
  pairChannel,
  type ChannelOfferEvent,
  type LinkChannel,
} from '../../protocol/offscreen-channel.js';
import { RemoteError } from '../../protocol/result.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** How long a document that outlived the previous worker gets to open its Port to this one. */
const RECONNECT_TIMEOUT_MS = 3_000;

export interface OffscreenChannelStats {
  /** Channels this worker instance paired with a Port. */
  pairings: number;
  /** Whether requests go on the current Port's channel now. */
  onChannel: boolean;
  /** Messages sent and received on the current channel. */
  sent: number;
  received: number;
}

interface Current {
  port: chrome.runtime.Port;
  nonce: string;
  link: ChannelLink;
}

export class OffscreenHost {
  #current: Current | undefined;
  #pending: Promise<ChannelLink> | undefined;
  #waiter: ((link: ChannelLink) => void) | undefined;
  /** A channel that arrived before its Port (the two travel separately); at most one is held. */
  #offer: { nonce: string; channel: LinkChannel } | undefined;
  readonly #lostListeners = new Set<() => void>();
  /** Channels paired by this worker instance. */
  #pairings = 0;

  /** Called from the worker's top-level `onConnect` listener. Returns true if the port was ours. */
  accept(port: chrome.runtime.Port): boolean {
    const nonce = nonceOfPortName(port.name);
    if (nonce === undefined) return false;
    const expectedUrl = chrome.runtime.getURL(OFFSCREEN_PATH);
    if (port.sender?.id !== chrome.runtime.id || port.sender?.url !== expectedUrl) {
      port.disconnect();
      return true;
    }
    const replaced = this.#current;
    const current: Current = { port, nonce, link: new ChannelLink(port) };
    this.#current = current;
    if (replaced) {
      // Chrome fires onDisconnect only on the other end: tell our own listeners that every
      // session of the replaced document is gone, or their requests would wait forever.
      replaced.port.disconnect();
      replaced.link.close();
      for (const l of this.#lostListeners) l();
    }
    port.onDisconnect.addListener(() => {
      if (this.#current !== current) return;
      this.#current = undefined;
      for (const l of this.#lostListeners) l();
    });
    if (this.#offer?.nonce === nonce) this.#pair(current, this.#offer.channel);
    else this.#offer?.channel.close();
    this.#offer = undefined;
    this.#waiter?.(current.link);
    this.#waiter = undefined;
    return true;
  }

  /**
   * Called from the worker's top-level `message` listener with every message a client posts to
   * the worker. Takes a channel only from this extension's exact offscreen document URL, shaped
   * as an offer, with one port; pairs it with the current Port if the nonce is that Port's, or
   * keeps it (one at most) for the Port it came with. Returns true if the message was an offer.
   */
  acceptChannel(event: ChannelOfferEvent): boolean {
    const offer = ChannelOfferSchema.safeParse(event.data);
    if (!offer.success) return false;
    const expectedUrl = chrome.runtime.getURL(OFFSCREEN_PATH);
    const channel = offeredChannel(
      event,
      (url) => url === expectedUrl,
      '[offscreen-host] refused a channel offer that did not come from the offscreen document',
    );
    if (!channel) return true;
    if (this.#current?.nonce === offer.data.nonce) {
      this.#pair(this.#current, channel);
      return true;
    }
    // Its Port may still be on its way; any earlier unmatched offer is given up.
    this.#offer?.channel.close();
    this.#offer = { nonce: offer.data.nonce, channel };
    return true;
  }

  /** Whether requests go on the channel now, and how many went and came on it (tests and diagnostics). */
  channelStats(): OffscreenChannelStats {
    const link = this.#current?.link;
    return {
      pairings: this.#pairings,
      onChannel: link?.onChannel ?? false,
      sent: link?.sentOnChannel ?? 0,
      received: link?.receivedOnChannel ?? 0,
    };
  }

  #pair(current: Current, channel: LinkChannel) {
    if (pairChannel(current.link, channel)) this.#pairings++;
  }

  onLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    return () => this.#lostListeners.delete(listener);
  }

  /**
   * Single-flight: concurrent callers share one creation; cleared in `finally`, also on failure.
   * Resolves with the link over the current Port: on its channel once paired, on the Port before.
   */
  ensure(): Promise<ChannelLink> {
    if (this.#current) return Promise.resolve(this.#current.link);
    this.#pending ??= this.#settle(this.#create());
    return this.#pending;
  }

  /** Makes `flight` the single one, cleared in `finally`, also on failure. */
  #settle(flight: Promise<ChannelLink>): Promise<ChannelLink> {
    const pending: Promise<ChannelLink> = flight.finally(() => {
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
  #nextPort(ms: number): Promise<ChannelLink | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.#waiter === waiter) this.#waiter = undefined;
        resolve(undefined);
      }, ms);
      const waiter = (link: ChannelLink) => {
        clearTimeout(timer);
        resolve(link);
      };
      this.#waiter = waiter;
    });
  }

  /** Asks a previous worker's document, still holding its sessions, to connect here. */
  #askForPort(): Promise<ChannelLink | undefined> {
    const next = this.#nextPort(RECONNECT_TIMEOUT_MS);
    void chrome.runtime.sendMessage({ type: OFFSCREEN_RECONNECT }).catch(() => undefined);
    return next;
  }

  async #create(): Promise<ChannelLink> {
    return (await this.exists()) ? this.#reconnected(this.#askForPort()) : this.#createDocument();
  }

  async #reconnected(asked: Promise<ChannelLink | undefined>): Promise<ChannelLink> {
    const link = this.#current?.link ?? (await asked);
    if (link) return link;
    // It did not answer: it is broken, and its sessions with it.
    await chrome.offscreen.closeDocument().catch(() => undefined);
    return this.#createDocument();
  }

  async #createDocument(): Promise<ChannelLink> {
    const connected = this.#nextPort(CONNECT_TIMEOUT_MS).then((port) => {
      if (!port) throw new RemoteError({ code: 'offscreen-lost', message: 'The MCP host document did not start.' });
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
