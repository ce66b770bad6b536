import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogGenerations, coalesce } from '../../../../src/sw/manager/catalog-generations.js';

import { deferred, flush } from '../../../support/deferred.js';

test('an older generation that finishes late is dropped', () => {
  const c = new CatalogGenerations();
  const g1 = c.begin('s');
  const g2 = c.begin('s');
  assert.equal(c.commit('s', g2, 'tools', { ok: true, items: ['new'] }), 'committed');
  assert.equal(c.commit('s', g1, 'tools', { ok: true, items: ['old'] }), 'superseded');
  assert.deepEqual(c.get('s', 'tools').items, ['new']);
  assert.equal(c.isLatest('s', g2), true);
  assert.equal(c.isLatest('s', g1), false);
});

test('an older generation that finishes first commits, then the newer one replaces it', () => {
  const c = new CatalogGenerations();
  const g1 = c.begin('s');
  const g2 = c.begin('s');
  assert.equal(c.commit('s', g1, 'prompts', { ok: true, items: ['a'] }), 'committed');
  assert.equal(c.commit('s', g2, 'prompts', { ok: true, items: ['b'] }), 'committed');
  assert.deepEqual(c.get('s', 'prompts').items, ['b']);
});

test('generations are checked per category', () => {
  const c = new CatalogGenerations();
  const g1 = c.begin('s');
  const g2 = c.begin('s');
  c.commit('s', g2, 'tools', { ok: true, items: [1] });
  assert.equal(c.commit('s', g1, 'resources', { ok: true, items: [2] }), 'committed');
  assert.deepEqual(c.get('s', 'resources').items, [2]);
});

test('a failed category keeps its last valid list with the latest error, stale since the first failure, until a listing succeeds', () => {
  let clock = 1000;
  const c = new CatalogGenerations(() => clock);
  c.commit('s', c.begin('s'), 'tools', { ok: true, items: ['t1', 't2'] });
  assert.equal(c.commit('s', c.begin('s'), 'tools', { ok: false, error: 'network blip' }), 'kept-stale');
  clock = 2000;
  c.commit('s', c.begin('s'), 'tools', { ok: false, error: 'still down' });
  assert.deepEqual(c.get('s', 'tools'), { items: ['t1', 't2'], generation: 3, error: 'still down', staleSince: 1000 });
  c.commit('s', c.begin('s'), 'tools', { ok: true, items: [] });
  assert.deepEqual(c.get('s', 'tools'), { items: [], generation: 4, error: null, staleSince: null });
});

test('a category that never listed successfully has no items, only the error', () => {
  const c = new CatalogGenerations(() => 5);
  c.commit('s', c.begin('s'), 'resourceTemplates', { ok: false, error: 'method not found' });
  assert.deepEqual(c.get('s', 'resourceTemplates'), { items: null, generation: 1, error: 'method not found', staleSince: 5 });
  assert.deepEqual(c.get('s', 'tools'), { items: null, generation: 0, error: null, staleSince: null });
});

test('commits for generations never begun, or for a forgotten server, are refused', () => {
  const c = new CatalogGenerations();
  assert.equal(c.commit('s', 1, 'tools', { ok: true, items: [] }), 'unknown');
  const g = c.begin('s');
  assert.equal(c.commit('s', g + 1, 'tools', { ok: true, items: [] }), 'unknown');
  c.forget('s');
  assert.equal(c.commit('s', g, 'tools', { ok: true, items: ['x'] }), 'unknown');
  assert.equal(c.get('s', 'tools').items, null);
});

test('committed lists are copies, not the caller array', () => {
  const c = new CatalogGenerations();
  const items = ['a'];
  c.commit('s', c.begin('s'), 'tools', { ok: true, items });
  items.push('b');
  assert.deepEqual(c.get('s', 'tools').items, ['a']);
});

test('a burst of triggers runs one refresh in flight plus one queued', async () => {
  const gates: Array<ReturnType<typeof deferred<void>>> = [];
  const refresh = coalesce(() => {
    const d = deferred();
    gates.push(d);
    return d.promise;
  });
  const first = refresh.trigger();
  const burst = Array.from({ length: 50 }, () => refresh.trigger());
  await flush();
  assert.equal(gates.length, 1);
  assert.equal(refresh.running, true);
  assert.equal(refresh.queued, true);
  assert.ok(burst.every((p) => p === burst[0]));
  gates[0]!.resolve();
  await first;
  await flush();
  assert.equal(gates.length, 2);
  assert.equal(refresh.queued, false);
  gates[1]!.resolve();
  await Promise.all(burst);
  assert.equal(refresh.running, false);
  assert.equal(gates.length, 2);
});

test('a failing refresh does not stop the queued one, and the next trigger starts fresh', async () => {
  let runs = 0;
  const gate = deferred();
  const refresh = coalesce(async () => {
    runs += 1;
    if (runs === 1) {
      await gate.promise;
      throw new Error('list failed');
    }
  });
  const a = refresh.trigger();
  const b = refresh.trigger();
  gate.resolve();
  await assert.rejects(a, /list failed/);
  await b;
  assert.equal(runs, 2);
  await refresh.trigger();
  assert.equal(runs, 3);
});

test('N5: with a minimum interval, a storm of triggers starts at most one run per interval and one after it ended', async () => {
  // A fake clock: sleeps end when the test moves the clock past them.
  let clock = 0;
  const timers: { at: number; wake: () => void }[] = [];
  const advance = async (ms: number) => {
    clock += ms;
    for (const t of timers.filter((t) => t.at <= clock)) {
      timers.splice(timers.indexOf(t), 1);
      t.wake();
    }
    await flush();
  };
  const starts: number[] = [];
  const r = coalesce(
    async () => {
      starts.push(clock);
    },
    { minIntervalMs: 500, now: () => clock, sleep: (ms) => new Promise<void>((wake) => timers.push({ at: clock + ms, wake })) },
  );
  // 40 triggers over 1 s, one every 25 ms.
  const all: Promise<void>[] = [];
  for (let i = 0; i < 40; i++) {
    all.push(r.trigger());
    await advance(25);
  }
  for (let i = 0; i < 40 && timers.length > 0; i++) await advance(25);
  await Promise.all(all);
  assert.ok(starts.length <= 4, `at most ~2 runs per second, got ${starts.length}: ${starts.join(', ')}`);
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 500, `runs ${i - 1} and ${i} at least 500 ms apart`);
  assert.ok(starts.at(-1)! >= 975, 'the last run started after the last trigger, so it saw the final state');
  assert.equal(r.running, false);
});

test('N5: a trigger while the run waits out its interval joins it instead of queueing another', async () => {
  let clock = 0;
  const gate = deferred<void>();
  let runs = 0;
  const r = coalesce(
    async () => {
      runs++;
    },
    { minIntervalMs: 500, now: () => clock, sleep: () => gate.promise },
  );
  await r.trigger();
  const second = r.trigger();
  const third = r.trigger();
  assert.equal(r.queued, false, 'no trailing run behind a run that has not started yet');
  clock = 500;
  gate.resolve();
  await Promise.all([second, third]);
  assert.equal(runs, 2);
});
