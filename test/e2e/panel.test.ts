/**
 * The side panel end to end (SPEC B2–B4, J2, J3, K1, K2): a Cursor-style paste is previewed
 * (through the offscreen validation channel) and imported, the server connects, tools are
 * toggled one by one and in bulk and disappear from the tool runner, "Test connection" shows a
 * latency, the log drawer lists the requests, a second import of the same paste is a conflict
 * that is not applied without confirmation, and delete asks first. Screenshots of the panel in
 * light and dark go to test-output/screenshots/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { dumpExtensionStorage } from '../support/storage-dump.js';
import { DETAIL, DETAIL_TOOLS as TOOLS, SETTINGS, openServer, openView, row } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';

const CARD = row();
const SHOTS = 'test-output/screenshots';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  server = await startDemoServer();
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await server?.close();
});

function paste() {
  return JSON.stringify({
    mcpServers: {
      Demo: { url: server.url, headers: { 'X-Demo-Key': 'header-s3cret' } },
      local: { command: 'npx', args: ['-y', 'some-stdio-server'] },
    },
  });
}

async function storedServers() {
  const worker = await ext.serviceWorker();
  return worker.evaluate(
    async () =>
      (await chrome.storage.local.get('mcp_servers')).mcp_servers as { id: string; disabledTools: string[]; headers?: unknown[] }[],
  );
}

async function runnerOptions(): Promise<string[]> {
  return panel.$$eval('mcp-tool-runner >>> option', (els) => els.map((e) => e.value));
}

/** Polls a condition in Node until it holds (the panel updates on the worker's pushes). */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function pasteAndPreview(text: string) {
  await openView(panel, 'import');
  await panel.$eval(
    'mcp-import >>> textarea',
    (el, value) => {
      el.value = value;
    },
    text,
  );
  await panel.click('mcp-import >>> button[data-action="preview"]');
}

test('a pasted Cursor config is previewed, imported with its header sealed, and connects', async () => {
  await pasteAndPreview(paste());
  await waitFor(panel, 'mcp-import >>> tbody tr[data-entry="local"]');
  const outcomes = await panel.$$eval('mcp-import >>> tbody [data-status]', (els) => els.map((e) => e.getAttribute('data-status')));
  assert.deepEqual(outcomes, ['add', 'skip']);
  assert.match(await textOf(panel, 'mcp-import >>> tr[data-entry="local"]'), /stdio/);
  assert.equal(await textOf(panel, 'mcp-import >>> [data-dialect]'), 'Recognised format: Cursor');
  assert.equal(await textOf(panel, 'mcp-import >>> tr[data-entry="Demo"] [data-auth]'), 'Authorization: custom headers X-Demo-Key');

  await panel.click('mcp-import >>> button[data-action="import"]');
  // The result fades after a few seconds: read it before waiting for the connection.
  await until('the import result', async () => (await textOf(panel, 'mcp-import >>> [role="status"]')) === 'Imported 1 server.');
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  await openServer(panel, 'demo');
  assert.equal(await textOf(panel, `${DETAIL} >>> .tool-count`), '3 of 3 tools enabled');

  const stored = await storedServers();
  assert.equal(stored.length, 1);
  assert.equal(stored[0]!.id, 'demo');
  assert.equal(stored[0]!.headers?.length, 1);
  assert.ok(!JSON.stringify(stored).includes('header-s3cret'), 'the header value is sealed at rest');
  assert.deepEqual(await runnerOptions(), ['["demo","echo"]', '["demo","add"]', '["demo","slow"]']);
});

