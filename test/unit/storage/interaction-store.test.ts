import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, simulateWorkerRestart } from './helpers.js';
import { InteractionStateError, InteractionStore } from '../../../src/storage/interaction-store.js';

beforeEach(freshIndexedDb);

let clock = 1000;
const store = () => new InteractionStore({ now: () => clock++ });
const input = (id: string, serverId = 'srv') => ({
  id,
  serverId,
  connectionId: 'conn-1',
  operationId: `op-${id}`,
  request: { message: 'Pick one', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } },
});

test('a new interaction is pending and can be read back', async () => {
  const s = store();
  const created = await s.put(input('i1'));
  assert.equal(created.status, 'pending');
  assert.equal(created.kind, 'mcp_elicitation');
  assert.deepEqual(await s.get('i1'), created);
  assert.equal(await s.get('nope'), undefined);
  await assert.rejects(s.put(input('i1')), InteractionStateError);
});

test('listPending lists only pending ones, oldest first, optionally per server', async () => {
  const s = store();
  await s.put(input('a'));
  await s.put(input('b', 'other'));
  await s.put(input('c'));
  await s.setStatus('a', 'answered');
  assert.deepEqual(
    (await s.listPending()).map((i) => i.id),
    ['b', 'c'],
  );
  assert.deepEqual(
    (await s.listPending('srv')).map((i) => i.id),
    ['c'],
  );
});

test('a pending interaction settles once; every other transition is refused', async () => {
  const s = store();
  for (const status of ['answered', 'expired', 'failed'] as const) {
    const id = `x-${status}`;
    await s.put(input(id));
    const settled = await s.setStatus(id, status, 'because');
    assert.equal(settled.status, status);
    assert.equal(settled.reason, 'because');
    assert.ok(settled.updatedAt > settled.createdAt);
    for (const again of ['answered', 'expired', 'failed'] as const) {
      await assert.rejects(s.setStatus(id, again), InteractionStateError);
    }
    assert.equal((await s.get(id))!.status, status);
  }
  await assert.rejects(s.setStatus('missing', 'answered'), InteractionStateError);
});

test('two racing settlements: exactly one wins', async () => {
  const s = store();
  await s.put(input('race'));
  const results = await Promise.allSettled([s.setStatus('race', 'answered'), s.setStatus('race', 'expired')]);
  assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
});

test('after a worker restart every pending interaction is failed with the reason', async () => {
  const s = store();
  await s.put(input('p1'));
  await s.put(input('p2', 'other'));
  await s.put(input('done'));
  await s.setStatus('done', 'answered');
  await simulateWorkerRestart();

  const failed = await store().failPendingOnStartup('The extension restarted before the answer was sent');
  assert.deepEqual(failed.map((i) => i.id).sort(), ['p1', 'p2']);
  assert.deepEqual(await store().listPending(), []);
  const p1 = (await store().get('p1'))!;
  assert.equal(p1.status, 'failed');
  assert.match(p1.reason!, /restarted/);
  assert.equal((await store().get('done'))!.status, 'answered');
  assert.deepEqual(await store().failPendingOnStartup('again'), []);
});
