/**
 * Sessions outlive the service worker (SPEC C6, C7), seen as users see it: the browser never
 * attaches DevTools to the worker (`workerDevTools: false`), so Chrome stops it when idle; the
 * worker is reached only through the brief attaches of worker-lifecycle.ts. A real SDK server
 * counts sessions opened/closed and `initialize` requests. One browser launch for the file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { evaluateInWorker, stopWorker, watchWorker, workerRunning } from '../support/worker-lifecycle.js';
import { nudgePanel } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';

let server: DemoServer;
let silent: Server;
let silentUrl: string;
let ext: ExtensionBrowser;
let panel: Page;

const READY = 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ServerState {
  id: string;
  status: string;
  connectingSince?: number;
  reason?: { kind: string; message: string };
}

/** The running worker's own view (asking wakes it, as any panel request does). */
async function workerState(id: string): Promise<ServerState | undefined> {
  const answer = await panelRequest<{
    value?: { servers: ServerState[] };
  }>(panel, 'panel:get-state', {});
  return answer.value?.servers.find((s) => s.id === id);
}

/**
 * Stops the worker as Chrome's idle timer would, then wakes a new one the way a user does: the open
 * panel re-opens its Port on the user's next action, which wakes a new worker, and it claims the
 * document. Waits until that worker reports the demo server ready, and checks it is a new instance.
 */
async function stopAndWakeFromPanel(): Promise<void> {
  await evaluateInWorker(ext, 'globalThis.__beforeStop = true');
  await stopWorker(ext);
  await nudgePanel(panel);
  await until('the new worker to report the server ready', async () =>
    (await workerState('demo'))?.status === 'ready' ? true : undefined,
  );
  assert.equal(await evaluateInWorker(ext, 'globalThis.__beforeStop === true'), false, 'a new worker instance');
}

const stored = async () =>
  ((await panel.evaluate(`chrome.storage.local.get('mcp_servers').then((r) => r.mcp_servers)`)) ?? []) as Record<string, unknown>[];

before(async () => {
  server = await startDemoServer();
  // Accepts every request and never answers: a connect attempt can only run out of time.
  silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}/mcp`;
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Demo', url: server.url });
  await waitFor(panel, READY, 20_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
  silent?.closeAllConnections();
  await new Promise((r) => silent?.close(r));
});

test('(a) C7: panel open and idle for 100 s — one session, no closes, the worker was stopped meanwhile, and a call then works', async () => {
  const watch = await watchWorker(ext);
  assert.equal(server.stats.sessionsOpened, 1);
  await sleep(100_000);
  await watch.close();
  console.log(`[lifecycle] idle 100 s: worker stops ${watch.stops}, starts ${watch.starts}`);
  assert.ok(watch.stops >= 1, `Chrome stopped the idle worker at least once (stops: ${watch.stops})`);
  assert.equal(server.stats.sessionsOpened, 1, 'exactly one session over the whole idle time');
  assert.equal(server.stats.sessionsClosed, 0, 'no session was closed');
  const result = await runToolInPanel(panel, 'demo', 'echo', { text: 'after idling' });
  assert.equal(result.text?.trim(), 'echo: after idling', result.error);
  assert.equal(server.stats.sessionsOpened, 1, 'the call ran on the same session');
  assert.equal(server.stats.initializeRequests, 1);
});

test('(b) C6/C7: a stopped worker is replaced by one that adopts the session — no new initialize', async () => {
  const initializes = server.stats.initializeRequests;
  const opened = server.stats.sessionsOpened;
  await until('a running worker', async () => ((await workerState('demo')) ? workerRunning(ext) : undefined));
  await stopAndWakeFromPanel();
  const result = await runToolInPanel(panel, 'demo', 'add', { a: 2, b: 3 });
  assert.equal(result.text?.trim(), 'sum=5', result.error);
  assert.equal(server.stats.initializeRequests, initializes, 'no new initialize at the server');
  assert.equal(server.stats.sessionsOpened, opened, 'no new session');
  assert.equal(server.stats.sessionsClosed, 0);
});

interface ChannelStats {
  pairings: number;
  onChannel: boolean;
  sent: number;
  received: number;
}
const channelStats = () => evaluateInWorker<ChannelStats>(ext, 'globalThis.remoteMcp.offscreenChannel()');

test('(c) requests and answers travel on the data channel, and a stopped and woken worker pairs a new one', async () => {
  await until('a running worker', async () => ((await workerState('demo')) ? workerRunning(ext) : undefined));
  const before = await channelStats();
  assert.ok(before.pairings >= 1 && before.onChannel, `the worker paired the channel: ${JSON.stringify(before)}`);
  const first = await runToolInPanel(panel, 'demo', 'echo', { text: 'on the channel' });
  assert.equal(first.text?.trim(), 'echo: on the channel', first.error);
  const afterCall = await channelStats();
  assert.ok(afterCall.sent > before.sent, `the call went on the channel: ${JSON.stringify([before, afterCall])}`);
  assert.ok(afterCall.received > before.received, `its answer came on the channel: ${JSON.stringify([before, afterCall])}`);

  await stopAndWakeFromPanel();
  const again = await runToolInPanel(panel, 'demo', 'add', { a: 4, b: 5 });
  assert.equal(again.text?.trim(), 'sum=9', again.error);
  const woken = await channelStats();
  assert.equal(woken.pairings, 1, `the new instance paired the new Port's channel: ${JSON.stringify(woken)}`);
  assert.ok(woken.onChannel && woken.sent >= 1 && woken.received >= 1, `the call after the wake used it: ${JSON.stringify(woken)}`);
});

