import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, simulateWorkerRestart } from './helpers.js';
import {
  LOG_ENTRIES_PER_SERVER,
  MAX_LOGGED_BODY_CHARS,
  appendRequestLog,
  appendRequestLogs,
  clearRequestLog,
  readRequestLog,
  type RequestLogEntry,
} from '../../../src/storage/request-log.js';
import { REDACTED } from '../../../src/storage/redact.js';
import { activityRows, exportDocument } from '../../../src/components/activity-model.js';

beforeEach(freshIndexedDb);

const entry = (n: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  at: n,
  method: 'tools/call',
  durationMs: 12,
  status: 'ok',
  requestBytes: 100,
  responseBytes: 200,
  ...extra,
});

test('the 51st entry evicts the first, per server', async () => {
  for (let i = 1; i <= LOG_ENTRIES_PER_SERVER + 1; i++) await appendRequestLog('a', entry(i));
  await appendRequestLog('b', entry(999));
  const a = await readRequestLog('a');
  assert.equal(a.length, 50);
  assert.equal(a[0]!.at, 2);
  assert.equal(a.at(-1)!.at, 51);
  assert.deepEqual(
    (await readRequestLog('b')).map((e) => e.at),
    [999],
  );
});

test('rows appended together keep their order, and each server is cut to its limit in the same transaction', async () => {
  await appendRequestLog('a', entry(0));
  await appendRequestLogs([
    ...Array.from({ length: LOG_ENTRIES_PER_SERVER }, (_, i) => ({ serverId: 'a', entry: entry(i + 1) })),
    { serverId: 'b', entry: entry(500, { request: { headers: { Authorization: 'Bearer s3cret' } } }) },
    { serverId: 'a', entry: entry(51) },
  ]);
  const a = await readRequestLog('a');
  assert.equal(a.length, LOG_ENTRIES_PER_SERVER);
  assert.deepEqual(
    a.map((e) => e.at),
    Array.from({ length: LOG_ENTRIES_PER_SERVER }, (_, i) => i + 2),
  );
  const b = await readRequestLog('b');
  assert.deepEqual(
    b.map((e) => e.at),
    [500],
  );
  assert.ok(!JSON.stringify(b).includes('s3cret'), 'each row is redacted');
  await appendRequestLogs([]);
  assert.equal((await readRequestLog('a')).length, LOG_ENTRIES_PER_SERVER);
});

test('servers whose rows interleave are each cut to their newest 50, and no row of the other goes with them', async () => {
  // Alternating rows: a's oldest keys are never consecutive, so they go one by one; then a run of
  // a alone, whose oldest keys (after the alternating ones are gone) are cut as one range.
  for (let i = 0; i < 60; i++)
    await appendRequestLogs([
      { serverId: 'x', entry: entry(i) },
      { serverId: 'y', entry: entry(1000 + i) },
    ]);
  await appendRequestLogs(Array.from({ length: 70 }, (_, i) => ({ serverId: 'x', entry: entry(100 + i) })));
  assert.deepEqual(
    (await readRequestLog('x')).map((e) => e.at),
    Array.from({ length: 50 }, (_, i) => 120 + i),
  );
  assert.deepEqual(
    (await readRequestLog('y')).map((e) => e.at),
    Array.from({ length: 50 }, (_, i) => 1010 + i),
  );
});

test('concurrent appends are serialized: the newest 50 remain, in order', async () => {
  await Promise.all(Array.from({ length: 80 }, (_, i) => appendRequestLog('a', entry(i))));
  const a = await readRequestLog('a');
  assert.deepEqual(
    a.map((e) => e.at),
    Array.from({ length: 50 }, (_, i) => i + 30),
  );
});

test('the log survives a worker restart', async () => {
  await appendRequestLog('a', entry(1));
  await simulateWorkerRestart();
  assert.equal((await readRequestLog('a')).length, 1);
});

