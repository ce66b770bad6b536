/**
 * The worker's end of the side panels' data channels (protocol/panel-channel.ts): each panel Port
 * is wrapped in a {@link ChannelLink}, which carries everything on the Port until the panel's
 * channel pairs with it and on the channel after. A channel is taken only from a client at this
 * extension's side panel page, only as an offer of the panel shape with one port, and only for
 * the nonce of a panel Port this worker holds; an offer that overtakes its Port waits for it (a
 * few at most).
 */
import {
  ChannelLink,
  offeredChannel,
  pairChannel,
  type ChannelOfferEvent,
  type LinkChannel,
  type LinkPort,
} from '../../protocol/offscreen-channel.js';
import { nonceOfPanelPort, PanelChannelOfferSchema } from '../../protocol/panel-channel.js';

/** Offers held for a Port still on its way; older ones are given up. */
const MAX_WAITING_OFFERS = 4;

export interface PanelChannelStats {
  /** Panel channels this worker instance paired with a Port. */
  pairings: number;
  /** Messages sent and received on panel channels. */
  sent: number;
  received: number;
}

export class PanelChannels {
  readonly #links = new Map<string, ChannelLink>();
  readonly #offers = new Map<string, LinkChannel>();
  readonly #panelUrl: string;
  #pairings = 0;
  /** Counts of links already closed, so the stats stay cumulative. */
  #sentBefore = 0;
  #receivedBefore = 0;

  /** `panelUrl`: the side panel page's URL (`chrome.runtime.getURL('sidepanel.html')`). */
  constructor(panelUrl: string) {
    this.#panelUrl = panelUrl;
  }

  /** The link over a panel Port just accepted; it pairs with its channel when that comes. */
  link(port: LinkPort & { name: string }): ChannelLink {
    const link = new ChannelLink(port);
    const nonce = nonceOfPanelPort(port.name);
    if (nonce === undefined) return link;
    this.#links.set(nonce, link);
    port.onDisconnect.addListener(() => {
      if (this.#links.get(nonce) !== link) return;
      this.#links.delete(nonce);
      this.#sentBefore += link.sentOnChannel;
      this.#receivedBefore += link.receivedOnChannel;
    });
    const offer = this.#offers.get(nonce);
    this.#offers.delete(nonce);
    if (offer) this.#pair(link, offer);
    return link;
  }

  /** Called with every message a client posts to the worker. Returns true if it was a panel channel offer. */
  accept(event: ChannelOfferEvent): boolean {
    const offer = PanelChannelOfferSchema.safeParse(event.data);
    if (!offer.success) return false;
    const channel = offeredChannel(
      event,
      (url) => url.startsWith(this.#panelUrl),
      '[sw] refused a panel channel offer that did not come from the side panel',
    );
    if (!channel) return true;
    const link = this.#links.get(offer.data.nonce);
    if (link) {
      this.#pair(link, channel);
      return true;
    }
    this.#offers.get(offer.data.nonce)?.close();
    this.#offers.set(offer.data.nonce, channel);
    for (const [nonce, held] of this.#offers) {
      if (this.#offers.size <= MAX_WAITING_OFFERS) break;
      held.close();
      this.#offers.delete(nonce);
    }
    return true;
  }

  stats(): PanelChannelStats {
    const links = [...this.#links.values()];
    return {
      pairings: this.#pairings,
      sent: this.#sentBefore + links.reduce((n, l) => n + l.sentOnChannel, 0),
      received: this.#receivedBefore + links.reduce((n, l) => n + l.receivedOnChannel, 0),
    };
  }

  #pair(link: ChannelLink, channel: LinkChannel) {
    if (pairChannel(link, channel)) this.#pairings++;
  }
}
