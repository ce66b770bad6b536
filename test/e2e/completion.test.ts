/**
 * SPEC R8 through the built extension: the chat composer's forms get the server's suggestions
 * (`completion/complete`) — a resource template's variable and a prompt's argument, from the demo
 * server's completable fields — and the chosen value makes the block. The same after the worker
 * sleeps (the request goes through a new worker to the session the offscreen document kept).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { clickFresh, openView, storeServersFromPanel } from '../support/panel-views.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let ext: ExtensionBrowser;
let panel: Page;
let server: DemoServer;

const COMPOSER = 'mcp-chat-view >>> mcp-composer';

before(async () => {
  server = await startDemoServer({ everything: true });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="demo"] >>> mcp-status-badge[status="ready"]', 20_000);
  await openView(panel, 'chat');
});

after(async () => {
  await ext?.close();
  await server?.close();
});

/** The options of the list the field points at, as the browser would offer them. */
function suggestionsOf(field: string) {
  return until(`suggestions for ${field}`, async () => {
    const values = await panel.$eval(field, (input) => [...((input as HTMLInputElement).list?.options ?? [])].map((o) => o.value));
    return values.length ? values : undefined;
  });
}

async function templateSuggestions() {
  await panel.click(`${COMPOSER} >>> textarea.text`);
  await panel.type(`${COMPOSER} >>> textarea.text`, '@note');
  // The list re-renders on a state push (after a worker wake, for one): a fresh handle each try.
  await clickFresh(panel, `${COMPOSER} >>> .suggestions button[data-kind="template"]`);
  await panel.click(`${COMPOSER} >>> input[name="var-id"]`);
  return suggestionsOf(`${COMPOSER} >>> input[name="var-id"]`);
}

test('R8: a resource template’s variable offers the server’s ids; the chosen one makes the URI and the block', async () => {
  const ids = await templateSuggestions();
  assert.ok(ids.length > 0);
  await panel.type(`${COMPOSER} >>> input[name="var-id"]`, ids[0]!);
  assert.equal(await panel.$eval(`${COMPOSER} >>> input[name="uri"]`, (el) => el.value), `demo://notes/${ids[0]!}`);
  await panel.click(`${COMPOSER} >>> button.attach`);
  await waitFor(panel, `${COMPOSER} >>> .block.resource pre`);
});

test('R8: a prompt argument offers the server’s suggestions for what was typed', async () => {
  await panel.type(`${COMPOSER} >>> textarea.text`, '/summ');
  await clickFresh(panel, `${COMPOSER} >>> .suggestions button[data-kind="prompt"]`);
  // `style` is a multi-line field (a textarea: no list); `maxWords` is the completable one.
  const field = `${COMPOSER} >>> mcp-schema-form >>> input[name='["maxWords"]']`;
  await panel.type(field, '1');
  assert.deepEqual(await suggestionsOf(field), ['100']);
  await panel.click(`${COMPOSER} >>> button.cancel`);
});

test('R8 after the worker sleeps: suggestions still come', async () => {
  await sleepWorker(ext, panel);
  assert.ok((await templateSuggestions()).length > 0);
  await assertNewWorker(ext);
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
