/**
 * The panel's requests on its Port, in Chromium with the built extension: a request is answered on
 * the same Port with its id, after the pushes the Port brings; and the worker refuses the panel Port
 * to any page but the side panel (here the offscreen document, an extension page that is running
 * anyway), so nothing but the panel can drive the manager through it; a runtime message from the
 * panel page drives nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { storeServersFromPanel } from '../support/panel-views.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

/** What the probe keeps of each message the Port brings. */
interface Seen {
  kind?: string;
  type?: string;
  id?: number;
  result?: { ok: boolean; error?: { code: string } };
}

/**
 * In `page`: opens a Port named like the panel's, sends `requests` on it and reports, after
 * `waitMs`, every message it got (kinds and ids only, and the results) and whether it dropped.
 */
const probe = (page: Page, requests: unknown[], waitMs: number) =>
  page.evaluate(
    (requests, waitMs) =>
      new Promise<{ got: Seen[]; dropped: boolean }>((resolve) => {
        const got: Seen[] = [];
        let dropped = false;
        const port = chrome.runtime.connect({ name: 'mcp-panel' });
        port.onMessage.addListener((m: Seen) => got.push({ kind: m.kind, type: m.type, id: m.id, result: m.result }));
        port.onDisconnect.addListener(() => (dropped = true));
        for (const r of requests) port.postMessage(r);
        setTimeout(() => {
          if (!dropped) port.disconnect();
          resolve({ got, dropped });
        }, waitMs);
      }),
    requests,
    waitMs,
  );

test('a request on a panel Port is answered on it with its id; pushes carry no kind', async () => {
  const { got, dropped } = await probe(
    panel,
    [
      { kind: 'request', id: 7, type: 'panel:get-state', params: {} },
      { kind: 'request', id: 8, type: 'panel:no-such-method', params: {} },
      { kind: 'request', id: 9, type: 'panel:ping', params: { serverId: 'demo' } },
    ],
    1500,
  );
  assert.equal(dropped, false);
  const answers = got.filter((m) => m.kind === 'response');
  assert.deepEqual(answers.map((a) => [a.id, a.result?.ok, a.result?.error?.code]).sort(), [
    [7, true, undefined],
    [8, false, 'bad-request'],
    [9, true, undefined],
  ]);
  const pushes = got.filter((m) => m.kind === undefined);
  assert.ok(
    pushes.some((p) => p.type === 'panel:state'),
    'the state push came on the same Port',
  );
  assert.ok(
    pushes.every((p) => typeof p.type === 'string' && p.type.startsWith('panel:') && p.id === undefined),
    JSON.stringify(pushes),
  );
});

test('another extension page (the offscreen document) gets the panel Port closed: no state, no answers', async () => {
  const target = await ext.browser.waitForTarget((t) => t.url().endsWith('/offscreen.html'), { timeout: 15_000 });
  const offscreen = await target.asPage();
  const { got, dropped } = await probe(
    offscreen,
    [{ kind: 'request', id: 1, type: 'panel:remove-server', params: { serverId: 'demo' } }],
    1500,
  );
  assert.equal(dropped, true, 'the worker closed the Port');
  assert.deepEqual(got, []);
  // The request did nothing: the server is still configured.
  const stored = (await panel.evaluate(`chrome.storage.local.get('mcp_servers').then((r) => r.mcp_servers.map((s) => s.id))`)) as string[];
  assert.deepEqual(stored, ['demo']);
});

test('a runtime message from the side panel page drives nothing: the worker answers the panel only on its Port', async () => {
  const outcome = (await panel.evaluate(`chrome.runtime
    .sendMessage({ type: 'panel:remove-server', params: { serverId: 'demo' } })
    .then((answer) => ({ answer: answer ?? null }), (e) => ({ error: String(e && e.message) }))`)) as { answer?: unknown; error?: string };
  assert.equal(outcome.answer ?? null, null, `no Result came back: ${JSON.stringify(outcome)}`);
  // Long enough for a removal the message had started to reach storage.
  await new Promise((r) => setTimeout(r, 500));
  const stored = (await panel.evaluate(`chrome.storage.local.get('mcp_servers').then((r) => r.mcp_servers.map((s) => s.id))`)) as string[];
  assert.deepEqual(stored, ['demo']);
});
