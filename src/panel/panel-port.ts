/**
 * The panel's Port to the worker: every request of the panel and its answer travel on it
 * (port-requests.ts, on the shared request peer), and the worker pushes on it (state, approvals,
 * chat, activity). It is lazy: when the worker stops (about 30 s idle) the
 * Port drops and stays down until the user does something in the panel (a key, a pointer), the
 * panel becomes visible or focused again, or a request is sent. Connecting brings a fresh state
 * (the worker pushes it on connect) and wakes a stopped worker. An idle open panel therefore lets the worker sleep; reconnecting
 * on a timer woke it every ~30 s forever. A worker that starts for another reason (a chat run going
 * on, an agent's call) asks open panels to reconnect (`PANEL_RECONNECT`), which wakes nothing.
 */
import { PANEL_PORT, PANEL_RECONNECT } from '../protocol/panel.js';
import { PortRequests } from './port-requests.js';

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
  let port: chrome.runtime.Port | undefined;
  let connectedBefore = false;
  const lost = (p: chrome.runtime.Port) => {
    if (port !== p) return;
    port = undefined;
    requests.portDropped(p);
    hooks.dropped?.();
  };
  const connect = (): chrome.runtime.Port => {
    if (port) return port;
    const p = chrome.runtime.connect({ name: PANEL_PORT });
    port = p;
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
