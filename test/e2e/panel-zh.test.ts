/**
 * The side panel in Simplified Chinese (SPEC K6): the import preview, the server card and the
 * tool list speak zh_CN from `_locales/zh_CN`, and screenshots in light and dark are saved to
 * test-output/screenshots/ for a human to look at. A separate file because a locale needs its
 * own browser launch.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { DETAIL, DETAIL_TOOLS, openServer, openView, row } from '../support/panel-views.js';

const CARD = row();
const SHOTS = 'test-output/screenshots';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  server = await startDemoServer();
  ext = await launchExtension({ locale: 'zh_CN' });
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await server?.close();
});

test('import, card and tool list are in Chinese, in light and dark', async () => {
  assert.equal(await textOf(panel, 'h1'), '远程 MCP 服务器');
  await openView(panel, 'import');
  await panel.$eval(
    'mcp-import >>> textarea',
    (el, value) => {
      el.value = value;
    },
    JSON.stringify({ mcpServers: { Demo: { url: server.url }, local: { command: 'npx' } } }),
  );
  await panel.click('mcp-import >>> button[data-action="preview"]');
  await waitFor(panel, 'mcp-import >>> tbody tr[data-entry="local"]');
  assert.equal(await textOf(panel, 'mcp-import >>> tr[data-entry="Demo"] [data-status] strong'), '添加');
  const box = await waitFor(panel, 'mcp-import');
  await box.screenshot({ path: `${SHOTS}/import-preview-zh_CN-light.png` });

  await panel.click('mcp-import >>> button[data-action="import"]');
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  await openServer(panel, 'demo');
  assert.equal(await textOf(panel, `${DETAIL} >>> button[data-action="ping"]`), '测试连接');
  assert.equal(
    await panel.$eval(`${DETAIL_TOOLS} >>> input[type="search"]`, (el) => el.getAttribute('aria-label') ?? ''),
    '搜索 Demo 的工具',
  );
  await panel.click(`${DETAIL} >>> button[data-action="ping"]`);
  await waitFor(panel, `${DETAIL} >>> .ping:not(:empty)`);

  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await panel.screenshot({ path: `${SHOTS}/panel-zh_CN-light.png`, fullPage: true });
  await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await panel.screenshot({ path: `${SHOTS}/panel-zh_CN-dark.png`, fullPage: true });
  assert.equal(await panel.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
  assert.deepEqual(ext.errors, []);
});
