/**
 * Asking the worker from the side panel page the way the panel asks it (src/panel/port-requests.ts,
 * src/panel/panel-port.ts): on a Port named PANEL_PORT, `{ kind: 'request', id, type, params }`,
 * answered `{ kind: 'response', id, result }` on the same Port. The worker answers the panel only
 * there, and only the side panel page may open that Port. Connecting wakes a stopped worker, as
 * the panel's own reconnect does.
 */
import type { Page } from 'puppeteer-core';
import { PANEL_PORT } from '../../src/protocol/panel.js';

/**
 * Page code (plain JS: a function handed to Puppeteer is transpiled by tsx first, and the helpers
 * it adds do not exist in the page), shared with the bench (bench/browser-code.ts). Called with a
 * `connect()` that opens a panel Port, it returns `{ request(type, params), close() }`: requests
 * go on one Port, opened when down; each settles with its answer's `result`, or fails if the Port
 * drops first (the worker may have acted on it, so it is never sent again, as in the panel).
 */
export const PANEL_REQUESTER = String.raw`(connect) => {
  let port = null;
  let nextId = 1;
  const waiting = new Map();
  const open = () => {
    const p = connect();
    p.onMessage.addListener((m) => {
      const w = m && m.kind === 'response' ? waiting.get(m.id) : undefined;
      if (w) { waiting.delete(m.id); w.resolve(m.result); }
    });
    p.onDisconnect.addListener(() => {
      if (port === p) port = null;
      for (const [id, w] of waiting) if (w.port === p) { waiting.delete(id); w.reject(new Error('the panel Port dropped before the answer')); }
    });
    port = p;
    return p;
  };
  const request = (type, params) => {
    const p = port || open();
    const id = nextId++;
    try {
      p.postMessage({ kind: 'request', id, type, params });
    } catch {
      // Dropped and not told yet: nothing was sent, a fresh Port takes it.
      port = null;
      return request(type, params);
    }
    return new Promise((resolve, reject) => waiting.set(id, { port: p, resolve, reject }));
  };
  const close = () => {
    if (port) port.disconnect();
    port = null;
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
    const requester = (${PANEL_REQUESTER})(() => chrome.runtime.connect({ name: ${JSON.stringify(PANEL_PORT)} }));
    try {
      return await requester.request(${JSON.stringify(type)}, ${JSON.stringify(params)});
    } finally {
      requester.close();
    }
  })()`)) as T;
}
