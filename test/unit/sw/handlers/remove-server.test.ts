import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, server } from '../../storage/helpers.js';
import { MemoryArea } from '../../../support/memory-area.js';
import { ConfigStore } from '../../../../src/storage/config-store.js';
import { appendRequestLog, readRequestLog } from '../../../../src/storage/request-log.js';
import { removeServer, settledWithin } from '../../../../src/sw/handlers/remove-server.js';

beforeEach(freshIndexedDb);

async function setUp(disconnect: () => Promise<void>, auth: 'none' | 'oauth' = 'none') {
  const configStore = new ConfigStore(new MemoryArea());
  await configStore.update(() => [server('demo', auth === 'oauth' ? { auth: { kind: 'oauth' } } : {})]);
  const events: string[] = [];
  const deps = {
    configStore,
    manager: { disconnect: async (id: string) => (events.push(`disconnect ${id}`), disconnect()) },
    auth: { forget: async (c: { url: string }) => (events.push(`forget ${c.url}`), { revoked: true }) },
    requestLog: { flush: async () => void events.push('flush') },
  };
  return { deps, events, configStore };
}

test('settledWithin waits for the work, ignores its failure, and gives up after the wait', async () => {
  assert.equal(await settledWithin(Promise.resolve(7), 1000), 7);
  assert.equal(await settledWithin(Promise.reject(new Error('x')), 1000), undefined);
  const started = Date.now();
  assert.equal(await settledWithin(new Promise(() => undefined), 20), undefined);
  assert.ok(Date.now() - started >= 15);
});

test('a removed server is disconnected first, then removed with its request log', async () => {
  const { deps, events, configStore } = await setUp(async () => undefined);
  await appendRequestLog('demo', { at: 1, method: 'ping', durationMs: 1, status: 'ok', requestBytes: 0, responseBytes: 0 });
  assert.deepEqual(await removeServer(deps, 'demo'), { removed: true });
  assert.deepEqual(events, ['disconnect demo', 'flush']);
  assert.deepEqual((await configStore.read()).servers, []);
  assert.deepEqual(await readRequestLog('demo'), []);
});

test('an OAuth server forgets its authorization, and a hanging disconnect does not hold the delete', async () => {
  const { deps, events, configStore } = await setUp(() => new Promise(() => undefined), 'oauth');
  assert.deepEqual(await removeServer(deps, 'demo', 20), { removed: true });
  assert.deepEqual(events, ['disconnect demo', 'forget https://demo.example.com/mcp', 'flush']);
  assert.deepEqual((await configStore.read()).servers, []);
});

test('an unknown server is not removed and its log is left alone', async () => {
  const { deps, events } = await setUp(async () => undefined);
  assert.deepEqual(await removeServer(deps, 'gone'), { removed: false });
  assert.deepEqual(events, []);
});
