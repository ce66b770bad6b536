/**
 * McpManager against a real MCP server process (the SDK demo server on 127.0.0.1) through the
 * real offscreen host and worker client: list_changed storms (N5, D2), catalog warnings and
 * task-only tools (N8), cancels that arrive before a call is sent (H2), and lazy servers (C2).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpManager } from '../../../../src/sw/manager/mcp-manager.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { startDemoServer, type DemoServer } from '../../../support/demo-server.js';
import { managerOverRealHost, until } from '../../../support/node-offscreen.js';
import { deferred } from '../../../support/deferred.js';
import { cfg } from './harness.js';

let server: DemoServer;
let manager: McpManager;

before(async () => {
  server = await startDemoServer({
    rawTools: [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'bad name!', inputSchema: { type: 'object' } },
      { name: 'batch_job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
    ],
  });
  ({ manager } = await managerOverRealHost());
});

after(async () => {
  await Promise.all(manager.views().map((v) => manager.disconnect(v.id)));
  await server.close();
});

const codeOf = (e: unknown) => (e instanceof RemoteError ? e.code : (e as { code?: string }).code);
const view = (id: string) => manager.views().find((v) => v.id === id)!;
const toolNames = (id: string) => view(id).tools.map((t) => t.name);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('N8/tasks: duplicates and invalid names are left out of the catalog, each with its reason on the view; a task-only tool is offered', async () => {
  manager.reconcile([cfg('limits', { url: server.url })]);
  await manager.connect('limits');
  assert.deepEqual(toolNames('limits'), ['echo', 'add', 'slow', 'batch_job']);
  const warnings = view('limits').warnings ?? [];
  assert.equal(warnings.length, 2, warnings.map((w) => w.message).join('\n'));
  assert.match(warnings.map((w) => w.message).join('\n'), /invalid names .*"bad name!"/);
  assert.match(warnings.map((w) => w.message).join('\n'), /another tool already has: "echo"/);
  await manager.disconnect('limits');
});

test('N5/D2: a list_changed storm is paced (≤ ~2 tools/list per second), ends with the final catalog, and a failing listing mid-storm keeps the last good one', async () => {
  manager.reconcile([cfg('storm', { url: server.url })]);
  await manager.connect('storm');
  const listsBefore = server.stats.methods['tools/list'] ?? 0;
  const started = Date.now();
  // 20 changes in 1 s, as in the field report that saw 21 tools/list for them.
  for (let i = 0; i < 20; i++) {
    server.addTool(`storm_${i}`);
    await sleep(50);
  }
  await until(() => toolNames('storm').includes('storm_19'), 'the final catalog', 5_000);
  await sleep(700);
  const lists = (server.stats.methods['tools/list'] ?? 0) - listsBefore;
  const seconds = (Date.now() - started) / 1000;
  assert.ok(lists <= Math.ceil(seconds * 2) + 1, `${lists} tools/list in ${seconds.toFixed(1)} s`);
  assert.ok(lists <= 5, `${lists} tools/list for 20 changes`);

  // Now the server fails its listings during the next storm: the last good catalog stays.
  const good = toolNames('storm');
  server.failToolsList = true;
  for (let i = 20; i < 25; i++) {
    server.addTool(`storm_${i}`);
    await sleep(50);
  }
  await until(() => view('storm').staleSince !== undefined, 'the catalog to be marked stale', 5_000);
  assert.deepEqual(toolNames('storm'), good);
  assert.match((view('storm').warnings ?? []).map((w) => w.message).join('\n'), /Could not refresh the tools; showing the last list\./);
  server.failToolsList = false;
  server.addTool('after_storm');
  await until(() => toolNames('storm').includes('after_storm'), 'the catalog after the storm', 5_000);
  assert.equal(view('storm').staleSince, undefined);
  await manager.disconnect('storm');
});

test('H2: a call cancelled while it waits for a lazy connect is never sent', async () => {
  manager.reconcile([...manager.views().map((v) => cfg(v.id, { url: server.url })), cfg('lazy1', { url: server.url })]);
  const gate = deferred<void>();
  server.hold = { methods: ['initialize'], until: gate.promise };
  const echoes = server.stats.toolCalls.filter((t) => t === 'echo').length;
  const calls = server.stats.methods['tools/call'] ?? 0;
  const call = manager.callTool('lazy1', 'echo', { text: 'never' }, 'op-lazy');
  await until(() => view('lazy1').status === 'connecting', 'the lazy connect to start');
  assert.equal(manager.cancelUnsent('op-lazy'), true);
  await assert.rejects(call, (e) => codeOf(e) === 'cancelled' && /before it was sent/.test((e as Error).message));
  server.hold = undefined;
  gate.resolve();
  await until(() => view('lazy1').status === 'ready', 'the connect to finish');
  await sleep(200);
  assert.equal(server.stats.methods['tools/call'] ?? 0, calls, 'no tools/call reached the server');
  assert.equal(server.stats.toolCalls.filter((t) => t === 'echo').length, echoes);
  assert.equal(manager.cancelUnsent('op-lazy'), false, 'nothing left to cancel');
});

test('H2: a call cancelled while it waits for the session to be rebuilt is never sent', async () => {
  assert.equal(view('lazy1').status, 'ready');
  const gate = deferred<void>();
  server.hold = { methods: ['initialize'], until: gate.promise };
  await server.dropSessions();
  // The next call meets the lost session (404), which starts a recovery that hangs on initialize.
  await assert.rejects(manager.callTool('lazy1', 'echo', { text: 'lost' }, 'op-lost'));
  await until(() => view('lazy1').status === 'connecting', 'the recovery to start');
  const calls = server.stats.methods['tools/call'] ?? 0;
  const call = manager.callTool('lazy1', 'echo', { text: 'never' }, 'op-wait');
  await sleep(50);
  assert.equal(manager.cancelUnsent('op-wait'), true);
  await assert.rejects(call, (e) => codeOf(e) === 'cancelled');
  server.hold = undefined;
  gate.resolve();
  await until(() => view('lazy1').status === 'ready', 'the recovery to finish');
  await sleep(200);
  assert.equal(server.stats.methods['tools/call'] ?? 0, calls, 'the cancelled call was not sent after the recovery');
});

test('C2: a lazy server keeps its catalog (stale) after a disconnect, connects on first use, and enabling follows connectOnStartup', async () => {
  await manager.disconnect('lazy1');
  assert.equal(view('lazy1').status, 'disconnected');
  assert.ok(toolNames('lazy1').includes('echo'), 'the last catalog is kept');
  assert.equal(typeof view('lazy1').staleSince, 'number', 'and marked stale');
  const result = await manager.callTool('lazy1', 'echo', { text: 'lazy' }, 'op-first-use');
  assert.match(JSON.stringify(result), /echo: lazy/);
  assert.equal(view('lazy1').status, 'ready');
  assert.equal(view('lazy1').staleSince, undefined);

  // The user's Disconnect sticks: an agent listing tools does not undo it.
  await manager.disconnect('lazy1');
  manager.wakeLazyServers();
  await sleep(100);
  assert.equal(view('lazy1').status, 'disconnected');

  const others = manager
    .views()
    .filter((v) => !['lazy1', 'eager'].includes(v.id))
    .map((v) => cfg(v.id, { url: server.url }));
  manager.reconcile([
    ...others,
    cfg('lazy1', { url: server.url, enabled: false }),
    cfg('eager', { url: server.url, enabled: false, connectOnStartup: true }),
  ]);
  await until(() => view('lazy1').status === 'disconnected', 'disabling to disconnect');
  assert.deepEqual(toolNames('lazy1'), [], 'disabling forgets the catalog');
  manager.reconcile([...others, cfg('lazy1', { url: server.url }), cfg('eager', { url: server.url, connectOnStartup: true })]);
  await until(() => view('eager').status === 'ready', 'enabling an eager server to connect it');
  await sleep(100);
  assert.equal(view('lazy1').status, 'disconnected', 'enabling a lazy server leaves it for first use');
  manager.wakeLazyServers();
  await until(() => view('lazy1').status === 'ready', 'an agent listing to wake the re-enabled lazy server');
});

test('N8: a tool whose name is over 128 characters is listed under its alias, and calling the alias runs the tool by its own name', async () => {
  const long = `lookup_${'n'.repeat(150)}`;
  server.addTool(long);
  manager.reconcile([cfg('long-names', { url: server.url })]);
  await manager.connect('long-names');
  const alias = toolNames('long-names').find((n) => n.startsWith('lookup_'));
  assert.ok(alias, toolNames('long-names').join(', '));
  assert.ok(alias.length <= 128);
  assert.match((view('long-names').warnings ?? []).map((w) => w.message).join('\n'), new RegExp(`"${alias}" for "lookup_n`));
  const result = await manager.callTool('long-names', alias, {}, 'op-long');
  assert.deepEqual(result.content, [{ type: 'text', text: long }], 'the server ran the tool it knows by the long name');
  // Listed again on a new session: the same alias.
  await manager.disconnect('long-names');
  await manager.connect('long-names');
  assert.ok(toolNames('long-names').includes(alias));
  await manager.disconnect('long-names');
});
