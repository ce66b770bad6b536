import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { freshIndexedDb } from '../../storage/helpers.js';
import { appendRequestLog, appendRequestLogs } from '../../../../src/storage/request-log.js';
import { RequestLogBatch } from '../../../../src/sw/offscreen-link/request-log-batch.js';
import { activityPanelHandlers } from '../../../../src/sw/handlers/panel-activity.js';
import { ApprovalStore } from '../../../../src/sw/use/approval-store.js';
import { memoryArea } from '../use/fakes.js';

beforeEach(freshIndexedDb);

const views = () => [
  { id: 'demo', name: 'Demo', tools: [{ name: 'echo', title: 'Echo', inputSchema: { type: 'object' as const } }] },
  { id: 'other', name: 'Other', tools: [] },
];

const log = (at: number, method: string, extra = {}) =>
  ({ at, method, durationMs: 1, status: 'ok', requestBytes: 0, responseBytes: 0, ...extra }) as const;

test('panel:get-log: one server or all, ordered by start time, each entry named with its server', async () => {
  // The batch's window never ends here: what it holds is stored because the log is read.
  const requestLog = new RequestLogBatch({ store: appendRequestLogs, setTimeout: () => 0, clearTimeout: () => undefined });
  const handlers = activityPanelHandlers({ grants: new ApprovalStore(memoryArea()), views, requestLog });
  // A slow call that started first is stored last.
  await appendRequestLog('demo', log(20, 'ping'));
  await appendRequestLog('other', log(30, 'initialize'));
  void requestLog.append('gone', log(40, 'initialize'));
  void requestLog.append('demo', log(10, 'tools/call', { subject: 'slow', request: { headers: { Authorization: 'Bearer s3cret' } } }));
  const all = (await handlers['panel:get-log']({})).entries;
  assert.deepEqual(
    all.map((e) => [e.at, e.serverId, e.serverName, e.method]),
    [
      [10, 'demo', 'Demo', 'tools/call'],
      [20, 'demo', 'Demo', 'ping'],
      [30, 'other', 'Other', 'initialize'],
      [40, 'gone', 'gone', 'initialize'],
    ],
  );
  assert.ok(!JSON.stringify(all).includes('s3cret'), 'stored redacted');
  assert.deepEqual(
    (await handlers['panel:get-log']({ serverId: 'demo' })).entries.map((e) => e.at),
    [10, 20],
  );
});

test('panel:list-grants names server and tool; revoke and revoke all forget them', async () => {
  let now = 1;
  const grants = new ApprovalStore(memoryArea(), () => now++);
  const handlers = activityPanelHandlers({ grants, views, requestLog: { flush: async () => undefined } });
  await grants.grant('demo', { name: 'echo', inputSchema: {} }, 'https://a/mcp');
  await grants.grant('gone', { name: 'x', inputSchema: {} }, 'https://b/mcp');
  assert.deepEqual((await handlers['panel:list-grants']({})).grants, [
    { serverId: 'gone', serverName: 'gone', tool: 'x', grantedAt: 2 },
    { serverId: 'demo', serverName: 'Demo', tool: 'echo', toolTitle: 'Echo', grantedAt: 1 },
  ]);
  assert.deepEqual(await handlers['panel:revoke-grant']({ serverId: 'demo', tool: 'echo' }), { revoked: true });
  assert.deepEqual(await handlers['panel:revoke-grant']({ serverId: 'demo', tool: 'echo' }), { revoked: false });
  assert.deepEqual(await handlers['panel:revoke-all-grants']({}), { revoked: 1 });
  assert.deepEqual((await handlers['panel:list-grants']({})).grants, []);
});
