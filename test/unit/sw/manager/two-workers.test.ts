/**
 * Two overlapping worker instances against ONE offscreen host (SPEC C6): an old `McpManager` +
 * `McpWorkerClient` pair and a new one share the real host dispatch of src/offscreen/host.ts
 * (its `dispatch` is not exported, so the host is started with a fake `chrome.runtime.connect`
 * and driven through its Port) and real MCP sessions to the demo server. A small multiplexer
 * stands in for the single worker Port, renumbering request ids so both clients can share it,
 * and can hold one side's messages to choose the order in which they reach the host.
 *
 * What the host guarantees, and this proves: a candidate whose connect reached the host before
 * the current one cannot replace it, requests on a superseded connectionId are refused or are
 * no-ops, and the current session stays usable throughout. What it does not guarantee: there is
 * no per-worker ownership, so a connect that *arrives* later supersedes by design; a stale worker
 * is kept out by the document closing with its Port, and connectionIds are random UUIDs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpManager } from '../../../../src/sw/manager/mcp-manager.js';
import { McpWorkerClient, type PortLike } from '../../../../src/sw/offscreen-link/worker-client.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { startDemoServer, type DemoServer } from '../../../support/demo-server.js';
import { cfg, flush } from './harness.js';

type Msg = { kind: string; id?: number; [k: string]: unknown };
type Listeners = { message: ((m: unknown) => void)[]; disconnect: (() => void)[] };
const listen = (l: Listeners) => ({
  onMessage: { addListener: (cb: (m: unknown) => void) => void l.message.push(cb) },
  onDisconnect: { addListener: (cb: () => void) => void l.disconnect.push(cb) },
});

/** The host's end of its one Port, shared by both workers' ends through id renumbering. */
const host: Listeners = { message: [], disconnect: [] };
const route = new Map<number, { side: Side; id: number }>();
const sides: Side[] = [];
let nextGlobal = 1;

class Side implements PortLike {
  readonly l: Listeners = { message: [], disconnect: [] };
  readonly held: Msg[] = [];
  holding = false;
  onMessage = listen(this.l).onMessage;
  onDisconnect = listen(this.l).onDisconnect;
  postMessage(message: unknown) {
    const m = structuredClone(message) as Msg;
    if (this.holding) this.held.push(m);
    else this.#send(m);
  }
  /** Lets held messages through, in the order they were sent. */
  release() {
    this.holding = false;
    for (const m of this.held.splice(0)) this.#send(m);
  }
  deliver(m: unknown) {
    for (const cb of this.l.message) cb(m);
  }
  #send(m: Msg) {
    const g = nextGlobal++;
    route.set(g, { side: this, id: m.id! });
    for (const cb of host.message) cb({ ...m, id: g });
  }
}

function fromHost(message: unknown) {
  const m = structuredClone(message) as Msg;
  if (m.kind !== 'response') return void sides.forEach((s) => s.deliver(m));
  const r = route.get(m.id!);
  route.delete(m.id!);
  r?.side.deliver({ ...m, id: r.id });
}

/** One worker instance: its own manager, client and connectionId namespace. */
function worker(name: string) {
  const side = new Side();
  sides.push(side);
  const client = new McpWorkerClient(async () => side);
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

before(async () => {
  server = await startDemoServer();
  (globalThis as unknown as { chrome: unknown }).chrome = {
    runtime: { connect: () => ({ postMessage: fromHost, ...listen(host), disconnect() {} }) },
  };
  const { startOffscreenHost } = await import('../../../../src/offscreen/host.js');
  startOffscreenHost();
});

after(async () => {
  await server.close();
});

test('C6: an old instance whose connect reached the host first cannot replace the new instance', async () => {
  const old = worker('old');
  const neu = worker('new');
  const config = cfg('s1', { url: server.url });
  old.manager.reconcile([config]);
  neu.manager.reconcile([config]);

  // The old instance's connect reaches the host first; the new one's right behind it, while the
  // old handshake is still on the network.
  old.side.holding = true;
  const oldConnect = old.manager.connect('s1');
  oldConnect.catch(() => undefined);
  await flush();
  neu.side.holding = true;
  const newConnect = neu.manager.connect('s1');
  await flush();
  old.side.release();
  neu.side.release();

  await newConnect;
  await assert.rejects(oldConnect, (e) => codeOf(e) === 'stale-connection', 'the late candidate is refused');
  assert.deepEqual(neu.manager.state('s1'), { status: 'ready', connectionId: 'new-1' });
  assert.notEqual(old.manager.state('s1')?.status, 'ready');

  const result = await neu.manager.callTool('s1', 'echo', { text: 'still mine' }, 'op-1');
  assert.match(JSON.stringify(result), /still mine/);
  // The refused candidate's HTTP session was closed, not leaked.
  await until(() => server.stats.sessionsClosed >= 1, 'the stale candidate session to close');
});

test('C6: requests on a superseded connectionId are refused or no-ops and leave the current session alone', async () => {
  const old = worker('old2');
  const neu = worker('new2');
  const config = cfg('s2', { url: server.url });
  old.manager.reconcile([config]);
  neu.manager.reconcile([config]);

  await old.manager.connect('s2');
  assert.deepEqual(old.manager.state('s2'), { status: 'ready', connectionId: 'old2-1' });
  // The new instance connects: its session supersedes the old instance's one in the host.
  await neu.manager.connect('s2');
  assert.deepEqual(neu.manager.state('s2'), { status: 'ready', connectionId: 'new2-1' });

  const stale = { connectionId: 'old2-1' };
  await assert.rejects(
    old.client.request('offscreen:call-tool', { ...stale, name: 'echo', arguments: { text: 'x' }, operationId: 'op-old', timeoutMs: 5000 }),
    (e) => codeOf(e) === 'stale-connection',
  );
  await assert.rejects(
    old.client.request('offscreen:list-category', { ...stale, category: 'tools' }),
    (e) => codeOf(e) === 'stale-connection',
  );
  await assert.rejects(old.client.request('offscreen:ping', stale), (e) => codeOf(e) === 'stale-connection');
  assert.deepEqual(await old.client.request('offscreen:close', stale), { closed: false });
  assert.deepEqual(await old.client.request('offscreen:cancel', { ...stale, operationId: 'op-new' }), { cancelled: false });
  assert.deepEqual(await old.client.request('offscreen:set-authorization', { ...stale, authorization: 'Bearer stolen' }), {
    updated: false,
  });
  // The old manager's own call goes to its stale session and is refused, never to the new one.
  const callsBefore = server.stats.toolCalls.length;
  await assert.rejects(
    old.client.request('offscreen:call-tool', {
      ...stale,
      name: 'echo',
      arguments: { text: 'old' },
      operationId: 'op-old-2',
      timeoutMs: 5000,
    }),
    (e) => codeOf(e) === 'stale-connection',
  );
  assert.equal(server.stats.toolCalls.length, callsBefore, 'nothing reached the server for the stale connection');

  assert.deepEqual(neu.manager.state('s2'), { status: 'ready', connectionId: 'new2-1' });
  const result = await neu.manager.callTool('s2', 'echo', { text: 'after the stale ones' }, 'op-2');
  assert.match(JSON.stringify(result), /after the stale ones/);
  assert.equal(typeof (await neu.manager.ping('s2')), 'number');
});
