/**
 * Service-worker restarts end to end (SPEC C6, C7, H3): with the real extension in Chromium and a
 * real SDK server, the worker is stopped the way MV3 evicts it (Puppeteer closes its target)
 * and woken the way a user wakes it (the open panel's Port reconnects). The offscreen document
 * outlives the worker with its sessions: the new worker adopts the session (no new session, no
 * new `initialize`), and nothing in flight at the stop is ever sent again.
 * One browser launch for the whole file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { DETAIL, nudgePanel, openServer } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';
import { stopWorker } from '../support/worker-lifecycle.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

const READY = 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]';
const TOOL_COUNT = `${DETAIL} >>> .tool-count`;
const timings: { stopMs: number; wakeMs: number; readyMs: number }[] = [];

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension();
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Demo', url: server.url });
  await waitFor(panel, READY, 20_000);
});

after(async () => {
  if (timings.length > 0) console.log(`[sw-restart] timings (ms): ${JSON.stringify(timings)}`);
  await ext?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const runTool = (tool: string, args: unknown) => runToolInPanel(panel, 'demo', tool, args);

const count = (tool: string) => server.stats.toolCalls.filter((c) => c === tool).length;

/**
 * Stops the worker, then waits for the panel's Port to wake a fresh one (as a user's open panel
 * does) and for the server to be ready again in the panel. Records how long each part took.
 */
async function restartWorker() {
  const before = await ext.serviceWorker();
  await before.evaluate(() => {
    (globalThis as { __oldWorker?: boolean }).__oldWorker = true;
  });
  const stopMs = await stopWorker(ext);
  const woke = Date.now();
  // The panel's Port reconnects on the user's next action (not on a timer).
  await nudgePanel(panel);
  const worker = await ext.serviceWorker();
  const wakeMs = Date.now() - woke;
  assert.equal(
    await worker.evaluate(() => (globalThis as { __oldWorker?: boolean }).__oldWorker ?? false),
    false,
    'a fresh worker, not the old one',
  );
  await workerReady();
  timings.push({ stopMs, wakeMs, readyMs: Date.now() - woke });
  return worker;
}

interface StateAnswer {
  ok: boolean;
  value?: { servers: { id: string; status: string; tools: { title?: string; name: string }[] }[] };
}

/** The running worker's own view (the panel's DOM may still show the stopped worker's last push). */
async function workerState() {
  const answer = await panelRequest<StateAnswer>(panel, 'panel:get-state', {});
  return answer.value?.servers.find((s) => s.id === 'demo');
}

/** Waits until the running worker reports the demo server ready, then for the panel to show it. */
async function workerReady() {
  await until('the worker to report the server ready', async () => ((await workerState())?.status === 'ready' ? true : undefined));
  await waitFor(panel, READY, 20_000);
}

test('C7: a stopped and re-woken worker shows the ready server with its tools, on the same session', async () => {
  const opened = server.stats.sessionsOpened;
  const closed = server.stats.sessionsClosed;
  const initializes = server.stats.initializeRequests;
  const echoes = count('echo');
  assert.equal(opened - closed, 1, 'one live session before the stop');

  await restartWorker();
  await openServer(panel, 'demo');
  assert.equal(await textOf(panel, TOOL_COUNT), '3 of 3 tools enabled');
  assert.deepEqual(
    (await workerState())?.tools.map((t) => t.title ?? t.name),
    ['Echo', 'Add numbers', 'Slow task'],
  );

  assert.equal(server.stats.sessionsOpened, opened, 'no new session: the new worker adopted it');
  assert.equal(server.stats.sessionsClosed, closed, 'the session was not closed');
  assert.equal(server.stats.initializeRequests, initializes, 'no new initialize');
  assert.equal(count('echo'), echoes, 'nothing was replayed by the restart');

  const result = await runTool('echo', { text: 'after restart' });
  assert.equal(result.text?.trim(), 'echo: after restart', result.error);
  assert.equal(count('echo'), echoes + 1, 'the echo ran exactly once');
});

test('C6: only one offscreen document survives a restart, owned by the new worker', async () => {
  const worker = await ext.serviceWorker();
  const contexts = await worker.evaluate(
    async () => (await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] })).length,
  );
  assert.equal(contexts, 1);
  assert.equal(server.stats.sessionsOpened - server.stats.sessionsClosed, 1, 'one live session on the server');
});

test('H3: a tool call in flight when the worker stops is reported failed and is never sent again', async () => {
  const slowBefore = count('slow');
  const cancelsBefore = server.stats.cancellations.length;
  const opened = server.stats.sessionsOpened;
  const pending = runTool('slow', { steps: 40, ms: 100 });
  await until('the slow call to start', async () => (count('slow') > slowBefore ? true : undefined));

  await restartWorker();
  const result = await pending;
  assert.equal(result.text, undefined, 'the interrupted call did not report a result');
  assert.ok(result.error, 'the interrupted call was reported failed');
  assert.match(result.error, /not sent again/, result.error);

  assert.equal(server.stats.sessionsOpened, opened, 'the session was adopted, not rebuilt');
  // Long enough for a replay (the worker's recovery, a retried message) to have reached the server.
  await sleep(1000);
  assert.equal(count('slow'), slowBefore + 1, 'the slow tool ran exactly once');
  assert.equal(server.stats.cancellations.length, cancelsBefore + 1, 'the server was told to stop the abandoned call');

  const after = await runTool('echo', { text: 'still works' });
  assert.equal(after.text?.trim(), 'echo: still works', after.error);
});

test('C6/C7: a panel request that wakes the worker at once adopts the session; nothing new is opened', async () => {
  const opened = server.stats.sessionsOpened;
  const closed = server.stats.sessionsClosed;
  const stopMs = await stopWorker(ext);
  const woke = Date.now();
  const answer = await panelRequest<{ ok: boolean }>(panel, 'panel:get-state', {});
  const wakeMs = Date.now() - woke;
  assert.equal(answer.ok, true);
  await workerReady();
  timings.push({ stopMs, wakeMs, readyMs: Date.now() - woke });
  assert.equal(server.stats.sessionsOpened, opened, 'no new session');
  assert.equal(server.stats.sessionsClosed, closed, 'no session closed');
  const result = await runTool('echo', { text: 'after a fast wake' });
  assert.equal(result.text?.trim(), 'echo: after a fast wake', result.error);
});

test('C7: two restarts in a row still end with one ready session', async () => {
  const opened = server.stats.sessionsOpened;
  await restartWorker();
  await restartWorker();
  assert.equal(server.stats.sessionsOpened - server.stats.sessionsClosed, 1, 'one live session');
  assert.equal(server.stats.sessionsOpened, opened, 'both new workers adopted the same session');
  const result = await runTool('add', { a: 1, b: 2 });
  assert.equal(result.text?.trim(), 'sum=3', result.error);
});

test('C6/C7: a worker stopped again while it is still adopting leaves one session, still usable', async () => {
  const opened = server.stats.sessionsOpened;
  await stopWorker(ext);
  await panelRequest(panel, 'panel:get-state', {});
  // Stop the fresh worker at once, while it is claiming the document.
  await stopWorker(ext);
  await panelRequest(panel, 'panel:get-state', {});
  await workerReady();
  assert.equal(server.stats.sessionsOpened, opened, 'no new session');
  assert.equal(server.stats.sessionsOpened - server.stats.sessionsClosed, 1, 'one live session');
  const result = await runTool('echo', { text: 'after two quick stops' });
  assert.equal(result.text?.trim(), 'echo: after two quick stops', result.error);
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
