/**
 * A Gemini CLI config imported from the panel (section K): the preview names the dialect
 * and says how the entry authorizes; after the import and the first tool listing, the tools
 * `includeTools` leaves out are stored disabled, the allow-list is dropped, and an agent is
 * offered only the included tool.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openView } from '../support/panel-views.js';

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

interface Stored {
  id: string;
  disabledTools: string[];
  includeTools?: string[];
}

async function stored(): Promise<Stored[]> {
  const worker = await ext.serviceWorker();
  return worker.evaluate(async () => ((await chrome.storage.local.get('mcp_servers')).mcp_servers ?? []) as Stored[]);
}

test("Gemini's includeTools: the other tools start disabled once the demo server's tools are known", async () => {
  const paste = JSON.stringify({
    mcpServers: { Demo: { httpUrl: server.url, includeTools: ['echo'], excludeTools: ['slow'], timeout: 30_000 } },
  });
  await openView(panel, 'import');
  await panel.$eval(
    'mcp-import >>> textarea',
    (el, value) => {
      el.value = value;
    },
    paste,
  );
  await panel.click('mcp-import >>> button[data-action="preview"]');
  await waitFor(panel, 'mcp-import >>> tbody tr[data-entry="Demo"]');
  assert.equal(await textOf(panel, 'mcp-import >>> [data-dialect]'), 'Recognised format: Gemini CLI');
  assert.equal(await textOf(panel, 'mcp-import >>> tr[data-entry="Demo"] [data-auth]'), 'Authorization: No authorization');

  await panel.click('mcp-import >>> button[data-action="import"]');
  await until('the import result', async () => (await textOf(panel, 'mcp-import >>> [role="status"]')) === 'Imported 1 server.');

  const settled = await until('the allow-list to be settled in storage', async () => {
    const [demo] = await stored();
    return demo && demo.includeTools === undefined ? demo : undefined;
  });
  assert.deepEqual([...settled.disabledTools].sort(), ['add', 'slow']);

  const worker = await ext.serviceWorker();
  const offered = await until('the agent tools of the ready server', async () => {
    const names = await worker.evaluate(() => globalThis.remoteMcp!.agentTools.list().map((tool) => tool.name));
    return names.length > 0 ? names : undefined;
  });
  assert.deepEqual(offered, ['mcp__demo__echo']);
  assert.deepEqual(ext.errors, []);
});
