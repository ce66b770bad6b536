/**
 * The direct data channel between the worker and the offscreen document. The chrome.runtime Port
 * (`OFFSCREEN_PORT`) stays for the lifecycle (waking the worker, the hello, onDisconnect, the
 * reconnect, owner fencing); requests, responses and events move to a `MessageChannel` once both
 * ends hold it, because every chrome.runtime message is routed and JSON-serialised through the
 * browser process (≈ 0.9 ms per message on each side measured) and a MessagePort's is not.
 *
 * Pairing: the document names its Port `mcp-offscreen:<nonce>` and hands one end of a new
 * `MessageChannel` to the extension's service worker with `navigator.serviceWorker` together with
 * the same nonce. The worker takes a MessagePort only from its exact offscreen document URL and
 * only with the nonce of its current Port; a new Port means a new channel.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { randomId } from '../common/random-id.js';
import { OFFSCREEN_PORT } from './offscreen.js';

/** `type` of the service-worker message that carries the document's end of the channel. */
export const OFFSCREEN_CHANNEL = 'offscreen:channel';

/** The only marker the link consumes itself: "from now on I send on the channel". */
const SWITCH = { kind: 'channel-switch' } as const;

const nonce = lazySchema(() => z.string().check(z.regex(/^[A-Za-z0-9]{16,64}$/)));

/** The service-worker message offering a channel; nothing else is accepted with a port. */
export const ChannelOfferSchema = channelOfferSchema(OFFSCREEN_CHANNEL);

/** The Port name that carries `nonce`, so the worker knows it the moment the Port connects. */
export function offscreenPortName(value: string): string {
  return `${OFFSCREEN_PORT}:${value}`;
}

/** The nonce in a Port name `<prefix>:<nonce>`; undefined for any other name (also the bare prefix). */
export function nonceAfter(prefix: string, name: string): string | undefined {
  if (!name.startsWith(`${prefix}:`)) return undefined;
  const parsed = nonce.safeParse(name.slice(prefix.length + 1));
  return parsed.success ? parsed.data : undefined;
}

/** The nonce of an offscreen Port's name; undefined for any other name (also the bare `OFFSCREEN_PORT`). */
export function nonceOfPortName(name: string): string | undefined {
  return nonceAfter(OFFSCREEN_PORT, name);
}

/** A channel offer `{type, nonce}` of the given type; nothing else is accepted with a port. */
export function channelOfferSchema<T extends string>(type: T) {
  return lazySchema(() => z.strictObject({ type: z.literal(type), nonce }));
}

/**
 * In a page (the offscreen document, the side panel): hands `channel` to this extension's service
 * worker as a `{type, nonce}` offer. The `ready` registration's active worker is ours; `controller`
 * is null, since extension pages are not controlled by it.
 */
export async function offerToServiceWorker(type: string, channel: MessagePort, nonceValue: string): Promise<void> {
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) throw new Error('no active service worker');
  worker.postMessage({ type, nonce: nonceValue }, [channel]);
}

export function newChannelNonce(): string {
  return randomId();
}

/**
 * In a page: opens a new channel for `link`, attaches this end and hands the other to `offer`.
 * Unanswered or refused, the offer changes nothing: the worker never switches, so neither does
 * this side, and everything stays on the Port. `who` names the page in the warning.
 */
export function offerNewChannel(link: ChannelLink, offer: (channel: MessagePort) => Promise<void>, who: string): void {
  const channel = new MessageChannel();
  link.attach(channel.port1 as LinkChannel);
  offer(channel.port2).catch((e: unknown) => console.warn(`[${who}] the data channel was not offered; staying on the Port`, e));
}

/** The service-worker `message` event as the worker reads it (`source` is a `WindowClient`). */
export interface ChannelOfferEvent {
  data: unknown;
  ports: readonly LinkChannel[];
  source: unknown;
}

/**
 * In the worker: the one port of an offer whose client is at the expected page (`fromPage` of its
 * URL), or undefined after refusing it: every port it carried is closed and `warning` logged.
 */
export function offeredChannel(event: ChannelOfferEvent, fromPage: (url: string) => boolean, warning: string): LinkChannel | undefined {
  const url = (event.source as { url?: unknown } | null)?.url;
  if (typeof url === 'string' && fromPage(url) && event.ports.length === 1) return event.ports[0];
  console.warn(warning);
  for (const p of event.ports) p.close();
  return undefined;
}

