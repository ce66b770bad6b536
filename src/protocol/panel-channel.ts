/**
 * The side panel's data channel to the worker, beside its Port (the pattern of the offscreen
 * document's, offscreen-channel.ts). Every chrome.runtime message is routed and JSON-serialised
 * through the browser process, and each panel request and its answer cost two such messages; once
 * paired, requests, answers and pushes go on a `MessageChannel` instead. The panel names its Port
 * `mcp-panel:<nonce>` and hands one end of a new channel to the worker with the same nonce; the
 * worker takes it only from this extension's side panel page and only with the nonce of one of
 * its current panel Ports. A Port named plainly `mcp-panel` (the tests' requester) keeps
 * everything on the Port.
 */
import { nonceAfter, channelOfferSchema } from './offscreen-channel.js';
import { PANEL_PORT } from './panel.js';

/** `type` of the service-worker message that carries the panel's end of its channel. */
export const PANEL_CHANNEL = 'panel:channel';

export const PanelChannelOfferSchema = channelOfferSchema(PANEL_CHANNEL);

/** The panel Port name that carries `nonce`. */
export function panelPortName(nonce: string): string {
  return `${PANEL_PORT}:${nonce}`;
}

/** Whether `name` is a panel Port's: `mcp-panel`, or `mcp-panel:<nonce>` with a channel to pair. */
export function isPanelPortName(name: string): boolean {
  return name === PANEL_PORT || nonceOfPanelPort(name) !== undefined;
}

export function nonceOfPanelPort(name: string): string | undefined {
  return nonceAfter(PANEL_PORT, name);
}
