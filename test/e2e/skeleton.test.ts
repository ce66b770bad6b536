/**
 * The walking skeleton, end to end in real Chromium with the built extension and a real SDK
 * server: add a server in the side panel, watch it become ready, list tools, call tools —
 * including one with an `outputSchema`, which proves output validation works under the CSP.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { DETAIL, DETAIL_TOOLS, openServer, openTool } from '../support/panel-views.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await server?.close();
});

async function runTool(tool: string, args: unknown, expectSelector: string) {
  await openTool(panel, 'demo', tool);
  const select = await waitFor(panel, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify(['demo', tool]));
  await panel.$eval(
    'mcp-tool-runner >>> textarea',
    (el, value) => {
      el.value = value;
    },
    JSON.stringify(args),
  );
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await waitFor(panel, `mcp-tool-runner >>> ${expectSelector}`);
  return panel.$eval('mcp-tool-runner >>> .output', (el) => el.textContent ?? '');
}

test('a server added in the panel is stored, connects and shows its tools', async () => {
  await addServerInPanel(panel, { name: 'Demo', url: server.url });

  await waitFor(panel, 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]', 20_000);
  await openServer(panel, 'demo');
  assert.equal(await textOf(panel, `${DETAIL} >>> .tool-count`), '3 of 3 tools enabled');
  const names = await panel.$$eval(`${DETAIL_TOOLS} >>> li .name`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(names, ['Echo', 'Add numbers', 'Slow task']);

  const worker = await ext.serviceWorker();
  const all = (await worker.evaluate(async () => (await chrome.storage.local.get('mcp_servers')).mcp_servers)) as Record<string, unknown>[];
  // The first listing pinned the tools (S2, tool-pins.test.ts); the rest of the entry is as added.
  const stored = all.map(({ pins, ...rest }) => {
    assert.deepEqual(
      (pins as { tools: { name: string }[] }).tools.map((p) => p.name),
      ['echo', 'add', 'slow'],
    );
    return rest;
  });
  assert.deepEqual(stored, [
    { id: 'demo', name: 'Demo', url: server.url, auth: { kind: 'none' }, enabled: true, disabledTools: [], connectOnStartup: true },
  ]);
  assert.equal(server.stats.sessionsOpened, 1, 'one SDK session, one offscreen document');
});

test('calling a tool with JSON arguments shows its text result', async () => {
  await runTool('echo', { text: 'hello from the panel' }, 'pre.text');
  assert.equal(await textOf(panel, 'mcp-tool-runner >>> pre.text'), 'echo: hello from the panel');
});

test('a tool with an outputSchema returns validated structured content under the extension CSP', async () => {
  await runTool('add', { a: 2, b: 40 }, '.structured');
  const text = await panel.$eval('mcp-tool-runner >>> pre.text', (el) => el.textContent);
  assert.equal(text, 'sum=42');
  assert.match(await textOf(panel, 'mcp-tool-runner >>> .structured'), /sum: 42/);
});

test('invalid arguments come back as an attributed tool error, not a crash', async () => {
  // The result view's error: the schema form keeps an empty `p.error` of its own at all times.
  const out = await runTool('add', { a: 'two', b: 1 }, 'mcp-result-view >>> p.error');
  assert.match(out, /did not accept the arguments/);
  // The server's message for `a` is shown at the field `a`, in words.
  assert.match(await textOf(panel, `mcp-tool-runner >>> .field-error[data-path='${JSON.stringify(['a'])}']`), /expected number/);
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
