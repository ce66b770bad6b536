/**
 * Two more published MCP Apps examples, run as they ship (test/support/app-servers.ts), with the
 * built extension in Chromium:
 * - `server-sheet-music`: its tool's default input is multi-line ABC notation, which the runner
 *   must keep line for line (a textarea); run untouched, the view draws the score's notes.
 * - `server-system-monitor`: its view polls an app-only stats tool every 2 s (U1): one coalesced
 *   card asks, the "while this view is open" grant lets it poll with no further card, a new view
 *   asks again, and the grant outlives the worker's sleep while the view stays open.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Frame, Page } from 'puppeteer-core';
import { launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startAppServer, type AppServer } from '../support/app-servers.js';
import { back, openTool, storeServersFromPanel } from '../support/panel-views.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { OPEN_CARD as CARD, oneCoalescedCard, openCards, pollsWithoutCard } from '../support/view-approvals.js';

let sheet: AppServer;
let monitor: AppServer;
let ext: ExtensionBrowser;
let panel: Page;

const RUNNER = 'mcp-tool-runner';
const APP = `${RUNNER} >>> mcp-result-view >>> mcp-app-view:not([hidden])`;
const SHEET_TOOL = 'play-sheet-music';
const MONITOR_TOOL = 'get-system-info';

before(async () => {
  [sheet, monitor] = await Promise.all([startAppServer('sheet-music'), startAppServer('system-monitor')]);
  // The screenshots to look at go here; a clean clone has no test-output yet.
  await mkdir('test-output/e2e', { recursive: true });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(
    panel,
    [
      { id: 'sheet', name: 'Sheet music', url: sheet.url },
      { id: 'monitor', name: 'System monitor', url: monitor.url },
    ],
    30_000,
  );
});

after(async () => {
  await ext?.close();
  await Promise.all([sheet?.close(), monitor?.close()]);
});

/** The views' frames (srcdoc documents inside the sandbox page) shown now. */
const viewFrames = () => panel.frames().filter((f) => f.url() === 'about:srcdoc' && f.parentFrame()?.url().endsWith('/app-sandbox.html'));

/** The frame of a view shown now that holds `selector`. */
async function viewWith(selector: string, timeoutMs = 20_000): Promise<Frame> {
  return until(
    `a view with ${selector}`,
    async () => {
      for (const f of viewFrames()) if (await f.$(selector).catch(() => null)) return f;
      return undefined;
    },
    timeoutMs,
  );
}

const cards = () => openCards(panel);

test('sheet-music: the default multi-line notation is kept in a textarea; run untouched, the view draws its notes', async () => {
  await openTool(panel, 'sheet', SHEET_TOOL);
  const field = `${RUNNER} >>> mcp-schema-form >>> [name='${JSON.stringify(['abcNotation'])}']`;
  await waitFor(panel, field);
  const { tag, value } = await panel.$eval(field, (e) => ({ tag: e.tagName, value: (e as HTMLTextAreaElement).value }));
  assert.equal(tag, 'TEXTAREA', 'multi-line default in a one-line field');
  assert.ok(value.includes('\n'), `the default lost its line breaks: ${JSON.stringify(value)}`);
  assert.match(value, /^X:1\n/);
  await panel.click(`${RUNNER} >>> button[type="submit"]`);
  await waitFor(panel, `${APP} >>> iframe`, 20_000);
  // A tool the user runs from the panel is their own call: no card (only a view's calls ask).
  const frame = await viewWith('svg .abcjs-note', 30_000);
  // Every note of the default tune is drawn, on its three lines of 14: the line breaks reached the view.
  const perLine = await frame.$$eval('svg .abcjs-note', (notes) =>
    notes.reduce<Record<string, number>>((n, e) => {
      const line = /\babcjs-l(\d+)\b/.exec(e.getAttribute('class') ?? '')?.[1] ?? '?';
      return { ...n, [line]: (n[line] ?? 0) + 1 };
    }, {}),
  );
  assert.deepEqual(perLine, { 0: 14, 1: 14, 2: 14 }, 'notes drawn per line');
  assert.equal(await cards(), 0, 'running a tool from the panel asked for approval');
  await panel.screenshot({ path: 'test-output/e2e/mcp-apps-sheet-music.png' });
});

/** Counts the view's successful stats updates from now on: each one writes the time into #status-text. */
async function countUpdates(frame: Frame): Promise<() => Promise<number>> {
  await frame.evaluate(() => {
    const w = window as unknown as { __updates: number; __failed: number };
    w.__updates = 0;
    w.__failed = 0;
    const status = document.getElementById('status-text')!;
    new MutationObserver(() => {
      const text = status.textContent ?? '';
      if (/^\d{1,2}:\d\d:\d\d$/.test(text)) w.__updates++;
      else if (text === 'Error') w.__failed++;
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  return async () => {
    const { updates, failed } = await frame.evaluate(() => {
      const w = window as unknown as { __updates: number; __failed: number };
      return { updates: w.__updates, failed: w.__failed };
    });
    assert.equal(failed, 0, 'a poll of the view failed');
    return updates;
  };
}

async function runMonitor(): Promise<{ frame: Frame; updates: () => Promise<number> }> {
  await openTool(panel, 'monitor', MONITOR_TOOL);
  await panel.click(`${RUNNER} >>> button[type="submit"]`);
  const frame = await viewWith('#status-text');
  return { frame, updates: await countUpdates(frame) };
}

let open: { frame: Frame; updates: () => Promise<number> };

test('system-monitor (U1): its polling raises one coalesced card; allowed while open it polls with no card; a new view asks again', async () => {
  open = await runMonitor();
  await oneCoalescedCard(panel, 'Poll System Stats');
  assert.equal(await open.updates(), 0, 'a poll was answered before the user allowed it');
  await panel.click(`${CARD} >>> button[data-decision="view"]`);
  await pollsWithoutCard(panel, open.updates, 3);
  await panel.screenshot({ path: 'test-output/e2e/mcp-apps-system-monitor.png' });
  // Running the tool again replaces the view: the old one is torn down, and its grant with it.
  await back(panel);
  const old = open.frame;
  open = await runMonitor();
  await until('the old view to close', async () => !viewFrames().includes(old));
  await oneCoalescedCard(panel, 'Poll System Stats');
  assert.equal(await open.updates(), 0, 'the new view polled without asking');
  await panel.click(`${CARD} >>> button[data-decision="view"]`);
  await pollsWithoutCard(panel, open.updates, 2);
});

test('system-monitor (U1): after the worker sleeps, the granted view that stayed open still polls with no card', async () => {
  assert.ok(viewFrames().includes(open.frame), 'the granted view is still open');
  // The view polls every 2 s, and each poll wakes the worker: stop polling (its own button) so the
  // worker can really be gone, then start it again from the same view.
  await open.frame.click('#poll-toggle-btn');
  await until('the view to stop polling', async () => (await open.frame.$eval('#poll-toggle-btn', (b) => b.textContent)) === 'Start');
  await sleepWorker(ext, panel);
  await open.frame.click('#poll-toggle-btn');
  await pollsWithoutCard(panel, open.updates, 3);
  await assertNewWorker(ext);
});

test('no extension errors', () => {
  assert.deepEqual(ext.errors, []);
});
