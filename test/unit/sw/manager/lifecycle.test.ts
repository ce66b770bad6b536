/**
 * Connection lifecycle of McpManager against a fake offscreen (SPEC C2–C6): shared attempts,
 * the disconnect barrier, drift during the handshake, stale connection ids, lazy and start-up
 * connects, disabled servers. Each test counts opens and closes so nothing leaks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerViewSchema } from '../../../../src/protocol/panel.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { PENDING, cfg, flush, harness, routine, settledState } from './harness.js';

/** Leaves `offscreen:connect` pending; everything else routine. */
const holdConnect = (method: string, params: Record<string, unknown>) =>
  method === 'offscreen:connect' ? PENDING : routine(method, params);

test('C4: concurrent connects share one in-flight attempt', async () => {
  const h = harness(holdConnect);
  h.manager.reconcile([cfg('a')]);
  const p1 = h.manager.connect('a');
  const p2 = h.manager.connect('a');
  const p3 = h.manager.ensureReady('a');
  await flush();
  assert.equal(p1, p2);
  assert.equal(h.of('connect').length, 1);
  assert.equal(h.view('a').status, 'connecting');
  h.of('connect')[0]!.resolve({ capabilities: {} });
  await Promise.all([p1, p2, p3]);
  assert.equal(h.view('a').status, 'ready');
  assert.deepEqual(h.opened(), ['c1']);
  assert.deepEqual(h.closed(), []);
});

test('C4: a connect after a disconnect never reuses the older attempt', async () => {
  const h = harness(holdConnect);
  h.manager.reconcile([cfg('a')]);
  const before = h.manager.connect('a');
  await flush();
  const barrier = h.manager.disconnect('a');
  const after = h.manager.connect('a');
  assert.notEqual(after, before);
  assert.equal(h.view('a').status, 'disconnected');
  await flush();
  assert.equal(h.of('connect').length, 1, 'the new connect waits behind the barrier');
  h.of('connect')[0]!.resolve({ capabilities: {} });
  await assert.rejects(before, { code: 'superseded' });
  await barrier;
  await flush();
  assert.deepEqual(h.closed(), ['c1'], 'the old candidate was closed, not published');
  assert.equal(h.of('connect').length, 2);
  h.of('connect')[1]!.resolve({ capabilities: {} });
  await after;
  assert.equal(h.manager.state('a')?.status, 'ready');
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
});

test('C3/C5: a URL change during the handshake closes the candidate and reconnects with the new URL', async () => {
  const h = harness(holdConnect);
  h.manager.reconcile([cfg('a', { connectOnStartup: true })]);
  await flush();
  assert.equal(h.of('connect').length, 1);
  h.manager.reconcile([cfg('a', { connectOnStartup: true, url: 'http://127.0.0.1:9/new' })]);
  h.of('connect')[0]!.resolve({ capabilities: {} });
  await flush();
  assert.deepEqual(h.closed(), ['c1']);
  assert.equal(h.of('connect').length, 2);
  assert.equal(h.of('connect')[1]!.params.url, 'http://127.0.0.1:9/new');
  h.of('connect')[1]!.resolve({ capabilities: {} });
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.deepEqual(h.opened(), ['c1', 'c2']);
  assert.deepEqual(h.closed(), ['c1'], 'exactly the superseded candidate was closed');
});

test('C5: disabling the server while its catalog is being listed closes the candidate', async () => {
  const h = harness((m, p) => (m === 'offscreen:list-category' ? PENDING : routine(m, p)));
  h.manager.reconcile([cfg('a')]);
  const p = h.manager.connect('a');
  await flush();
  assert.equal(h.of('list-category', true).length, 4);
  h.manager.reconcile([cfg('a', { enabled: false })]);
  for (const r of h.of('list-category', true)) r.resolve({ category: r.params.category, items: [] });
  await assert.rejects(p, { code: 'superseded' });
  await flush();
  assert.equal(h.view('a').status, 'disconnected');
  assert.deepEqual(h.opened(), ['c1']);
  assert.deepEqual(h.closed(), ['c1']);
});