test('the tool list shows annotations as hints and the input schema on demand', async () => {
  const chips = await panel.$$eval(`${TOOLS} >>> li:first-child .chip`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(chips, ['read-only hint']);
  await panel.click(`${TOOLS} >>> li:first-child summary`);
  // The schema text is written on the details' (asynchronous) toggle event: wait for it.
  await waitFor(panel, `${TOOLS} >>> li:first-child details[open]`);
  let text = '';
  for (let i = 0; i < 100 && !text; i++) {
    text = await textOf(panel, `${TOOLS} >>> li:first-child pre`);
    if (!text) await new Promise((r) => setTimeout(r, 50));
  }
  const schema = JSON.parse(text) as { properties: { text: { type: string } } };
  assert.equal(schema.properties.text.type, 'string');
});

test('a tool switched off is stored and gone from the tool runner', async () => {
  await panel.click(`${TOOLS} >>> input[data-tool="add"]`);
  await eventually(runnerOptions, (o) => !o.includes('["demo","add"]'), 'add to leave the runner');
  assert.deepEqual((await storedServers())[0]!.disabledTools, ['add']);
  assert.equal(await textOf(panel, `${DETAIL} >>> .tool-count`), '2 of 3 tools enabled');
});

test('bulk toggles: disable the searched tools, then all, then enable all', async () => {
  await panel.type(`${TOOLS} >>> input[type="search"]`, 'echo');
  await panel.click(`${TOOLS} >>> button[data-bulk="disable-shown"]`);
  await eventually(runnerOptions, (o) => o.length === 1 && o[0] === '["demo","slow"]', 'only slow left');
  assert.deepEqual((await storedServers())[0]!.disabledTools, ['add', 'echo']);

  await panel.click(`${TOOLS} >>> button[data-bulk="disable-all"]`);
  await eventually(runnerOptions, (o) => o.length === 0, 'no tool left in the runner');
  await panel.click(`${TOOLS} >>> button[data-bulk="enable-all"]`);
  await eventually(runnerOptions, (o) => o.length === 3, 'all tools back');
  assert.deepEqual((await storedServers())[0]!.disabledTools, []);
  await panel.$eval(`${TOOLS} >>> input[type="search"]`, (el) => {
    el.value = '';
    el.dispatchEvent(new Event('input'));
  });
});

test('"Test connection" shows the latency', async () => {
  await panel.click(`${DETAIL} >>> button[data-action="ping"]`);
  const text = await eventually(
    () => textOf(panel, `${DETAIL} >>> .ping`),
    (t) => t.startsWith('Answered in'),
    'a latency',
  );
  assert.match(text, /^Answered in \d+ ms$/);
});

test("the server's log lists its requests by JSON-RPC method, newest first, redacted", async () => {
  await panel.click('mcp-server-detail >>> details[data-section="log"] > summary');
  const methods = await eventually(
    () => panel.$$eval('mcp-server-detail >>> mcp-activity-log >>> .method', (els) => els.map((e) => e.textContent ?? '')),
    (m) => m.includes('ping') && m.some((x) => x.startsWith('initialize ')),
    'initialize and ping in the log',
  );
  assert.ok(methods.includes('tools/list'), methods.join(','));
  assert.equal(methods[0], 'ping', 'newest first: the "Test connection" probe');
  const worker = await ext.serviceWorker();
  const dump = JSON.stringify(await panelRequest(panel, 'panel:get-log', { serverId: 'demo' }));
  assert.ok(!dump.includes('header-s3cret'), 'no header value in the log');
  assert.ok(worker);
});

test('export carries the server but no secret', async () => {
  const reply = await panelRequest<{ value: { json: string } }>(panel, 'panel:export', {});
  const doc = JSON.parse(reply.value.json) as { format: string; servers: { name: string; headerNames?: string[] }[] };
  assert.equal(doc.format, 'remote-mcp-for-chrome');
  assert.deepEqual(
    doc.servers.map((s: { name: string; headerNames?: string[] }) => [s.name, s.headerNames]),
    [['Demo', ['X-Demo-Key']]],
  );
  assert.ok(!JSON.stringify(doc).includes('header-s3cret'));
});

test('screenshots of the panel in light and dark', async () => {
  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await panel.screenshot({ path: `${SHOTS}/panel-en-light.png`, fullPage: true });
  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await panel.screenshot({ path: `${SHOTS}/panel-en-dark.png`, fullPage: true });
  const dark = await panel.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  assert.equal(dark, true);
});

test('importing the same paste again is a conflict that is not applied without confirmation', async () => {
  await pasteAndPreview(paste());
  await waitFor(panel, 'mcp-import >>> input[data-overwrite="Demo"]');
  const box = await waitFor(panel, 'mcp-import');
  await box.screenshot({ path: `${SHOTS}/import-preview-en-light.png` });
  await panel.click('mcp-import >>> button[data-action="import"]');
  assert.match(await textOf(panel, 'mcp-import >>> ul.problems li'), /Nothing to import/);
  const stored = await storedServers();
  assert.equal(stored.length, 1);
});

/** How many request-log rows the worker's IndexedDB holds for each server id. */
async function logRowsByServer(): Promise<Record<string, number>> {
  const rows = (await dumpExtensionStorage(await ext.serviceWorker())).idb['remote-mcp/request_log'] as { serverId: string }[] | undefined;
  const counts: Record<string, number> = {};
  for (const r of rows ?? []) counts[r.serverId] = (counts[r.serverId] ?? 0) + 1;
  return counts;
}

test('delete asks for confirmation, then removes the server and its request log', async () => {
  const [deleted] = await storedServers();
  assert.ok((await logRowsByServer())[deleted!.id]! > 0, 'the server has logged requests before the delete');
  await openServer(panel, 'demo');
  await panel.click('mcp-server-detail >>> details[data-section="settings"] > summary');
  await panel.click(`${SETTINGS} >>> button[data-action="delete"]`);
  await waitFor(panel, `${SETTINGS} >>> [role="alert"]`);
  assert.equal((await storedServers()).length, 1, 'nothing removed before confirming');
  await panel.click(`${SETTINGS} >>> button[data-action="confirm-delete"]`);
  await eventually(storedServers, (s) => s.length === 0, 'the server to be removed');
  await eventually(
    () => panel.$$(CARD).then((c) => c.length),
    (n) => n === 0,
    'the card to go',
  );
  assert.deepEqual(await runnerOptions(), []);
  await eventually(logRowsByServer, (counts) => counts[deleted!.id] === undefined, 'no request-log row of the removed server to be left');
  assert.deepEqual(ext.errors, []);
});

test('a server with a long name and URL fits a 320 px panel without sideways scrolling', async () => {
  const name = 'A server whose name is much longer than the side panel is wide, to see how it wraps';
  await addServerInPanel(panel, { name, url: `${server.url}?long=${'x'.repeat(120)}` });
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  try {
    await panel.setViewport({ width: 320, height: 900 });
    const widths = await panel.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: innerWidth }));
    assert.ok(widths.page <= widths.viewport, `the page is ${widths.page} px wide in a ${widths.viewport} px panel`);
  } finally {
    await panel.setViewport({ width: 420, height: 900 });
  }
});