test('bodies and errors are redacted before they are stored', async () => {
  await appendRequestLog(
    'a',
    entry(1, {
      status: 401,
      error: 'Unauthorized: Authorization: Bearer SECRET-AT',
      request: { headers: { Authorization: 'Bearer SECRET-AT' }, body: { params: { arguments: { password: 'SECRET-PW' } } } },
      response: 'access_token=SECRET-AT2&refresh_token=SECRET-RT&state=s',
    }),
  );
  const [stored] = await readRequestLog('a');
  assert.ok(!JSON.stringify(stored).includes('SECRET'), JSON.stringify(stored));
  assert.equal(stored!.status, 401);
  assert.deepEqual((stored!.request as { headers: unknown }).headers, { Authorization: REDACTED });
  assert.equal(stored!.response, `access_token=${REDACTED}&refresh_token=${REDACTED}&state=s`);
});

test("an error's wording is kept for the panel's language, its parameters redacted like the text", async () => {
  await appendRequestLog(
    'a',
    entry(1, {
      status: 'error',
      error: 'Could not reach https://x.example/?access_token=SECRET-AT',
      errorWording: { code: 'reasonUnreachable', params: { origin: 'https://x.example/?access_token=SECRET-AT' } },
    }),
  );
  const [stored] = await readRequestLog('a');
  assert.ok(!JSON.stringify(stored).includes('SECRET'), JSON.stringify(stored));
  assert.equal(stored!.errorWording?.code, 'reasonUnreachable');
  assert.match(stored!.errorWording?.params?.['origin'] ?? '', /^https:\/\/x\.example\//);
});

test('large bodies are truncated to a bounded preview', async () => {
  await appendRequestLog('a', entry(1, { response: { text: 'x'.repeat(100_000) } }));
  const [stored] = await readRequestLog('a');
  assert.equal(typeof stored!.response, 'string');
  assert.ok((stored!.response as string).length < MAX_LOGGED_BODY_CHARS + 100);
  assert.match(stored!.response as string, /truncated/);
});

test("clearing one server's log leaves the others' untouched", async () => {
  for (let i = 1; i <= 3; i++) await appendRequestLog('a', entry(i));
  await appendRequestLog('b', entry(9));
  await clearRequestLog('a');
  assert.deepEqual(await readRequestLog('a'), []);
  assert.deepEqual(
    (await readRequestLog('b')).map((e) => e.at),
    [9],
  );
});

test('J2: tool arguments and results are stored redacted by key pattern and value shape, and the export holds the same', async () => {
  const secrets = [
    'AK-1',
    'AK-2',
    'AK-3',
    'SEC-4',
    'PW-5',
    'PK-6',
    'CA-7',
    'sk-proj-abcdefghijklmnopqrstuvwx99',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  ];
  await appendRequestLogs([
    {
      serverId: 'a',
      entry: entry(1, {
        request: {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'deploy',
            arguments: {
              api_key: 'AK-1',
              apiKey: 'AK-2',
              'x-api-key': 'AK-3',
              secret: 'SEC-4',
              password: 'PW-5',
              private_key: 'PK-6',
              client_assertion: 'CA-7',
              note: 'use sk-proj-abcdefghijklmnopqrstuvwx99',
              monkey: 'george',
            },
          },
        },
        response: {
          jsonrpc: '2.0',
          id: 7,
          result: { content: [{ type: 'text', text: 'created token ghp_abcdefghijklmnopqrstuvwxyz0123456789 for you' }] },
        },
      }),
    },
  ]);
  const rows = await readRequestLog('a');
  const stored = JSON.stringify(rows);
  for (const s of secrets) assert.ok(!stored.includes(s), `stored: ${s}`);
  assert.match(stored, /george/, 'a name that only contains "key" is kept');
  const exported = exportDocument('a', activityRows(rows.map((r) => ({ ...r, serverId: 'a', serverName: 'A' }))), 0);
  for (const s of secrets) assert.ok(!exported.includes(s), `exported: ${s}`);
  assert.match(exported, /created token \[redacted\] for you/);
});
