/**
 * Worker instances handing the offscreen document's sessions over (SPEC C6, C7): the real host of
 * src/offscreen/host.ts, started with a fake `chrome.runtime`, real MCP sessions to the demo
 * server, and `McpManager` + `McpWorkerClient` pairs standing for worker instances. A small
 * multiplexer stands in for the host's Port, renumbering request ids so two instances can share
 * it (as an old instance's late message would), and the test can drop the Port as Chrome does
 * when it stops the worker.
 *
 * What this proves: a new instance that claims the document adopts the sessions whose binding
 * fingerprint matches — ready with the document's catalog, no new `initialize` — and closes the
 * others; once claimed, nothing an older instance sends is honoured; a dropped Port keeps the
 * sessions but cancels the calls the gone instance was waiting for; the document wakes a worker
 * only when it has something to report.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpManager } from '../../../../src/sw/manager/mcp-manager.js';
import { McpWorkerClient, type PortLike } from '../../../../src/sw/offscreen-link/worker-client.js';
import { OFFSCREEN_RECONNECT } from '../../../../src/protocol/offscreen.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import { startDemoServer, type DemoServer } from '../../../support/demo-server.js';
import { freePort, startEverything, stopEverything } from '../../../support/server-everything.js';
import { cfg } from './harness.js';

type Msg = { kind: string; id?: number; [k: string]: unknown };
type Listeners = { message: ((m: unknown) => void)[]; disconnect: (() => void)[] };
const listen = (l: Listeners) => ({
  onMessage: { addListener: (cb: (m: unknown) => void) => void l.message.push(cb) },
  onDisconnect: { addListener: (cb: () => void) => void l.disconnect.push(cb) },
});

/** The host's end of its current Port; replaced each time the host connects. */
let host: Listeners = { message: [], disconnect: [] };
let hostConnects = 0;
const route = new Map<number, { side: Side; id: number }>();
let sides: Side[] = [];
let nextGlobal = 1;
let onReconnectMessage: ((m: unknown, sender: { id?: string }) => void) | undefined;

class Side implements PortLike {
  readonly l: Listeners = { message: [], disconnect: [] };
  onMessage = listen(this.l).onMessage;
  onDisconnect = listen(this.l).onDisconnect;
  postMessage(message: unknown) {
    const m = structuredClone(message) as Msg;
    const g = nextGlobal++;
    route.set(g, { side: this, id: m.id! });
    for (const cb of host.message) cb({ ...m, id: g });
  }
  deliver(m: unknown) {
    for (const cb of this.l.message) cb(m);
  }
}

function fromHost(message: unknown) {
  const m = structuredClone(message) as Msg;
  if (m.kind !== 'response') return void sides.forEach((s) => s.deliver(m));
  const r = route.get(m.id!);
  route.delete(m.id!);
  r?.side.deliver({ ...m, id: r.id });
}

/** Chrome stopped the worker: the host's Port disconnects; the instances' ends go with it. */
function dropPort() {
  const gone = host;
  host = { message: [], disconnect: [] };
  sides = [];
  for (const cb of gone.disconnect) cb();
}

/** A new worker instance's start-up message: the document opens its Port to it. */
function askHostToConnect() {
  onReconnectMessage?.({ type: OFFSCREEN_RECONNECT }, { id: 'ext' });
}

/** One worker instance: its own manager, client (owner token) and connectionId namespace. */
function worker(name: string) {
  const side = new Side();
  sides.push(side);
  const client = new McpWorkerClient(async () => side, `owner-${name}`);
  let n = 0;
  const manager = new McpManager({
    request: (method, params) => client.request(method, params),
    hasHostPermission: async () => true,
    headersFor: async () => ({}),
    newId: () => `${name}-${++n}`,
    delay: async () => undefined,
  });
  client.onEvent((e) => manager.handleEvent(e));
  return { side, client, manager };
}

