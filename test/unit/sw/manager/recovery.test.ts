/**
 * Catalog generations, catalog limits and session recovery of McpManager (SPEC D2, C7, H3,
 * N5, N7, N8), driven through a fake offscreen whose answers the tests release one by one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SESSION_RECOVERY_ATTEMPTS } from '../../../../src/sw/manager/connection-state.js';
import { RECOVERY_MAX_DELAY_MS, recoveryDelay } from '../../../../src/sw/manager/mcp-manager.js';
import { ServerViewSchema } from '../../../../src/protocol/panel.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { CATALOG, PENDING, TOOL, cfg, flush, harness, routine } from './harness.js';

const toolNames = (h: ReturnType<typeof harness>) => h.view('a').tools.map((t) => t.name);
const listChanged = (connectionId: string, category: 'tools' | 'prompts' | 'resources' = 'tools') =>
  ({ type: 'offscreen:list-changed', connectionId, category }) as const;
const lost = (connectionId: string) =>
  ({ type: 'offscreen:session-lost', connectionId, error: { code: 'session-lost', message: 'HTTP 404 on the session' } }) as const;

/** Routine during the handshake; later listings stay pending for the test to release. */
function holdRefreshes() {
  let ready = false;
  const h = harness((m, p) => (ready && m === 'offscreen:list-category' ? PENDING : routine(m, p)));
  return { h, arm: () => (ready = true) };
}

test('D2/N5: list_changed bursts coalesce and the newest listing commits', async () => {
  const { h, arm } = holdRefreshes();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  arm();
  h.manager.handleEvent(listChanged('c1'));
  await flush();
  h.manager.handleEvent(listChanged('c1'));
  h.manager.handleEvent(listChanged('c1'));
  await flush();
  assert.equal(h.of('list-category', true).length, 1, 'one refresh in flight, one queued');
  h.of('list-category', true)[0]!.resolve({ category: 'tools', items: [TOOL('echo'), TOOL('v2')] });
  await flush();
  assert.deepEqual(toolNames(h), ['echo', 'v2']);
  assert.equal(h.of('list-category', true).length, 1, 'the queued refresh runs once');
  h.of('list-category', true)[0]!.resolve({ category: 'tools', items: [TOOL('echo'), TOOL('v3')] });
  await flush();
  assert.deepEqual(toolNames(h), ['echo', 'v3']);
  assert.equal(h.of('list-category', true).length, 0);
});

