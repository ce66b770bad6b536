import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalStore } from '../../../../src/sw/use/approval-store.js';
import { ApprovalBroker } from '../../../../src/sw/use/approval-broker.js';
import { MAX_KEPT_APPROVALS, PENDING_APPROVALS_KEY, PendingApprovals } from '../../../../src/sw/use/pending-approvals.js';
import { memoryArea, tool } from './fakes.js';

const request = {
  serverId: 'a',
  serverName: 'A',
  serverUrl: 'https://a.example/mcp',
  tool: tool('echo'),
  agentName: 'Agent',
  arguments: { text: 'hi' },
};
const tick = () => new Promise((r) => setTimeout(r, 0));

test('a waiting approval is recorded in the session area, and the next worker instance shows it as gone', async () => {
  const session = memoryArea();
  let n = 0;
  const first = new ApprovalBroker(
    new ApprovalStore(memoryArea()),
    () => `ap${++n}`,
    () => 1000,
    new PendingApprovals(session),
  );
  void first.approve(request);
  await tick();
  await tick();
  assert.equal(first.waiting(), 1);
  assert.equal((session.data[PENDING_APPROVALS_KEY] as unknown[]).length, 1, 'written before the worker can go away');

  // The worker restarts: its memory (and the caller) is gone, the session area is not.
  const second = new ApprovalBroker(
    new ApprovalStore(memoryArea()),
    () => `bp${++n}`,
    () => 2000,
    new PendingApprovals(session),
  );
  const pushed: unknown[] = [];
  second.onChange((list) => pushed.push(list));
  await second.loaded();
  const [card] = second.pending();
  assert.equal(card?.id, 'ap1');
  assert.equal(card?.status, 'gone');
  assert.equal(card?.tool, 'echo');
  assert.equal(second.waiting(), 0, 'a gone card waits for no decision');
  assert.equal(pushed.length, 1, 'the panels are told');
  assert.equal(second.answer('ap1', 'once'), false, 'it cannot be allowed: nothing would run');

  // A third instance still shows it: it stays until dismissed.
  await tick();
  const third = new ApprovalBroker(
    new ApprovalStore(memoryArea()),
    () => `cp${++n}`,
    () => 3000,
    new PendingApprovals(session),
  );
  await third.loaded();
  assert.deepEqual(
    third.pending().map((v) => [v.id, v.status]),
    [['ap1', 'gone']],
  );
  assert.equal(third.dismiss('ap1'), true);
  assert.equal(third.dismiss('ap1'), false);
  assert.deepEqual(third.pending(), []);
  await tick();
  assert.deepEqual(session.data[PENDING_APPROVALS_KEY], []);
});

test('an answered approval is removed from the record', async () => {
  const session = memoryArea();
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), () => 'ap1', Date.now, new PendingApprovals(session));
  const allowed = broker.approve(request);
  await tick();
  broker.answer('ap1', 'once');
  assert.equal(await allowed, true);
  await tick();
  assert.deepEqual(session.data[PENDING_APPROVALS_KEY], []);
  const next = new ApprovalBroker(new ApprovalStore(memoryArea()), () => 'x', Date.now, new PendingApprovals(session));
  await next.loaded();
  assert.deepEqual(next.pending(), []);
});

test('malformed records are skipped and the list is bounded', async () => {
  const session = memoryArea();
  session.data[PENDING_APPROVALS_KEY] = [{ id: 'x' }, 'nonsense'];
  assert.deepEqual(await new PendingApprovals(session).loadGone(), []);
  const views = Array.from({ length: MAX_KEPT_APPROVALS + 5 }, (_, i) => ({
    id: `ap${i}`,
    serverId: 'a',
    serverName: 'A',
    tool: 'echo',
    agentName: 'Agent',
    argumentsJson: '{}',
    requestedAt: i,
  }));
  await new PendingApprovals(session).save(views);
  const kept = await new PendingApprovals(session).loadGone();
  assert.equal(kept.length, MAX_KEPT_APPROVALS);
  assert.equal(kept[0]?.id, 'ap5', 'the newest are kept');
});
