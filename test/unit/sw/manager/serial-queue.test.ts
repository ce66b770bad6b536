import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedSerialQueue } from '../../../../src/sw/manager/serial-queue.js';

import { deferred, flush } from '../../../support/deferred.js';

test('concurrent connects share one in-flight attempt', async () => {
  const q = new KeyedSerialQueue<string>();
  const gate = deferred<string>();
  let runs = 0;
  const fn = () => {
    runs += 1;
    return gate.promise;
  };
  const a = q.connect('s1', fn);
  const b = q.connect('s1', fn);
  assert.equal(a, b);
  await flush();
  gate.resolve('client-1');
  assert.deepEqual(await Promise.all([a, b]), ['client-1', 'client-1']);
  assert.equal(runs, 1);
});

test('a connect after disconnect never reuses the old attempt and runs after the disconnect completes', async () => {
  const q = new KeyedSerialQueue<string>();
  const log: string[] = [];
  const oldAttempt = deferred<string>();
  const closing = deferred();
  const first = q.connect('s1', async (epoch) => {
    log.push(`connect-1 start e${epoch}`);
    const v = await oldAttempt.promise;
    log.push(`connect-1 end current=${q.isCurrent('s1', epoch)}`);
    return v;
  });
  await flush();
  const disc = q.disconnect('s1', async () => {
    log.push('disconnect start');
    await closing.promise;
    log.push('disconnect end');
  });
  const second = q.connect('s1', async (epoch) => {
    log.push(`connect-2 start e${epoch}`);
    return 'client-2';
  });
  assert.notEqual(second, first);
  await flush();
  oldAttempt.resolve('client-1');
  await flush();
  assert.deepEqual(log, ['connect-1 start e0', 'connect-1 end current=false', 'disconnect start']);
  closing.resolve();
  assert.equal(await second, 'client-2');
  await disc;
  assert.equal(await first, 'client-1');
  assert.deepEqual(log, ['connect-1 start e0', 'connect-1 end current=false', 'disconnect start', 'disconnect end', 'connect-2 start e1']);
});

test('a failed attempt clears the in-flight slot so the next connect starts fresh', async () => {
  const q = new KeyedSerialQueue<string>();
  const gate = deferred<string>();
  const a = q.connect('s1', () => gate.promise);
  const joined = q.connect('s1', async () => 'never');
  gate.reject(new Error('network down'));
  await assert.rejects(a, /network down/);
  await assert.rejects(joined, /network down/);
  const b = q.connect('s1', async () => 'client-2');
  assert.notEqual(b, a);
  assert.equal(await b, 'client-2');
  assert.equal(q.isBusy('s1'), false);
});

test('a synchronous throw inside an operation is a rejection and does not block the key', async () => {
  const q = new KeyedSerialQueue<string>();
  const a = q.connect('s1', () => {
    throw new Error('bad config');
  });
  await assert.rejects(a, /bad config/);
  assert.equal(await q.connect('s1', async () => 'ok'), 'ok');
});

test('a failing disconnect still lets later operations run', async () => {
  const q = new KeyedSerialQueue<string>();
  const d = q.disconnect('s1', async () => {
    throw new Error('close failed');
  });
  const c = q.connect('s1', async () => 'after');
  await assert.rejects(d, /close failed/);
  assert.equal(await c, 'after');
});

test('operations on different keys do not wait for each other', async () => {
  const q = new KeyedSerialQueue<string>();
  const slow = deferred<string>();
  const a = q.connect('s1', () => slow.promise);
  assert.equal(await q.connect('s2', async () => 'fast'), 'fast');
  assert.equal(q.isBusy('s1'), true);
  slow.resolve('slow');
  assert.equal(await a, 'slow');
});

test('run is serialized with connects and sees the epoch but never shares an attempt', async () => {
  const q = new KeyedSerialQueue<string>();
  const log: string[] = [];
  const gate = deferred<string>();
  const c = q.connect('s1', async () => {
    log.push('connect');
    return gate.promise;
  });
  const r1 = q.run('s1', async (epoch) => {
    log.push(`run e${epoch}`);
    return 1;
  });
  await flush();
  assert.deepEqual(log, ['connect']);
  gate.resolve('x');
  await c;
  assert.equal(await r1, 1);
  assert.deepEqual(log, ['connect', 'run e0']);
});

test('reconnect closes first, then connects in the new epoch, and joins no earlier attempt', async () => {
  const q = new KeyedSerialQueue<string>();
  const log: string[] = [];
  const old = deferred<string>();
  const first = q.connect('s1', () => old.promise);
  const second = q.reconnect(
    's1',
    async () => {
      log.push('close');
    },
    async (epoch) => {
      log.push(`open e${epoch}`);
      return 'fresh';
    },
  );
  old.resolve('stale');
  assert.equal(await first, 'stale');
  assert.equal(await second, 'fresh');
  assert.deepEqual(log, ['close', 'open e1']);
  assert.equal(q.epoch('s1'), 1);
});

test('connects requested after a second disconnect do not join an attempt queued between the two', async () => {
  const q = new KeyedSerialQueue<string>();
  const gate = deferred();
  void q.disconnect('s1', () => gate.promise);
  const between = q.connect('s1', async (e) => `between e${e}`);
  void q.disconnect('s1', async () => undefined);
  const after = q.connect('s1', async (e) => `after e${e}`);
  assert.notEqual(after, between);
  gate.resolve();
  assert.equal(await between, 'between e1');
  assert.equal(await after, 'after e2');
});
