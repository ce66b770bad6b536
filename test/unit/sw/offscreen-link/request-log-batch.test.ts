import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { freshIndexedDb } from '../../storage/helpers.js';
import { appendRequestLogs, readAllRequestLogs, readRequestLog, type RequestLogRow } from '../../../../src/storage/request-log.js';
import { LOG_BATCH_MAX_ROWS, LOG_BATCH_WINDOW_MS, RequestLogBatch } from '../../../../src/sw/offscreen-link/request-log-batch.js';
import { withRequestLogging } from '../../../../src/sw/offscreen-link/request-logging.js';

beforeEach(freshIndexedDb);

const entry = (at: number) => ({ at, method: 'tools/call', durationMs: 1, status: 'ok' as const, requestBytes: 0, responseBytes: 0 });

/** A batch over a manual clock: `fire()` ends the window; every store is counted. */
function manual(store: (rows: RequestLogRow[]) => Promise<void> = appendRequestLogs) {
  const timers: { fn: () => void; ms: number }[] = [];
  const stores: RequestLogRow[][] = [];
  let announced = 0;
  const batch = new RequestLogBatch({
    store: (rows) => {
      stores.push(rows);
      return store(rows);
    },
    stored: () => announced++,
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    clearTimeout: () => timers.splice(0),
  });
  const fire = () => {
    for (const t of timers.splice(0)) t.fn();
  };
  return { batch, timers, stores, fire, announced: () => announced };
}

test('the writes of one window are stored in one transaction, in the order they came, and announced once', async () => {
  const { batch, timers, stores, fire, announced } = manual();
  const stored = [batch.append('a', entry(1)), batch.append('b', entry(2)), batch.append('a', entry(3))];
  assert.equal(timers.length, 1, 'one timer for the window');
  assert.equal(timers[0]!.ms, LOG_BATCH_WINDOW_MS);
  assert.ok(LOG_BATCH_WINDOW_MS <= 250);
  assert.equal(stores.length, 0, 'nothing stored before the window ends');
  fire();
  await Promise.all(stored);
  assert.equal(stores.length, 1);
  assert.deepEqual(
    (await readAllRequestLogs()).map((r) => [r.serverId, r.entry.at]),
    [
      ['a', 1],
      ['b', 2],
      ['a', 3],
    ],
  );
  assert.equal(announced(), 1);
  assert.equal(batch.pending, 0);
});

test('deferred writes build their entries at the flush, keeping the order the requests ended in', async () => {
  const { batch, stores, fire } = manual();
  let built = 0;
  for (let i = 1; i <= 3; i++)
    batch.defer(() => {
      built++;
      void batch.append('a', entry(i));
    });
  assert.equal(built, 0, 'no entry is built before the window ends');
  fire();
  assert.equal(built, 3);
  await batch.flush();
  assert.equal(stores.length, 1);
  assert.deepEqual(
    (await readRequestLog('a')).map((e) => e.at),
    [1, 2, 3],
  );
});

test('the logged request path: many calls, one transaction, no row lost', async () => {
  const { batch, stores, fire } = manual();
  const request = withRequestLogging(
    async (method) => (method === 'offscreen:connect' ? {} : { content: [] }) as never,
    batch.append,
    Date.now,
    batch.defer,
  );
  await request('offscreen:connect', {
    connectionId: 'c1',
    serverId: 'demo',
    url: 'https://a/mcp',
    headers: {},
    timeoutMs: 1000,
    fingerprint: 'f',
  });
  for (let i = 0; i < 20; i++)
    await request('offscreen:call-tool', { connectionId: 'c1', operationId: `op${i}`, name: `t${i}`, arguments: {} } as never);
  fire();
  await batch.flush();
  assert.equal(stores.length, 1);
  const rows = await readRequestLog('demo');
  assert.deepEqual(
    rows.map((e) => e.subject ?? e.method),
    ['https://a/mcp', ...Array.from({ length: 20 }, (_, i) => `t${i}`)],
  );
});

test('flush stores at once what is gathered (a reader flushes first); later writes open a new window', async () => {
  const { batch, timers, stores } = manual();
  void batch.append('a', entry(1));
  await batch.flush();
  assert.equal(timers.length, 0, 'the window timer is cleared');
  assert.deepEqual(
    (await readRequestLog('a')).map((e) => e.at),
    [1],
  );
  await batch.flush();
  assert.equal(stores.length, 1, 'an empty flush stores nothing');
  void batch.append('a', entry(2));
  assert.equal(timers.length, 1);
});

test('a full batch is stored without waiting for its window', async () => {
  const { batch, stores } = manual();
  const all = Array.from({ length: LOG_BATCH_MAX_ROWS }, (_, i) => batch.append('a', entry(i)));
  assert.equal(batch.pending, 0, 'taken for storing at the last row');
  await Promise.all(all);
  assert.equal(stores.length, 1);
  assert.equal(stores[0]!.length, LOG_BATCH_MAX_ROWS);
  await batch.flush();
  assert.equal((await readRequestLog('a')).length, 50, 'the cap still holds');
});

test('batches are stored one after another; a failed store rejects only its own rows and is not announced', async () => {
  let fail = true;
  const order: number[] = [];
  const { batch, fire, announced } = manual(async (rows) => {
    await new Promise((r) => setTimeout(r, fail ? 5 : 0));
    order.push(...rows.map((r) => r.entry.at));
    if (fail) {
      fail = false;
      throw new Error('quota');
    }
  });
  const first = batch.append('a', entry(1));
  fire();
  const second = batch.append('a', entry(2));
  fire();
  await assert.rejects(first, /quota/);
  await second;
  assert.deepEqual(order, [1, 2], 'the second batch waited for the first');
  assert.equal(announced(), 1);
});

test('a throwing deferred write does not keep the others from being stored', async () => {
  const { batch, fire } = manual();
  batch.defer(() => {
    throw new Error('boom');
  });
  batch.defer(() => void batch.append('a', entry(7)));
  fire();
  await batch.flush();
  assert.deepEqual(
    (await readRequestLog('a')).map((e) => e.at),
    [7],
  );
});
