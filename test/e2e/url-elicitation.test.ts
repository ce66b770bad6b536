/**
 * URL-mode elicitation through the real panel (SPEC R5): a server's tool asks the user to open a
 * page; the card shows the server, its message and the full address with its origin emphasized;
 * the page opens in a new tab only on the user's click, which answers "accept". A page the rules
 * refuse (not https or loopback http, a credential in it) never becomes a card: the server gets
 * "decline". The same after the worker sleeps.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openTool } from '../support/panel-views.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let ext: ExtensionBrowser;
let panel: Page;
let demo: DemoServer;

const CARD = 'mcp-elicitation-card[status="pending"]';

before(async () => {
  demo = await startDemoServer({ elicitation: true });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Demo', url: demo.url });
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="demo"] >>> mcp-status-badge[status="ready"]', 20_000);
});

after(async () => {
  await ext?.close();
  await demo?.close();
});

/** Starts open_link from the tool runner with `url` as the page the server asks for. */
async function startOpenLink(url: string) {
  await openTool(panel, 'demo', 'open_link');
  await (await waitFor(panel, 'mcp-tool-runner >>> select')).select(JSON.stringify(['demo', 'open_link']));
  await panel.$eval('mcp-tool-runner >>> textarea', (el, value) => (el.value = value), JSON.stringify({ url }));
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

const runnerText = () =>
  until('the tool result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text')?.textContent ?? undefined),
  );

async function openThroughCard(page: string) {
  const calls = demo.stats.toolCalls.length;
  await startOpenLink(page);
  await waitFor(panel, `${CARD} >>> a.open-url`, 20_000);
  assert.equal(demo.stats.toolCalls.length, calls + 1);
  const shown = await panel.$eval(`${CARD} >>> .url`, (el) => ({
    origin: el.querySelector('strong.origin')?.textContent,
    all: el.textContent,
  }));
  assert.deepEqual(shown, { origin: new URL(page).origin, all: page });
  assert.match(await panel.$eval(`${CARD} >>> .from`, (el) => el.textContent ?? ''), /Demo/);
  const opened = ext.browser.waitForTarget((t) => t.url() === page, { timeout: 20_000 });
  await panel.click(`${CARD} >>> a.open-url`);
  const tab = await opened;
  // The opened tab took the foreground: close it and come back to the panel, as a user would.
  await (await tab.page())?.close();
  await panel.bringToFront();
  assert.equal(await runnerText(), 'link accept');
}

test('R5: the card shows the page with its origin emphasized; the click opens it in a new tab and answers accept', async () => {
  const page = `${new URL(demo.url).origin}/consent?step=1`;
  await openThroughCard(page);
  assert.deepEqual(demo.stats.elicitations?.at(-1), { action: 'accept' });
});

test('R5/N2: a javascript: page or one carrying a credential never becomes a card; the server hears decline', async () => {
  for (const page of ['javascript:alert(document.cookie)', 'https://user:secret@example.com/']) {
    await startOpenLink(page);
    assert.equal(await runnerText(), 'link decline');
    assert.equal(await panel.$(CARD), null, page);
  }
  assert.deepEqual(demo.stats.elicitations?.slice(-2), [{ action: 'decline' }, { action: 'decline' }]);
});

test('R5: after the worker sleeps, a URL question still gets its card and its answer', async () => {
  await sleepWorker(ext, panel);
  await openThroughCard(`${new URL(demo.url).origin}/after-sleep`);
  await assertNewWorker(ext);
});

test('no extension page logged an error or a CSP violation', () => {
  assert.deepEqual(
    ext.errors.filter((e) => !/Failed to load resource/.test(e)),
    [],
  );
});
