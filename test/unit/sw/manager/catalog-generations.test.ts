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

test('a failed category keeps its last valid list with the latest error until a listing succeeds', () => {
  const c = new CatalogGenerations();
  c.commit('s', c.begin('s'), 'tools', { ok: true, items: ['t1', 't2'] });
  assert.equal(c.commit('s', c.begin('s'), 'tools', { ok: false, error: 'network blip' }), 'kept-stale');
  c.commit('s', c.begin('s'), 'tools', { ok: false, error: 'still down' });
  assert.deepEqual(c.get('s', 'tools'), { items: ['t1', 't2'], generation: 3, error: 'still down' });
  c.commit('s', c.begin('s'), 'tools', { ok: true, items: [] });
  assert.deepEqual(c.get('s', 'tools'), { items: [], generation: 4, error: null });
});

test('a category that never listed successfully has no items, only the error', () => {
  const c = new CatalogGenerations();
  c.commit('s', c.begin('s'), 'resourceTemplates', { ok: false, error: 'method not found' });
  assert.deepEqual(c.get('s', 'resourceTemplates'), { items: null, generation: 1, error: 'method not found' });
  assert.deepEqual(c.get('s', 'tools'), { items: null, generation: 0, error: null });
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
