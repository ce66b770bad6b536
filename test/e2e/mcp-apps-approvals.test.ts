/**
 * Approval of a view's calls (U1), with the built extension in Chromium and the views of
 * test/support/polling-app-server.ts: a destructive tool that claims to be read-only still raises a
 * card when its view calls it, and a denied call never reaches the server; a view that polls raises
 * one card (its repeats coalesced into it), and once allowed "while it is open" it polls with no
 * card until it closes, after which it asks again; the grant outlives the worker's sleep.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame, Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startPollingAppServer, DANGER_TITLE, POLL_TITLE, type PollingAppServer } from '../support/polling-app-server.js';
import { back, openTool, storeServersFromPanel } from '../support/panel-views.js';
import { evaluateInWorker, stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { assertNewWorker } from '../support/worker-sleep.js';
import { OPEN_CARD as CARD, oneCoalescedCard, openCards, pollsWithoutCard } from '../support/view-approvals.js';

let server: PollingAppServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  server = await startPollingAppServer();
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'poll', name: 'Polling', url: server.url }], 30_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

async function run(tool: string) {
  await openTool(panel, 'poll', tool);
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

/** The views' frames (srcdoc documents inside the sandbox page) shown now. */
const viewFrames = () => panel.frames().filter((f) => f.url() === 'about:srcdoc' && f.parentFrame()?.url().endsWith('/app-sandbox.html'));

/** The frame of the view shown now, once its body says `key`. */
async function viewSaying(key: string): Promise<Frame> {
  return until(`a view that says ${key}`, async () => {
    for (const f of viewFrames()) if (await f.evaluate((k) => k in document.body.dataset, key).catch(() => false)) return f;
    return undefined;
  });
}

const cards = () => openCards(panel);
const polls = () => server.calls['poll_stats'] ?? 0;

test('U1: a destructive tool that claims readOnlyHint still raises a card when its view calls it; Deny leaves the server untouched', async () => {
  await run('show_danger');
  await waitFor(panel, `${CARD} >>> button[data-decision="deny"]`, 20_000);
  assert.match(await textOf(panel, `${CARD} >>> .from`), new RegExp(DANGER_TITLE));
  await panel.click(`${CARD} >>> button[data-decision="deny"]`);
  const frame = await viewSaying('answer');
  const answer = JSON.parse((await frame.evaluate(() => document.body.dataset['answer'])) ?? '{}') as { error?: { message: string } };
  assert.ok(answer.error, `the view got an error, not ${JSON.stringify(answer)}`);
  assert.match(answer.error.message, /denied/i);
  assert.equal(server.calls['delete_all_data'], undefined, 'the denied call reached the server');
  await until('the card to go', async () => (await cards()) === 0);
});

test('U1: a polling view raises one coalesced card; allowed while open it polls with no card; reopened it asks again', async () => {
  await run('show_stats');
  await oneCoalescedCard(panel, POLL_TITLE);
  assert.equal(polls(), 0, 'a poll ran before the user allowed it');
  await panel.click(`${CARD} >>> button[data-decision="view"]`);
  await pollsWithoutCard(panel, polls, 3);
  const frame = await viewSaying('ok');
  // The server counted the polls; their answers reach the view just after.
  await until('the view to get its answers', async () => Number(await frame.evaluate(() => document.body.dataset['ok'])) >= 3);
  // Running the tool again replaces the view: the old one is torn down, and its grant with it.
  // (Going back to the Tools list keeps the runner and its view, so that is no close.)
  await back(panel);
  await run('show_stats');
  await until('the old view to close', async () => !viewFrames().includes(frame));
  const closedAt = polls();
  await oneCoalescedCard(panel, POLL_TITLE);
  assert.equal(polls(), closedAt, 'the reopened view polled without asking');
  await panel.click(`${CARD} >>> button[data-decision="view"]`);
  await pollsWithoutCard(panel, polls, 2);
});

test('U1: after the worker sleeps, the granted view that stayed open still polls with no card', async () => {
  assert.equal(viewFrames().length, 1, 'the granted view is still open');
  if (await workerRunning(ext)) await evaluateInWorker(ext, 'globalThis.__beforeSleep = true').catch(() => undefined);
  // The view's next poll wakes a new worker at once, so "gone" is the old instance being replaced.
  await stopWorker(ext);
  await pollsWithoutCard(panel, polls, 3);
  await assertNewWorker(ext);
});