test('C5: a failed handshake closes the candidate it opened and records an attributed error', async () => {
  const h = harness((m, p) => {
    if (m === 'offscreen:list-category') throw Object.assign(new Error('boom'), { code: 'timeout' });
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await assert.rejects(h.manager.connect('a'), { code: 'protocol' });
  assert.deepEqual(h.closed(), ['c1']);
  assert.equal(h.view('a').status, 'error');
  assert.equal(h.view('a').reason?.kind, 'protocol');
});

test('C6: events for a stale or unknown connectionId are ignored', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  await h.manager.disconnect('a');
  await h.manager.connect('a');
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  const lists = h.of('list-category').length;
  h.manager.handleEvent({ type: 'offscreen:list-changed', connectionId: 'c1', category: 'tools' });
  h.manager.handleEvent({ type: 'offscreen:list-changed', connectionId: 'nobody', category: 'tools' });
  h.manager.handleEvent({ type: 'offscreen:session-lost', connectionId: 'c1', error: { code: 'network', message: 'gone' } });
  await flush();
  assert.equal(h.of('list-category').length, lists, 'no refresh for a stale connection');
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.equal(h.of('connect').length, 2, 'no recovery started by a stale session-lost');
});

test('C2: lazy connect on first call, then the call runs on the new connection', async () => {
  const h = harness((m, p) => (m === 'offscreen:call-tool' ? { content: [{ type: 'text', text: 'hi' }] } : routine(m, p)));
  h.manager.reconcile([cfg('a')], { startup: true });
  await flush();
  assert.equal(h.requests.length, 0, 'connectOnStartup=false: nothing at start-up');
  const result = await h.manager.callTool('a', 'echo', { text: 'hi' }, 'op1');
  assert.deepEqual(result, { content: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual(
    h.requests.map((r) => r.method).filter((m) => m !== 'offscreen:list-category'),
    ['offscreen:connect', 'offscreen:call-tool'],
  );
  assert.equal(h.of('call-tool')[0]!.params.connectionId, 'c1');
});

test('E10: a call the server refuses for authorization the worker cannot renew moves a ready server to needs-auth with Authorize, and closes its session', async () => {
  const h = harness((m, p) => {
    if (m === 'offscreen:call-tool') throw new RemoteError({ code: 'needs-auth', message: 'authorize again', httpStatus: 401 });
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a', { auth: { kind: 'oauth' } })]);
  await h.manager.connect('a');
  assert.equal(h.view('a').status, 'ready');
  await assert.rejects(h.manager.callTool('a', 'echo', { text: 'hi' }, 'op1'), { code: 'needs-auth' });
  await flush();
  const view = h.view('a');
  assert.equal(view.status, 'needs-auth');
  assert.equal(view.reason?.action, 'authorize');
  assert.deepEqual(h.closed(), ['c1']);
});

test('E7: a call refused with a 403 scope challenge leaves the server ready: the step-up is offered where the call was made', async () => {
  const h = harness((m, p) => {
    if (m === 'offscreen:call-tool') throw new RemoteError({ code: 'needs-auth', message: 'grant more access', httpStatus: 403 });
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a', { auth: { kind: 'oauth' } })]);
  await h.manager.connect('a');
  await assert.rejects(h.manager.callTool('a', 'echo', { text: 'hi' }, 'op1'), { code: 'needs-auth' });
  await flush();
  assert.equal(h.view('a').status, 'ready');
  assert.deepEqual(h.closed(), []);
});

test('C2: disabled servers never connect, not at start-up, not on connect, not on a call', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a', { enabled: false, connectOnStartup: true })], { startup: true });
  await flush();
  await assert.rejects(h.manager.connect('a'), { code: 'config-invalid' });
  await assert.rejects(h.manager.callTool('a', 'echo', {}, 'op1'), { code: 'config-invalid' });
  await assert.rejects(h.manager.ping('a'), { code: 'config-invalid' });
  assert.equal(h.of('connect').length, 0);
  assert.equal(h.view('a').status, 'disconnected');
});

test('C2: start-up connects only servers that are enabled and connectOnStartup', async () => {
  const h = harness();
  h.manager.reconcile(
    [
      cfg('a', { connectOnStartup: true }),
      cfg('b'),
      cfg('c', { enabled: false, connectOnStartup: true }),
      cfg('d', { connectOnStartup: true }),
    ],
    { startup: true },
  );
  await flush();
  assert.deepEqual(
    h
      .of('connect')
      .map((r) => r.params.serverId)
      .sort(),
    ['a', 'd'],
  );
  assert.deepEqual(
    h.manager.views().map((v) => v.status),
    ['ready', 'disconnected', 'disconnected', 'ready'],
  );
});

test('C3: removing a server closes its session; disabling one closes it too', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a', { connectOnStartup: true }), cfg('b', { connectOnStartup: true })]);
  await flush();
  h.manager.reconcile([cfg('b', { connectOnStartup: true, enabled: false })]);
  await flush();
  assert.deepEqual(h.closed().sort(), ['c1', 'c2']);
  assert.deepEqual(
    h.manager.views().map((v) => [v.id, v.status]),
    [['b', 'disconnected']],
  );
});

test('views() always validate against the panel schema', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a', { connectOnStartup: true }), cfg('b')]);
  await flush();
  for (const v of h.manager.views()) assert.equal(ServerViewSchema.safeParse(v).success, true, JSON.stringify(v));
  assert.equal(await settledState(h.manager.connect('b')), 'resolved');
});

test('I3: call observers see every call start before it is sent and settle before its caller sees the outcome', async () => {
  const h = harness((m, p) => (m === 'offscreen:call-tool' ? PENDING : routine(m, p)));
  h.manager.reconcile([cfg('a')], { startup: true });
  const seen: string[] = [];
  const stop = h.manager.observeCalls({
    started: (op, call) => seen.push(`start ${op} ${call.serverId}/${call.tool} ${JSON.stringify(call.arguments)}`),
    settled: (op) => seen.push(`settled ${op}`),
  });
  const ok = h.manager.callTool('a', 'echo', { text: 'hi' }, 'op1').then(() => seen.push('caller op1'));
  assert.deepEqual(seen, ['start op1 a/echo {"text":"hi"}'], 'told at once, before any request');
  await flush();
  h.of('call-tool', true)[0]!.resolve({ content: [] });
  await ok;
  // A call refused before it is sent is still reported as settled.
  await assert.rejects(h.manager.callTool('a', 'nope', {}, 'op2'), { code: 'unknown-tool' });
  stop();
  await assert.rejects(h.manager.callTool('a', 'nope', {}, 'op3'));
  assert.deepEqual(seen, ['start op1 a/echo {"text":"hi"}', 'settled op1', 'caller op1', 'start op2 a/nope {}', 'settled op2']);
});

test('C2: a lazy server the user disconnected is not woken by an agent listing tools; a Connect lifts that', async () => {
  const h = harness();
  h.manager.reconcile([cfg('lazy', { connectOnStartup: false })]);
  h.manager.wakeLazyServers();
  await flush();
  assert.equal(h.view('lazy').status, 'ready');
  await h.manager.disconnect('lazy');
  h.manager.wakeLazyServers();
  await flush();
  assert.equal(h.view('lazy').status, 'disconnected');
  assert.deepEqual(h.opened(), ['c1']);
  await h.manager.connect('lazy');
  await h.manager.disconnect('lazy');
  await h.manager.connect('lazy');
  h.manager.wakeLazyServers();
  await flush();
  assert.equal(h.view('lazy').status, 'ready');
  assert.deepEqual(h.opened(), ['c1', 'c2', 'c3']);
});

test('C1: listedTool finds one tool exactly as the views list it: none before the server connects, then the listed one', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')], { startup: true });
  await flush();
  assert.equal(h.manager.listedTool('a', 'echo'), undefined, 'a server never connected shows no tools');
  await h.manager.connect('a');
  const fromViews = h.manager.views()[0]!.tools.find((t) => t.name === 'echo');
  assert.ok(fromViews, 'the routine catalog lists echo');
  assert.deepEqual(h.manager.listedTool('a', 'echo'), fromViews);
  assert.equal(h.manager.listedTool('a', 'absent'), undefined);
  assert.equal(h.manager.listedTool('nope', 'echo'), undefined);
});
