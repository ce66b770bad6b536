/**
 * MCP App views end to end (section Q), with the built extension: two published example servers
 * (`server-basic-vanillajs`, `server-budget-allocator`) on loopback — a tool run shows its view
 * under the result, the view calls a tool back, the approval card is shown, and the result is
 * delivered to the view — and a hostile view (test/support/hostile-app-server.ts) whose every
 * attempt to break out is refused while the panel keeps working.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame, Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startAppServer, type AppServer } from '../support/app-servers.js';
import { startHostileAppServer, type HostileAppServer } from '../support/hostile-app-server.js';
import { clickFresh, openTool, openView } from '../support/panel-views.js';
import { composerDraft } from '../support/chat-panel.js';

let basic: AppServer;
let budget: AppServer;
let hostile: HostileAppServer;
let ext: ExtensionBrowser;
let panel: Page;

const RESULT = 'mcp-tool-runner >>> mcp-result-view';
const APP = `${RESULT} >>> mcp-app-view:not([hidden])`;
const entry = (id: string, url: string) => ({
  id,
  name: id,
  url,
  auth: { kind: 'none' },
  enabled: true,
  disabledTools: [],
  connectOnStartup: true,
});

before(async () => {
  [basic, budget, hostile] = await Promise.all([
    startAppServer('basic-vanillajs'),
    startAppServer('budget-allocator'),
    startHostileAppServer(),
  ]);
  ext = await launchExtension();
  const worker = await ext.serviceWorker();
  await worker.evaluate(
    `chrome.storage.local.set({ mcp_servers: ${JSON.stringify([entry('basic', basic.url), entry('budget', budget.url), entry('hostile', hostile.url)])} })`,
  );
  panel = await ext.openPanel();
  for (const id of ['basic', 'budget', 'hostile'])
    await waitFor(panel, `mcp-server-list >>> mcp-server-card[server-id="${id}"] >>> mcp-status-badge[status="ready"]`, 30_000);
});

after(async () => {
  await ext?.close();
  await Promise.all([basic?.close(), budget?.close(), hostile?.close()]);
});

async function run(serverId: string, tool: string) {
  await openTool(panel, serverId, tool);
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

/** The view's own document: the srcdoc frame inside the sandbox page. */
async function viewFrame(): Promise<Frame> {
  return until('the view frame', async () =>
    panel.frames().find((f) => f.url() === 'about:srcdoc' && f.parentFrame()?.url().endsWith('/app-sandbox.html')),
  );
}

test('a tool with a view renders it under the result; the view calls a tool back after approval and gets the result', async () => {
  await run('basic', 'get-time');
  await waitFor(panel, `${APP} >>> iframe`, 20_000);
  const frame = await viewFrame();
  // The tool result reached the view (tool-input, then tool-result after ui/initialize).
  const first = await until('the time from the result', async () => {
    const text = await frame.$eval('#server-time', (e) => e.textContent ?? '').catch(() => '');
    return /^\d{4}-\d\d-\d\dT/.test(text) ? text : undefined;
  });
  await panel.screenshot({ path: 'test-output/e2e/mcp-apps-basic.png' }).catch(() => undefined);
  await frame.click('#get-time-btn');
  // get-time claims nothing, so the call from the view waits for the user's approval.
  await waitFor(panel, 'mcp-approval-card >>> button[data-decision="once"]', 20_000);
  assert.match(await textOf(panel, 'mcp-approval-card >>> .from'), /get-time/);
  await panel.click('mcp-approval-card >>> button[data-decision="once"]');
  const second = await until('a new time in the view', async () => {
    const text = await frame.$eval('#server-time', (e) => e.textContent ?? '');
    return text !== first && /^\d{4}-/.test(text) ? text : undefined;
  });
  assert.ok(second > first);
  // The view grows with its content, within bounds.
  const height = await panel.$eval(`${APP} >>> iframe`, (f) => f.getBoundingClientRect().height);
  assert.ok(height >= 48 && height <= 2000, `height ${height}`);
});

