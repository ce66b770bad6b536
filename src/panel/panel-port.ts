/**
 * The panel's Port to the worker: every request of the panel and its answer travel on it
 * (port-requests.ts, on the shared request peer), and the worker pushes on it (state, approvals,
 * chat, activity); once the worker pairs the Port with the panel's data channel
 * (protocol/panel-channel.ts), all of that goes on the channel and the Port stays for the lifecycle. It is lazy: when the worker stops (about 30 s idle) the
 * Port drops and stays down until the user does something in the panel (a key, a pointer), the
 * panel becomes visible or focused again, or a request is sent. Connecting brings a fresh state
 * (the worker pushes it on connect) and wakes a stopped worker. An idle open panel therefore lets the worker sleep; reconnecting
 * on a timer woke it every ~30 s forever. A worker that starts for another reason (a chat run going
 * on, an agent's call) asks open panels to reconnect (`PANEL_RECONNECT`), which wakes nothing.
 */
import { PANEL_RECONNECT } from '../protocol/panel.js';
import { PANEL_CHANNEL, panelPortName } from '../protocol/panel-channel.js';
import { ChannelLink, newChannelNonce, offerNewChannel, offerToServiceWorker } from '../protocol/offscreen-channel.js';
import { PortRequests } from './port-requests.js';

/**
 * Hands the worker the other end of a new channel for `link` (protocol/panel-channel.ts).
 * Unanswered or refused, nothing changes: the worker never switches, so neither does the panel.
 */
function offerChannel(link: ChannelLink, nonce: string) {
  if (!('serviceWorker' in navigator)) return;
  offerNewChannel(link, (channel) => offerToServiceWorker(PANEL_CHANNEL, channel, nonce), 'panel');
}

export interface PanelPortHooks {
  /** The Port dropped (the worker stopped). */
  dropped?(): void;
  /** The Port is up again after a drop. */
  reconnected?(): void;
}

export interface PanelPort {
  /** Connects the Port now if it is down (waking a stopped worker). */
  reconnect: () => void;
  /** Sends a request on the Port, connecting it first if it is down; settles with the answer's `result`. */
  request: (type: string, params: unknown) => Promise<unknown>;
}

export function setUpPanelPort(onPush: (message: unknown) => void, hooks: PanelPortHooks = {}): PanelPort {
  const requests = new PortRequests();
  let port: ChannelLink | undefined;
  let connectedBefore = false;
  const lost = (p: ChannelLink) => {
    if (port !== p) return;
    port = undefined;
    requests.portDropped(p);
    hooks.dropped?.();
  };
  const connect = (): ChannelLink => {
    if (port) return port;
    // Requests, answers and pushes move to a data channel once the worker pairs it with this Port.
    const nonce = newChannelNonce();
    const p = new ChannelLink(chrome.runtime.connect({ name: panelPortName(nonce) }));
    port = p;
    offerChannel(p, nonce);
    p.onMessage.addListener((message: unknown) => {
      if (!requests.receive(message)) onPush(message);
    });
    p.onDisconnect.addListener(() => lost(p));
    if (connectedBefore) hooks.reconnected?.();
    connectedBefore = true;
    return p;
  };
  const wake = () => {
    if (!port && document.visibilityState === 'visible') connect();
  };
  const request = (type: string, params: unknown) => {
    const p = connect();
    try {
      return requests.send(p, type, params);
    } catch {
      // The worker stopped and the drop is not delivered yet: nothing was sent, so a fresh Port takes it.
      lost(p);
      return requests.send(connect(), type, params);
    }
  };
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    if (sender.id === chrome.runtime.id && (message as { type?: unknown } | null)?.type === PANEL_RECONNECT) connect();
  });
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('focus', wake);
  document.addEventListener('pointerdown', wake, true);
  document.addEventListener('keydown', wake, true);
  connect();
  return { reconnect: () => void connect(), request };
}