/** Polls (real time: sessions talk HTTP) until `check` holds. */
async function until(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const codeOf = (e: unknown) => (e instanceof RemoteError ? e.code : (e as { code?: string }).code);
let server: DemoServer;
let config: McpServerConfig;
let round = 0;

before(async () => {
  server = await startDemoServer();
  const { startOffscreenHost } = await import('../../../../src/offscreen/host.js');
  startOffscreenHost({
    id: 'ext',
    connect: () => {
      hostConnects++;
      return { postMessage: fromHost, ...listen(host), disconnect() {} } as unknown as chrome.runtime.Port;
    },
    onMessage: { addListener: (cb) => void (onReconnectMessage = cb) },
  });
});

beforeEach(() => {
  // Each test its own server id, so sessions of earlier tests never match.
  config = cfg(`s${++round}`, { url: server.url, connectOnStartup: true });
});

after(async () => {
  // Close what the document still holds, or its sessions' streams keep the process alive.
  askHostToConnect();
  const last = worker('last');
  const { sessions } = await last.client.request('offscreen:claim', {});
  await Promise.all(sessions.map((s) => last.client.request('offscreen:close', { connectionId: s.connectionId })));
  await server.close();
});

/** A worker instance that claimed the document (as every instance does first) and connected `config`. */
async function connectedWorker(name: string) {
  const w = worker(name);
  await w.client.request('offscreen:claim', {});
  w.manager.reconcile([{ ...config, connectOnStartup: false }]);
  await w.manager.connect(config.id);
  return w;
}

test('C7: a new instance adopts the matching session — ready with its catalog, no new initialize', async () => {
  const old = await connectedWorker('a-old');
  const initializes = server.stats.initializeRequests;
  const opened = server.stats.sessionsOpened;
  dropPort();
  askHostToConnect();

  const neu = worker('a-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  const held = claimed.sessions.find((s) => s.serverId === config.id);
  assert.equal(held?.connectionId, 'a-old-1');
  assert.deepEqual(held?.stale, []);
  await neu.manager.start([config], { ...claimed, attempts: {} });

  assert.deepEqual(neu.manager.state(config.id), { status: 'ready', connectionId: 'a-old-1' });
  assert.deepEqual(
    neu.manager.views()[0]!.tools.map((t) => t.name),
    ['echo', 'add', 'slow'],
  );
  const result = await neu.manager.callTool(config.id, 'echo', { text: 'adopted' }, 'op-a');
  assert.match(JSON.stringify(result), /echo: adopted/);
  assert.equal(server.stats.initializeRequests, initializes, 'no new initialize');
  assert.equal(server.stats.sessionsOpened, opened, 'no new session');
  assert.equal(old.manager.state(config.id)?.status, 'ready', 'the old instance never learnt anything: it is gone');
});

/** The old instance's checks of each listing reach the document after the listing: wait until a claim shows them. */
async function claimWithChecks(name: string, categories: number) {
  for (let i = 0; ; i++) {
    askHostToConnect();
    const w = worker(`${name}-${i}`);
    const claimed = await w.client.request('offscreen:claim', {});
    const held = claimed.sessions.find((s) => s.serverId === config.id);
    if (Object.keys(held?.checked ?? {}).length >= categories) return { w, claimed, held: held! };
    if (i > 50) assert.fail('the document never got the checks');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('C7: the new instance adopts the lists as the old one checked and hashed them, without checking or hashing again', async () => {
  await connectedWorker('g-old');
  dropPort();
  const { w: neu, claimed, held } = await claimWithChecks('g-new', 3);
  const tools = held.checked!.tools!;
  assert.deepEqual(
    tools.items.map((t) => (t as { name: string }).name),
    ['echo', 'add', 'slow'],
  );
  assert.equal(tools.listing, held.listings?.tools);
  assert.ok(tools.hashes.every((h) => /^[0-9a-f]{64}$/.test(h)));
  // Marks that tell which copy was adopted: the checked list is taken as it is (a description the
  // raw listing does not have), and its hashes are taken where they equal the pins (none is
  // computed from content: the marked description would change the hash).
  (tools.items[0] as { description: string }).description = 'as the old instance checked it';
  const pins = { tools: tools.items.map((t, i) => ({ name: (t as { name: string }).name, hash: tools.hashes[i]! })) };
  await neu.manager.start([{ ...config, pins }], { ...claimed, attempts: {} });
  const echo = neu.manager.views()[0]!.tools.find((t) => t.name === 'echo');
  assert.equal(echo?.description, 'as the old instance checked it');
  assert.equal(neu.manager.definitionChanged(config.id, 'echo'), false);
  const result = await neu.manager.callTool(config.id, 'echo', { text: 'adopted' }, 'op-g');
  assert.match(JSON.stringify(result), /echo: adopted/);
});

test('C7/N8: checks that do not fit the listing are not taken: the document’s listing is checked and hashed like any', async () => {
  await connectedWorker('h-old');
  dropPort();
  const { w: neu, claimed, held } = await claimWithChecks('h-new', 3);
  const tools = held.checked!.tools!;
  const hashes = [...tools.hashes];
  // One hash short, and a raw listing with an entry the checks refuse.
  tools.hashes.pop();
  (tools.items[0] as { description: string }).description = 'not to be taken';
  held.catalog.tools = [...held.catalog.tools!, { name: 42 }];
  const pins = { tools: tools.items.map((t, i) => ({ name: (t as { name: string }).name, hash: hashes[i]! })) };
  await neu.manager.start([{ ...config, pins }], { ...claimed, attempts: {} });
  const view = neu.manager.views()[0]!;
  assert.deepEqual(
    view.tools.map((t) => t.name),
    ['echo', 'add', 'slow'],
    'the malformed entry is dropped',
  );
  assert.notEqual(view.tools[0]!.description, 'not to be taken');
  assert.ok(view.warnings?.some((w) => w.wording?.code === 'reasonToolNamesInvalid'));
  assert.equal(neu.manager.definitionChanged(config.id, 'echo'), false, 'hashed from content, it matches its pin');
});

test('C6: once a new instance claimed the document, nothing the old one sends is honoured', async () => {
  const old = await connectedWorker('b-old');
  const neu = worker('b-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  await neu.manager.start([config], { ...claimed, attempts: {} });
  const calls = server.stats.toolCalls.length;
  const closed = server.stats.sessionsClosed;

  const stale = { connectionId: 'b-old-1' };
  const refused = (e: unknown) => codeOf(e) === 'stale-connection';
  await assert.rejects(
    old.client.request('offscreen:call-tool', { ...stale, name: 'echo', arguments: { text: 'x' }, operationId: 'op-old', timeoutMs: 5000 }),
    refused,
  );
  await assert.rejects(old.client.request('offscreen:close', stale), refused);
  await assert.rejects(old.client.request('offscreen:set-authorization', { ...stale, authorization: 'Bearer stolen' }), refused);
  await assert.rejects(old.manager.callTool(config.id, 'echo', { text: 'old' }, 'op-old-2'));
  assert.equal(server.stats.toolCalls.length, calls, 'nothing reached the server for the old instance');
  assert.equal(server.stats.sessionsClosed, closed, 'the old instance could not close the adopted session');

  const result = await neu.manager.callTool(config.id, 'echo', { text: 'still mine' }, 'op-b');
  assert.match(JSON.stringify(result), /still mine/);
});

test('C6: a session whose stored binding changed is closed, not adopted', async () => {
  await connectedWorker('c-old');
  dropPort();
  askHostToConnect();
  const closed = server.stats.sessionsClosed;
  const neu = worker('c-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  // The entry changed while no worker ran (here: its timeout); the new instance connects afresh.
  const changed = { ...config, timeoutMs: 45_000 };
  await neu.manager.start([changed], { ...claimed, attempts: {} });
  await until(() => server.stats.sessionsClosed > closed, 'the stale session to be closed');
  await until(() => neu.manager.state(config.id)?.status === 'ready', 'a fresh session');
  assert.notEqual((neu.manager.state(config.id) as { connectionId: string }).connectionId, 'c-old-1');
});

test('H3: a dropped Port keeps the sessions, cancels the calls the gone instance waited for, and wakes nobody', async () => {
  const old = await connectedWorker('d-old');
  const cancels = server.stats.cancellations.length;
  const slow = old.manager.callTool(config.id, 'slow', { steps: 50, ms: 100 }, 'op-slow');
  slow.catch(() => undefined);
  await until(() => server.stats.toolCalls.at(-1) === 'slow', 'the slow call to reach the server');
  const connects = hostConnects;
  dropPort();
  await until(() => server.stats.cancellations.length > cancels, 'the server to be told to stop');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(hostConnects, connects, 'an idle document does not reconnect (it would wake the worker)');

  // A new worker asks the document to connect; the session is still there.
  askHostToConnect();
  assert.equal(hostConnects, connects + 1);
  const neu = worker('d-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  assert.ok(claimed.sessions.some((s) => s.connectionId === 'd-old-1'));
});

test('C7: a list change while no worker listens marks the category stale and wakes a worker', async () => {
  await connectedWorker('e-old');
  dropPort();
  const connects = hostConnects;
  server.addTool('late_tool');
  await until(() => hostConnects > connects, 'the document to connect to report the change');
  const neu = worker('e-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  const held = claimed.sessions.find((s) => s.serverId === config.id)!;
  assert.ok(held.stale.includes('tools'));
  await neu.manager.start([config], { ...claimed, attempts: {} });
  await until(() => neu.manager.views()[0]!.tools.some((t) => t.name === 'late_tool'), 'the stale tools to be listed again');
  assert.equal(neu.manager.state(config.id)?.status, 'ready');
});

test('R6: a task goes on when the Port drops — its end wakes a worker, whose claim lists it with its result', async (t) => {
  const port = await freePort();
  const everything = await startEverything(port);
  t.after(() => stopEverything(everything));
  const tasked = cfg(`tasks${++round}`, { url: `http://127.0.0.1:${port}/mcp`, connectOnStartup: true });
  const old = worker('f-old');
  await old.client.request('offscreen:claim', {});
  old.manager.reconcile([{ ...tasked, connectOnStartup: false }]);
  await old.manager.connect(tasked.id);
  const running = old.manager.callTool(tasked.id, 'simulate-research-query', { topic: 'tides' }, 'op-task');
  running.catch(() => undefined);
  const told: { state: string; taskId?: string }[] = [];
  old.client.onEvent((e) => void (e.type === 'offscreen:task' && told.push(e.task)));
  await until(() => told.some((task) => task.taskId !== undefined), 'the server to create the task', 10_000);
  const connects = hostConnects;
  dropPort();

  // Four stages of a second each: the task ends on its own, and the document says so.
  await until(() => hostConnects > connects, 'the document to wake a worker when the task ended', 15_000);
  const neu = worker('f-new');
  const claimed = await neu.client.request('offscreen:claim', {});
  const task = claimed.tasks?.find((x) => x.operationId === 'op-task');
  assert.equal(task?.state, 'completed', JSON.stringify(task));
  assert.equal(task?.serverId, tasked.id);
  assert.match(task?.preview ?? '', /# Research Report: tides/);
  assert.ok((task?.endedAt ?? 0) - (task?.startedAt ?? 0) >= 3_000, 'it ran its four stages, not cancelled with the Port');
  const cleared = await neu.client.request('offscreen:clear-tasks', { serverId: tasked.id });
  assert.ok(!cleared.tasks.some((x) => x.operationId === 'op-task'));
  await Promise.all(
    claimed.sessions
      .filter((s) => s.serverId === tasked.id)
      .map((s) => neu.client.request('offscreen:close', { connectionId: s.connectionId })),
  );
});
