/**
 * The Port the worker pushes state on. It is lazy: when the worker stops (about 30 s idle) the
 * Port drops and stays down until the user does something in the panel (a key, a pointer), the
 * panel becomes visible or focused again, or a request is sent. Connecting brings a fresh state
 * (the worker pushes it on connect). An idle open panel therefore lets the worker sleep; reconnecting
 * on a timer woke it every ~30 s forever. A worker that starts for another reason (a chat run going
 * on, an agent's call) asks open panels to reconnect (`PANEL_RECONNECT`), which wakes nothing.
 */
import { PANEL_PORT, PANEL_RECONNECT } from '../protocol/panel.js';

export interface StatePortHooks {
  /** The Port dropped (the worker stopped). */
  dropped?(): void;
  /** The Port is up again after a drop. */
  reconnected?(): void;
}

export function setUpStatePort(onMessage: (message: unknown) => void, hooks: StatePortHooks = {}): () => void {
  let port: chrome.runtime.Port | undefined;
  let connectedBefore = false;
  const connect = () => {
    if (port) return;
    const p = chrome.runtime.connect({ name: PANEL_PORT });
    port = p;
    p.onMessage.addListener(onMessage);
    p.onDisconnect.addListener(() => {
      if (port !== p) return;
      port = undefined;
      hooks.dropped?.();
    });
    if (connectedBefore) hooks.reconnected?.();
    connectedBefore = true;
  };
  const wake = () => {
    if (!port && document.visibilityState === 'visible') connect();
  };
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    if (sender.id === chrome.runtime.id && (message as { type?: unknown } | null)?.type === PANEL_RECONNECT) connect();
  });
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('focus', wake);
  document.addEventListener('pointerdown', wake, true);
  document.addEventListener('keydown', wake, true);
  connect();
  return connect;
}