test("D2/C6: a slow listing of a lost session never overwrites the newer session's catalog", async () => {
  let phase = 0;
  const h = harness((m, p) => {
    if (m === 'offscreen:list-category' && phase === 1) return PENDING;
    if (m === 'offscreen:list-category' && phase === 2 && p.category === 'tools') return { category: 'tools', items: [TOOL('fresh')] };
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  phase = 1;
  h.manager.handleEvent(listChanged('c1'));
  await flush();
  const slow = h.of('list-category', true)[0]!;
  phase = 2;
  h.manager.handleEvent(lost('c1'));
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.deepEqual(toolNames(h), ['fresh']);
  slow.resolve({ category: 'tools', items: [TOOL('stale')] });
  await flush();
  assert.deepEqual(toolNames(h), ['fresh']);
});

test('D2: a category whose refresh fails keeps its last valid list, marked stale with a warning; others still update', async () => {
  const { h, arm } = holdRefreshes();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  arm();
  h.manager.handleEvent(listChanged('c1', 'tools'));
  h.manager.handleEvent(listChanged('c1', 'prompts'));
  await flush();
  // Each category has its own refresher: neither waits for the other.
  assert.deepEqual(
    h.of('list-category', true).map((r) => r.params.category),
    ['tools', 'prompts'],
  );
  const [tools, prompts] = h.of('list-category', true);
  tools!.reject(new RemoteError({ code: 'network', message: 'blip' }));
  prompts!.resolve({ category: 'prompts', items: [{ name: 'p2' }] });
  await flush();
  assert.deepEqual(toolNames(h), ['echo'], 'a network blip is not "the server removed everything"');
  assert.deepEqual(
    h.view('a').prompts.map((p) => p.name),
    ['p2'],
  );
  assert.equal(typeof h.view('a').staleSince, 'number', 'the view says the catalog may be out of date');
  assert.deepEqual(
    h.view('a').warnings?.map((w) => w.message),
    ['Could not refresh the tools; showing the last list. blip'],
  );
  h.manager.handleEvent(listChanged('c1', 'tools'));
  await flush();
  h.of('list-category', true)[0]!.resolve({ category: 'tools', items: [TOOL('echo'), TOOL('v2')] });
  await flush();
  assert.equal(h.view('a').staleSince, undefined, 'fresh again after a good listing');
  assert.deepEqual(h.view('a').warnings, []);
});

test('D1: an answer for the wrong category is treated as a failure of that category', async () => {
  const { h, arm } = holdRefreshes();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  arm();
  h.manager.handleEvent(listChanged('c1'));
  await flush();
  h.of('list-category', true)[0]!.resolve({ category: 'prompts', items: [] });
  await flush();
  assert.deepEqual(toolNames(h), ['echo']);
});

test('D2: a list_changed during the handshake is not lost', async () => {
  let hold = true;
  const h = harness((m, p) => (m === 'offscreen:connect' && hold ? PENDING : routine(m, p)));
  h.manager.reconcile([cfg('a')]);
  const p = h.manager.connect('a');
  await flush();
  hold = false;
  h.manager.handleEvent(listChanged('c1'));
  h.of('connect')[0]!.resolve({ capabilities: {} });
  await p;
  await flush();
  const toolLists = h.of('list-category').filter((r) => r.params.category === 'tools');
  assert.equal(toolLists.length, 2, 'the handshake listing plus one refresh for the change it may have missed');
});

test('N8: every catalog goes through the catalog limits; warnings are kept per server', async () => {
  const h = harness((m, p) =>
    m === 'offscreen:list-category' && p.category === 'tools'
      ? { category: 'tools', items: [TOOL('echo'), TOOL('echo'), TOOL('bad name'), { ...TOOL('long'), description: 'x'.repeat(5000) }] }
      : routine(m, p),
  );
  h.manager.reconcile([cfg('a'), cfg('b')]);
  await h.manager.connect('a');
  assert.deepEqual(toolNames(h), ['echo', 'long']);
  assert.ok(h.view('a').tools[1]!.description!.length <= 4096);
  const warnings = h.manager.warnings('a');
  assert.equal(warnings.length, 3, warnings.map((w) => w.message).join('\n'));
  assert.deepEqual(h.manager.warnings('b'), []);
  assert.deepEqual(h.view('a').warnings, warnings, 'the panel is sent the same warnings');
  assert.equal(ServerViewSchema.safeParse(h.view('a')).success, true);
  assert.deepEqual(h.view('b').warnings, []);
  await h.manager.disconnect('a');
  assert.deepEqual(h.view('a').warnings, warnings, 'kept with the catalog kept after a disconnect (C2)');
  h.manager.reconcile([cfg('a', { enabled: false }), cfg('b')]);
  await flush();
  assert.deepEqual(h.manager.warnings('a'), [], 'forgotten with the catalog when the server is disabled');
  assert.deepEqual(h.view('a').warnings, []);
});

test('C7/N7: a lost session reconnects by itself and the catalog stays visible meanwhile', async () => {
  let holdConnect = false;
  const h = harness((m, p) => (m === 'offscreen:connect' && holdConnect ? PENDING : routine(m, p)));
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  holdConnect = true;
  h.manager.handleEvent(lost('c1'));
  await flush();
  assert.equal(h.view('a').status, 'connecting');
  assert.deepEqual(toolNames(h), ['echo']);
  // A call made during recovery waits for it instead of starting another attempt.
  const call = h.manager.ping('a');
  await flush();
  assert.equal(h.of('connect').length, 2);
  h.of('connect', true)[0]!.resolve({ capabilities: {} });
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.equal(h.of('ping')[0]!.params.connectionId, 'c2');
  h.of('ping')[0]!.resolve({ latencyMs: 3 });
  assert.equal(await call, 3);
  assert.deepEqual(h.delays, [recoveryDelay(1)]);
});

test('N5/N7: reconnecting after session loss is bounded, with capped backoff, then error', async () => {
  let up = true;
  const h = harness((m, p) => {
    if (m === 'offscreen:connect' && !up) throw new RemoteError({ code: 'network', message: 'refused' });
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  up = false;
  h.manager.handleEvent(lost('c1'));
  await flush(30);
  assert.equal(h.of('connect').length, 1 + MAX_SESSION_RECOVERY_ATTEMPTS);
  assert.equal(h.view('a').status, 'error');
  assert.equal(h.view('a').reason?.kind, 'network');
  assert.deepEqual(h.delays, [1, 2, 3].map(recoveryDelay));
  assert.ok(h.delays.every((d, i) => d <= RECOVERY_MAX_DELAY_MS && (i === 0 || d >= h.delays[i - 1]!)));
  assert.equal(recoveryDelay(50), RECOVERY_MAX_DELAY_MS);
  await flush(30);
  assert.equal(h.of('connect').length, 1 + MAX_SESSION_RECOVERY_ATTEMPTS, 'no further attempts on its own');
  // The user (or the next lazy use) may try again later.
  up = true;
  await h.manager.connect('a');
  assert.equal(h.view('a').status, 'ready');
});

test('H3/N7: a call in flight when the session is lost fails clearly and is never replayed', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  const call = h.manager.callTool('a', 'echo', { text: 'once' }, 'op1');
  await flush();
  assert.equal(h.of('call-tool').length, 1);
  h.manager.handleEvent(lost('c1'));
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  h.of('call-tool')[0]!.reject(new RemoteError({ code: 'session-lost', message: 'The MCP session ended while this request was running.' }));
  await assert.rejects(call, (e: RemoteError) => e.code === 'session-lost' && /not sent again/.test(e.message));
  await flush();
  assert.equal(h.of('call-tool').length, 1, 'the call was sent exactly once');
});

test('H3/N7: a call that itself reports the session lost starts recovery but is not replayed', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  const call = h.manager.callTool('a', 'echo', {}, 'op1');
  await flush();
  h.of('call-tool')[0]!.reject(new RemoteError({ code: 'session-lost', message: '404' }));
  await assert.rejects(call, { code: 'session-lost' });
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.equal(h.of('call-tool').length, 1);
  // A session-lost event that arrives afterwards names the old connection and is ignored.
  h.manager.handleEvent(lost('c1'));
  await flush();
  assert.equal(h.of('connect').length, 2);
});

test('C7/D3: losing the offscreen document recovers every ready server, not the idle ones', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a'), cfg('b')]);
  await h.manager.connect('a');
  h.manager.handleOffscreenLost();
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' });
  assert.equal(h.view('b').status, 'disconnected');
  assert.deepEqual(
    h.of('connect').map((r) => r.params.serverId),
    ['a', 'a'],
  );
});

test('C4/C7: a disconnect during recovery stops it; nothing is left open', async () => {
  let holdConnect = false;
  const h = harness((m, p) => (m === 'offscreen:connect' && holdConnect ? PENDING : routine(m, p)));
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  holdConnect = true;
  h.manager.handleEvent(lost('c1'));
  await flush();
  const done = h.manager.disconnect('a');
  h.of('connect', true)[0]!.resolve({ capabilities: {} });
  await done;
  await flush();
  assert.equal(h.view('a').status, 'disconnected');
  assert.deepEqual(h.closed(), ['c2'], 'the recovery candidate was closed');
  assert.equal(h.of('connect').length, 2);
});

test('catalog fixture sanity', () => {
  assert.equal(CATALOG.tools!.length, 1);
});

test('C1: a call that times out after its connection was replaced keeps its own reason', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  const call = h.manager.callTool('a', 'echo', {}, 'op1');
  await flush();
  h.manager.handleEvent(lost('c1'));
  await flush();
  h.of('call-tool')[0]!.reject(new RemoteError({ code: 'timeout', message: 'did not answer in time' }));
  await assert.rejects(call, (e: RemoteError) => e.code === 'timeout' && /in time/.test(e.message));
});

