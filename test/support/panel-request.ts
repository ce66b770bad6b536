/**
 * Asking the worker from the side panel page the way the panel asks it (src/panel/port-requests.ts,
 * src/panel/panel-port.ts): on a panel Port and its data channel, `{ kind: 'request', id, type,
 * params }`, answered `{ kind: 'response', id, result }`. The worker answers the panel only
 * there, and only the side panel page may open that Port. Connecting wakes a stopped worker, as
 * the panel's own reconnect does.
 */
import type { Page } from 'puppeteer-core';
import { PANEL_PORT } from '../../src/protocol/panel.js';
import { PANEL_CHANNEL } from '../../src/protocol/panel-channel.js';

/**
 * Page code (plain JS: a function handed to Puppeteer is transpiled by tsx first, and the helpers
 * it adds do not exist in the page), shared with the bench (bench/browser-code.ts). Called with a
 * `connect(name)` that opens a Port of that name, it returns `{ request(type, params), close() }`:
 * requests go on one Port, opened when down; each settles with its answer's `result`, or fails if
 * the Port drops first (the worker may have acted on it, so it is never sent again, as in the
 * panel). Like the panel (src/panel/panel-port.ts, protocol/panel-channel.ts), each Port is named
 * `mcp-panel:<nonce>` and comes with a data channel handed to the worker; once the worker's
 * `channel-switch` marker arrives on the Port, requests go on the channel. Answers are matched by
 * id on either transport.
 */
export const PANEL_REQUESTER = String.raw`(connect) => {
  let link = null;
  let nextId = 1;
  const waiting = new Map();
  const answer = (m) => {
    const w = m && m.kind === 'response' ? waiting.get(m.id) : undefined;
    if (w) { waiting.delete(m.id); w.resolve(m.result); }
  };
  const open = () => {
    const nonce = crypto.randomUUID().replace(/-/g, '');
    const p = connect(${JSON.stringify(PANEL_PORT)} + ':' + nonce);
    const l = { port: p, channel: null, onChannel: false };
    const ch = new MessageChannel();
    l.channel = ch.port1;
    ch.port1.onmessage = (e) => answer(e.data);
    navigator.serviceWorker.ready
      .then((r) => r.active.postMessage({ type: ${JSON.stringify(PANEL_CHANNEL)}, nonce }, [ch.port2]))
      .catch(() => undefined);
    p.onMessage.addListener((m) => {
      if (m && m.kind === 'channel-switch') {
        if (!l.onChannel) { p.postMessage(m); l.onChannel = true; }
        return;
      }
      answer(m);
    });
    p.onDisconnect.addListener(() => {
      ch.port1.close();
      if (link === l) link = null;
      for (const [id, w] of waiting) if (w.link === l) { waiting.delete(id); w.reject(new Error('the panel Port dropped before the answer')); }
    });
    link = l;
    return l;
  };
  const request = (type, params) => {
    const l = link || open();
    const id = nextId++;
    const message = { kind: 'request', id, type, params };
    try {
      if (l.onChannel) l.channel.postMessage(message);
      else l.port.postMessage(message);
    } catch {
      // Dropped and not told yet: nothing was sent, a fresh Port takes it.
      link = null;
      return request(type, params);
    }
    return new Promise((resolve, reject) => waiting.set(id, { link: l, resolve, reject }));
  };
  const close = () => {
    if (link) { link.port.disconnect(); link.channel.close(); }
    link = null;
  };
  return { request, close };
}`;

/**
 * Sends one request from the side panel page `page` on a panel Port of its own, opened for it
 * (waking a stopped worker) and closed once answered; resolves with the answer's `result` (a Result
 * envelope `{ ok, value | error }`). Rejects if the Port drops before the answer, which is what
 * the panel sees when the worker stops mid-request.
 */
export async function panelRequest<T = unknown>(page: Page, type: string, params: unknown): Promise<T> {
  return (await page.evaluate(`(async () => {
    const requester = (${PANEL_REQUESTER})((name) => chrome.runtime.connect({ name }));
    try {
      return await requester.request(${JSON.stringify(type)}, ${JSON.stringify(params)});
    } finally {
      requester.close();
    }
  })()`)) as T;
}