interface PanelChannelStats {
  pairings: number;
  sent: number;
  received: number;
}
const panelChannelStats = () => evaluateInWorker<PanelChannelStats>(ext, 'globalThis.remoteMcp.panelChannels()');

test('(c2) the panel’s requests, answers and pushes travel on its data channel, also after a wake', async () => {
  const before = await panelChannelStats();
  assert.ok(before.pairings >= 1, `the panel's Port was paired with its channel: ${JSON.stringify(before)}`);
  const first = await runToolInPanel(panel, 'demo', 'echo', { text: 'panel channel' });
  assert.equal(first.text?.trim(), 'echo: panel channel', first.error);
  const afterCall = await panelChannelStats();
  assert.ok(afterCall.received > before.received, `the runner's request came on the channel: ${JSON.stringify([before, afterCall])}`);
  assert.ok(afterCall.sent > before.sent, `its answer went on the channel: ${JSON.stringify([before, afterCall])}`);

  await stopAndWakeFromPanel();
  const woken = await panelChannelStats();
  const again = await runToolInPanel(panel, 'demo', 'add', { a: 2, b: 3 });
  assert.equal(again.text?.trim(), 'sum=5', again.error);
  const afterWake = await panelChannelStats();
  assert.ok(woken.pairings >= 1, `the new instance paired the panel's new Port: ${JSON.stringify(woken)}`);
  assert.ok(
    afterWake.received > woken.received && afterWake.sent > woken.sent,
    `the call after the wake used it: ${JSON.stringify([woken, afterWake])}`,
  );
});

test('(d) C7: a server that never answers ends in error within its connect time limit, across a worker restart', async () => {
  const limitMs = 10_000;
  const entries = await stored();
  entries.push({
    id: 'silent',
    name: 'Silent',
    url: silentUrl,
    auth: { kind: 'none' },
    enabled: true,
    disabledTools: [],
    connectOnStartup: true,
    connectTimeoutMs: limitMs,
  });
  await panel.evaluate(`chrome.storage.local.set({ mcp_servers: ${JSON.stringify(entries)} })`);
  const connecting = await until('the attempt to start', async () => {
    const s = await workerState('silent');
    return s?.status === 'connecting' && s.connectingSince ? s : undefined;
  });
  const since = connecting.connectingSince!;
  await sleep(3_000);
  await stopWorker(ext);
  // A new worker measures from the first attempt's start, not from its own.
  const resumed = await until('the new worker to resume the attempt', async () => {
    const s = await workerState('silent');
    return s && s.status !== 'disconnected' ? s : undefined;
  });
  if (resumed.status === 'connecting') assert.equal(resumed.connectingSince, since, 'the attempt keeps its original start');
  const failed = await until('the attempt to end in error', async () => {
    const s = await workerState('silent');
    return s?.status === 'error' ? s : undefined;
  });
  const took = Date.now() - since;
  assert.ok(took <= limitMs + 4_000, `error after ${took} ms (limit ${limitMs} ms)`);
  assert.equal(failed.reason?.kind, 'timeout');
  assert.match(failed.reason?.message ?? '', /within 10 s/);
  // The demo server is untouched by all this.
  assert.equal((await workerState('demo'))?.status, 'ready');
});

test('(e) C6: a stored entry changed while the worker was stopped — its session is closed, not adopted', async () => {
  const entries = (await stored()).filter((e) => e.id !== 'silent');
  const changed = entries.map((e) => (e.id === 'demo' ? { ...e, timeoutMs: 45_000 } : e));
  const opened = server.stats.sessionsOpened;
  const closed = server.stats.sessionsClosed;
  // No extension page may wake the worker between the stop and the write: the panel goes first.
  await panel.close();
  await stopWorker(ext);
  assert.equal(await workerRunning(ext), false);
  panel = await ext.browser.newPage();
  // Runs before the panel's own scripts: the entry is changed before the panel's Port wakes the worker.
  await panel.evaluateOnNewDocument(`chrome.storage.local.set({ mcp_servers: ${JSON.stringify(changed)} })`);
  await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
  await until('the stale session to be closed', async () => (server.stats.sessionsClosed > closed ? true : undefined));
  await until('a fresh session to be ready', async () => ((await workerState('demo'))?.status === 'ready' ? true : undefined));
  assert.equal(server.stats.sessionsOpened, opened + 1, 'one new session, for the new binding');
  assert.equal(server.stats.sessionsOpened - server.stats.sessionsClosed, 1, 'one live session');
  const result = await runToolInPanel(panel, 'demo', 'echo', { text: 'new binding' });
  assert.equal(result.text?.trim(), 'echo: new binding', result.error);
});

test('no extension page logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
