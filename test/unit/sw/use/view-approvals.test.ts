import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker, type ApprovalRequest } from '../../../../src/sw/use/approval-broker.js';
import { APPROVALS_KEY, ApprovalStore, toolFingerprint } from '../../../../src/sw/use/approval-store.js';
import { VIEW_GRANTS_KEY, ViewGrants } from '../../../../src/sw/use/view-grants.js';
import { memoryArea, tool } from './fakes.js';

const URL_A = 'https://a.example/mcp';
const poll = tool('poll', { title: 'Poll System Stats', annotations: { readOnlyHint: true } });

const request = (extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  serverId: 'a',
  serverName: 'A',
  serverUrl: URL_A,
  tool: poll,
  agentName: 'View of "Monitor"',
  viewSession: 'view-session-1',
  arguments: {},
  ...extra,
});

let n = 0;
function harness() {
  const session = memoryArea();
  const local = memoryArea();
  const store = new ApprovalStore(local);
  const broker = new ApprovalBroker(store, () => `ap${++n}`, Date.now, undefined, new ViewGrants(session));
  return {
    session,
    local,
    store,
    broker,
    newBroker: () => new ApprovalBroker(store, () => `ap${++n}`, Date.now, undefined, new ViewGrants(session)),
  };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

test('U1: identical requests of one view while its card is open share that card; one answer settles all', async () => {
  const { broker } = harness();
  const calls = [broker.approve(request()), broker.approve(request()), broker.approve(request())];
  await tick();
  const cards = broker.pending();
  assert.equal(cards.length, 1, 'coalesced, not queued');
  assert.equal(cards[0]!.repeats, 3);
  assert.equal(cards[0]!.viewGrant, true, 'a view card offers the per-view grant');
  broker.answer(cards[0]!.id, 'deny');
  assert.deepEqual(await Promise.all(calls), [false, false, false]);
  assert.equal(broker.pending().length, 0);
});

test('U1: other arguments, another view session or an agent are separate cards', async () => {
  const { broker } = harness();
  const calls = [
    broker.approve(request()),
    broker.approve(request({ arguments: { n: 1 } })),
    broker.approve(request({ viewSession: 'view-session-2' })),
    broker.approve(request({ viewSession: undefined })),
    broker.approve(request({ viewSession: undefined })),
  ];
  await tick();
  assert.equal(broker.pending().length, 5);
  assert.equal(broker.pending().filter((c) => c.viewGrant === undefined).length, 2, 'an agent card has no per-view grant');
  for (const c of broker.pending()) broker.answer(c.id, 'once');
  assert.deepEqual(await Promise.all(calls), [true, true, true, true, true]);
});

test('U1: aborting one coalesced caller keeps the card for the others; the last abort withdraws it', async () => {
  const { broker } = harness();
  const a = new AbortController();
  const b = new AbortController();
  const first = broker.approve(request(), a.signal);
  const second = broker.approve(request(), b.signal);
  await tick();
  a.abort();
  assert.equal(await first, false);
  assert.equal(broker.pending().length, 1, 'still waiting for the second caller');
  const id = broker.pending()[0]!.id;
  b.abort();
  assert.equal(await second, false);
  assert.equal(broker.pending().length, 0);
  assert.equal(broker.answer(id, 'once'), false);
});

test('U1: "while this view is open" allows the view to call the tool again without a card, until the view closes', async () => {
  const { broker, session } = harness();
  const first = broker.approve(request());
  const otherArgs = broker.approve(request({ arguments: { n: 2 } }));
  await tick();
  broker.answer(broker.pending()[0]!.id, 'view');
  assert.deepEqual(await Promise.all([first, otherArgs]), [true, true], "the grant also answers the view's other card for the tool");
  assert.equal(broker.pending().length, 0);
  assert.equal(await broker.approve(request({ arguments: { n: 3 } })), true, 'no card');
  assert.ok(session.data[VIEW_GRANTS_KEY], 'kept in chrome.storage.session');

  // Not for another view, another tool, another server, or the tool once reworded.
  const others = [
    broker.approve(request({ viewSession: 'view-session-2' })),
    broker.approve(request({ tool: tool('delete') })),
    broker.approve(request({ serverId: 'b' })),
    broker.approve(request({ tool: { ...poll, description: 'Now deletes things.' } })),
  ];
  await tick();
  assert.equal(broker.pending().length, 4);
  for (const c of broker.pending()) broker.answer(c.id, 'deny');
  assert.deepEqual(await Promise.all(others), [false, false, false, false]);

  await broker.endViewSession('view-session-1');
  const reopened = broker.approve(request());
  await tick();
  assert.equal(broker.pending().length, 1, 'asked again after the view closed');
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await reopened, false);
});

test('U1: the per-view grant survives a worker restart (chrome.storage.session) while the view is open', async () => {
  const h = harness();
  const first = h.broker.approve(request());
  await tick();
  h.broker.answer(h.broker.pending()[0]!.id, 'view');
  assert.equal(await first, true);
  const next = h.newBroker();
  assert.equal(await next.approve(request()), true);
  await next.endViewSession('view-session-1');
  assert.equal(await new ViewGrants(h.session).allows('view-session-1', 'a', 'poll', toolFingerprint(poll)), false);
});

test('U1: "view" on an agent card allows that call once and grants nothing', async () => {
  const { broker, local, session } = harness();
  const call = broker.approve(request({ viewSession: undefined }));
  await tick();
  broker.answer(broker.pending()[0]!.id, 'view');
  assert.equal(await call, true);
  assert.equal(session.data[VIEW_GRANTS_KEY], undefined);
  assert.equal(local.data[APPROVALS_KEY], undefined);
  const again = broker.approve(request({ viewSession: undefined }));
  await tick();
  assert.equal(broker.pending().length, 1);
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await again, false);
});

test('U1: view grants are bounded; the oldest view sessions go first', async () => {
  const grants = new ViewGrants(memoryArea());
  for (let i = 0; i < 70; i++) await grants.grant(`view-session-${i}`, 'a', 'poll', 'f');
  assert.equal(await grants.allows('view-session-0', 'a', 'poll', 'f'), false);
  assert.equal(await grants.allows('view-session-69', 'a', 'poll', 'f'), true);
  await grants.grant('view-session-69', 'b', 'poll', 'f');
  assert.equal(await grants.allows('view-session-69', 'b', 'poll', 'f'), false, 'a session never spans servers');
});