/**
 * In the worker: `channel` becomes `link`'s and the worker's messages move to it (the peer follows
 * at the marker). A link that already has a channel keeps it and the newcomer is closed.
 */
export function pairChannel(link: ChannelLink, channel: LinkChannel): boolean {
  if (!link.attach(channel)) {
    channel.close();
    return false;
  }
  link.switchOutbound();
  return true;
}

function isSwitch(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === SWITCH.kind;
}

/** What the link needs of a chrome.runtime Port. */
export interface LinkPort {
  postMessage(message: unknown): void;
  onMessage: { addListener(cb: (message: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
}

/** What the link needs of a MessagePort (the DOM's, or Node's in tests). */
export interface LinkChannel {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/**
 * One ordered message stream in each direction over two transports: the chrome Port until the
 * sender switches, then the channel. Ordering at the switch-over is kept by a marker, since the
 * two transports are not ordered with each other (a Port message goes through the browser
 * process and can be overtaken by a later channel message):
 * - a sender switches by posting `{kind: 'channel-switch'}` as its last Port message and
 *   everything after it on the channel;
 * - a receiver delivers channel messages only once it has read that marker on the Port, holding
 *   any that overtook it until then.
 * So each side sees the other's messages in the order they were sent, exactly as on the Port
 * alone: the worker's claim stays ahead of the requests fenced by it, and the document's events
 * (session-lost, list-changed, progress) stay where they were relative to its responses, which is
 * what the manager assumes. The worker switches when it pairs; the document switches when it reads
 * the worker's marker (proof that the worker holds the channel), so a channel that never pairs is
 * never used: everything keeps going over the Port.
 * Lifecycle stays the Port's: onDisconnect is the Port's, and the channel is closed with it.
 */
export class ChannelLink {
  #channel: LinkChannel | undefined;
  #sending = false;
  #receiving = false;
  /** Channel messages that overtook the peer's marker on the Port; delivered right after it. */
  #early: unknown[] = [];
  readonly #listeners = new Set<(message: unknown) => void>();
  /** Messages this end sent and received on the channel (tests and diagnostics read them). */
  sentOnChannel = 0;
  receivedOnChannel = 0;

  readonly onMessage = { addListener: (cb: (message: unknown) => void) => void this.#listeners.add(cb) };
  readonly onDisconnect: LinkPort['onDisconnect'];

  constructor(readonly port: LinkPort) {
    this.onDisconnect = port.onDisconnect;
    port.onMessage.addListener((message) => {
      if (!isSwitch(message)) return this.#deliver(message);
      if (!this.#channel || this.#receiving) return;
      this.#receiving = true;
      for (const early of this.#early.splice(0)) this.#deliver(early);
      // The peer holds the channel: answer on it too (idempotent on the side that switched first).
      this.switchOutbound();
    });
    port.onDisconnect.addListener(() => this.close());
  }

  /** Whether messages to the peer go on the channel now. */
  get onChannel(): boolean {
    return this.#sending;
  }

  /** Takes this end of the channel; inbound channel messages wait for the peer's marker. Once per link. */
  attach(channel: LinkChannel): boolean {
    if (this.#channel) return false;
    this.#channel = channel;
    channel.onmessage = (event) => {
      if (this.#channel !== channel) return;
      this.receivedOnChannel++;
      if (this.#receiving) this.#deliver(event.data);
      else this.#early.push(event.data);
    };
    return true;
  }

  /** From now on, post on the channel (after the marker on the Port). */
  switchOutbound(): void {
    if (!this.#channel || this.#sending) return;
    this.port.postMessage(SWITCH);
    this.#sending = true;
  }

  postMessage(message: unknown): void {
    if (!this.#sending || !this.#channel) return this.port.postMessage(message);
    this.#channel.postMessage(message);
    this.sentOnChannel++;
  }

  /** Closes the channel (with its Port, or when the Port is replaced); later messages go nowhere. */
  close(): void {
    const channel = this.#channel;
    if (!channel) return;
    channel.onmessage = null;
    channel.close();
    this.#early = [];
  }

  #deliver(message: unknown) {
    for (const l of this.#listeners) l(message);
  }
}