test('C6/C7: a call refused as stale says it was not sent, and recovers the connection', async () => {
  const h = harness();
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  const call = h.manager.callTool('a', 'echo', {}, 'op1');
  await flush();
  h.of('call-tool')[0]!.reject(new RemoteError({ code: 'stale-connection', message: 'No live session c1' }));
  await assert.rejects(call, (e: RemoteError) => e.code === 'session-lost' && /was not sent/.test(e.message));
  await flush();
  assert.deepEqual(h.manager.state('a'), { status: 'ready', connectionId: 'c2' }, 'a new session replaced the stale one');
});

test('N8/D1: one malformed or oversized entry is left out with a warning; the rest of each list is kept', async () => {
  const h = harness((m, p) => {
    if (m !== 'offscreen:list-category') return routine(m, p);
    if (p.category === 'tools')
      return {
        category: 'tools',
        items: [
          TOOL('echo'),
          { name: 'n'.repeat(2000), inputSchema: {} },
          { ...TOOL('huge'), description: 'd'.repeat(9000) },
          'not a tool',
        ],
      };
    if (p.category === 'prompts')
      return { category: 'prompts', items: [{ name: 'greet' }, { name: 'wordy', description: 'w'.repeat(9000) }, { nope: true }] };
    return routine(m, p);
  });
  h.manager.reconcile([cfg('a')]);
  await h.manager.connect('a');
  assert.deepEqual(toolNames(h), ['echo', 'huge'], 'the valid tools survive; the long description is trimmed, not fatal');
  assert.ok(h.view('a').tools[1]!.description!.length <= 4096);
  assert.deepEqual(
    h.view('a').prompts.map((p) => p.name),
    ['greet'],
  );
  const warnings = h.manager
    .warnings('a')
    .map((w) => w.message)
    .join('\n');
  assert.match(warnings, /2 prompts from this server were malformed or over the size limits/);
  assert.ok(h.manager.warnings('a').length >= 2, warnings);
});