test('a message from the view is a suggestion named after its server; the user’s click puts it in the chat draft (U4)', async () => {
  const frame = await viewFrame();
  await frame.click('#send-message-btn');
  await waitFor(panel, `${APP} >>> .suggestion:not([hidden]) button.insert`);
  assert.equal(await textOf(panel, `${APP} >>> .suggestion .from`), 'Suggested by the view of basic');
  assert.equal(await composerDraft(panel), '');
  await panel.click(`${APP} >>> .suggestion button.insert`);
  await until('the draft in the chat', async () => (await composerDraft(panel)) === 'This is message text.' || undefined);
});

test('the view asks for a link; it opens only from the user’s click on the offer', async () => {
  const frame = await viewFrame();
  await frame.click('#open-link-btn');
  await waitFor(panel, `${APP} >>> .link a.open`);
  assert.equal(
    await panel.$eval(`${APP} >>> .link a.open`, (a) => `${a.getAttribute('href')} ${a.getAttribute('rel')} ${a.getAttribute('target')}`),
    'https://modelcontextprotocol.io/ noopener noreferrer _blank',
  );
  await panel.click(`${APP} >>> .link button.dismiss`);
  assert.equal(await panel.$eval(`${APP} >>> .link`, (e) => (e as HTMLElement).hidden), true);
});

test('a second published app (budget allocator) renders its view, and Full panel fills the side panel', async () => {
  await run('budget', 'get-budget-data');
  await waitFor(panel, `${APP} >>> iframe`, 20_000);
  await until('the budget view to draw', async () => {
    const frames = panel.frames().filter((f) => f.url() === 'about:srcdoc');
    for (const f of frames) if (await f.$('canvas, svg').catch(() => null)) return true;
    return undefined;
  });
  await panel.click(`${APP} >>> button.fullscreen`);
  const box = await panel.$eval(`${APP}`, (e) => e.getBoundingClientRect().toJSON() as { width: number; height: number });
  assert.ok(box.width >= 400 && box.height >= 800, JSON.stringify(box));
  const frameHeight = await panel.$eval(`${APP} >>> iframe`, (f) => f.getBoundingClientRect().height);
  assert.ok(frameHeight >= 700, `the view fills the panel: ${frameHeight}`);
  await panel.screenshot({ path: 'test-output/e2e/mcp-apps-budget-full.png' }).catch(() => undefined);
  await panel.click(`${APP} >>> button.fullscreen`);
});

test('a hostile view is refused everything it tries, and the panel keeps working', async () => {
  await run('hostile', 'attack');
  // The app-only `report` tool is not offered to run; the model-only tool is.
  await openView(panel, 'tools');
  assert.equal(await panel.$('mcp-tools-view >>> button.tool[data-server="hostile"][data-tool="report"]'), null);
  assert.ok(await panel.$('mcp-tools-view >>> button.tool[data-server="hostile"][data-tool="model_only"]'));
  // The view reports through `report`, which claims readOnlyHint: a claim never skips the card (U1).
  await clickFresh(panel, 'mcp-approval-card >>> button[data-decision="once"]', 30_000);
  const report = await until('the view to report', async () => hostile.reports[0], 30_000);
  assert.deepEqual(
    { ...report, chrome: undefined },
    {
      topNavigation: report.topNavigation,
      chrome: undefined,
      chromeRuntimeId: 'none',
      storage: 'refused',
      fetch: 'refused',
      directPost: 'sent',
      forgedMethod: -32601,
      forgedNotificationAsRequest: -32601,
      modelOnly: report.modelOnly,
      badLink: -32602,
    },
  );
  assert.match(String(report.modelOnly), /not callable from a view/);
  assert.equal(hostile.beaconHits, 0, 'the undeclared origin was never reached');
  assert.deepEqual(
    hostile.toolCalls.filter((c) => c !== 'attack' && c !== 'report'),
    [],
    'no forged call reached the server',
  );
  assert.equal(await panel.$('mcp-approval-card'), null, 'no approval was asked for a forged call');
  // The client declared the UI extension it renders.
  assert.deepEqual((hostile.capabilities[0]?.extensions as Record<string, unknown>)['io.modelcontextprotocol/ui'], {
    mimeTypes: ['text/html;profile=mcp-app'],
  });
  // The panel was not navigated and still answers.
  assert.match(panel.url(), /sidepanel\.html$/);
  await run('hostile', 'model_only');
  await until('the result', async () =>
    (await textOf(panel, `${RESULT} >>> pre.text`).catch(() => '')) === 'model only' ? true : undefined,
  );
});
