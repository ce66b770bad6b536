/**
 * The connect time limit (SPEC C7): measured from the attempt's start, which a previous worker
 * instance may have recorded, and ending in an attributed `error`; and the adoption of held
 * sessions by `start()`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindingFingerprint } from '../../../../src/sw/manager/binding.js';
import { CATALOG, PENDING, TOOL, cfg, flush, harness, routine } from './harness.js';

const never = (m: string, p: Record<string, unknown>) => (m === 'offscreen:connect' ? PENDING : routine(m, p));

test('C7: an attempt that does not finish within its limit ends in error (timeout, retry) and its late candidate is closed', async () => {
  const saved: Record<string, number>[] = [];
  const h = harness(never, undefined, { saveAttempts: (a) => void saved.push(a) });
  const manager = h.manager;
  manager.reconcile([cfg('s', { connectTimeoutMs: 1000 })]);
  const started = Date.now();
  const attempt = manager.connect('s');
  await flush();
  const view = manager.views()[0]!;
  assert.equal(view.status, 'connecting');
  assert.ok(view.connectingSince && Math.abs(view.connectingSince - started) < 200);
  assert.deepEqual(Object.keys(saved.at(-1)!), ['s'], 'the start is saved for a next worker instance');
  await assert.rejects(attempt, (e: { code?: string }) => e.code === 'timeout');
  assert.ok(Date.now() - started >= 950);
  const state = manager.state('s');
  assert.equal(state?.status, 'error');
  assert.deepEqual(state?.status === 'error' && [state.reason.kind, state.reason.action], ['timeout', 'retry']);
  assert.deepEqual(saved.at(-1), {}, 'no attempt in progress any more');
  // The handshake answers late: nothing is committed, the candidate is closed.
  h.of('connect')[0]!.resolve({ capabilities: {} });
  await flush();
  assert.equal(manager.state('s')?.status, 'error');
  assert.deepEqual(h.closed(), [h.of('connect')[0]!.params.connectionId]);
});

test('C7: a new instance resumes an attempt with its recorded start; one already past its limit errors without a new attempt', async () => {
  const h = harness(never);
  const manager = h.manager;
  const now = Date.now();
  await manager.start([cfg('late', { connectTimeoutMs: 5000 }), cfg('fresh', { connectTimeoutMs: 5000 })], {
    sessions: [],
    lost: [],
    attempts: { late: now - 6000, fresh: now - 1000 },
  });
  await flush();
  assert.equal(manager.state('late')?.status, 'error', 'the time ran out while no worker ran');
  assert.equal(manager.views().find((v) => v.id === 'fresh')?.connectingSince, now - 1000, 'the original start is kept');
  assert.deepEqual(
    h.of('connect').map((r) => r.params.serverId),
    ['fresh'],
    'no new attempt for the expired one',
  );
  await manager.disconnect('fresh');
});

test('C6/C7: start() adopts a held session whose fingerprint matches and closes the rest', async () => {
  const h = harness();
  const keep = cfg('keep');
  const changed = cfg('changed');
  await h.manager.start([keep, { ...changed, url: 'http://127.0.0.1:9/elsewhere' }], {
    sessions: [
      {
        serverId: 'keep',
        connectionId: 'held-1',
        fingerprint: bindingFingerprint(keep),
        catalogGeneration: 4,
        catalog: CATALOG,
        stale: ['prompts'],
      },
      {
        serverId: 'changed',
        connectionId: 'held-2',
        fingerprint: bindingFingerprint(changed),
        catalogGeneration: 4,
        catalog: CATALOG,
        stale: [],
      },
      {
        serverId: 'gone',
        connectionId: 'held-3',
        fingerprint: bindingFingerprint(cfg('gone')),
        catalogGeneration: 1,
        catalog: {},
        stale: [],
      },
    ],
    lost: [],
    attempts: {},
  });
  await flush();
  assert.deepEqual(h.manager.state('keep'), { status: 'ready', connectionId: 'held-1' });
  assert.deepEqual(h.view('keep').tools, [TOOL('echo')]);
  assert.deepEqual(h.opened(), [], 'no new connect: nothing reached the server again');
  assert.deepEqual(h.closed().sort(), ['held-2', 'held-3']);
  assert.deepEqual(
    h.of('list-category').map((r) => [r.params.connectionId, r.params.category]),
    [['held-1', 'prompts']],
    'only the stale category is listed again',
  );
});
