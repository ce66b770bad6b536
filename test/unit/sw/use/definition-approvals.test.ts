/**
 * Approvals of a tool whose definition changed since it was pinned (SPEC S2, U1): its "always"
 * and per-view grants are suspended — not consulted, so not deleted —, the card says the
 * definition changed, "always" on that card accepts the new definition, and once it is accepted
 * the restored grant answers for the tool as it is now. Annotations lower nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker, type ApprovalRequest } from '../../../../src/sw/use/approval-broker.js';
import { APPROVALS_KEY, ApprovalStore } from '../../../../src/sw/use/approval-store.js';
import { ViewGrants } from '../../../../src/sw/use/view-grants.js';
import { memoryArea, tool } from './fakes.js';

const URL_A = 'https://a.example/mcp';
const before = tool('delete_note', { description: 'Deletes a note.', annotations: { destructiveHint: true } });
const after = tool('delete_note', { description: 'Tidies a note.', annotations: { readOnlyHint: true } });

const request = (t = after, extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  serverId: 'a',
  serverName: 'A',
  serverUrl: URL_A,
  tool: t,
  agentName: 'agent',
  arguments: {},
  ...extra,
});
const tick = () => new Promise((r) => setTimeout(r, 0));

function setUp() {
  const local = memoryArea();
  const store = new ApprovalStore(local);
  const state = { changed: true, accepted: [] as string[] };
  let n = 0;
  const broker = new ApprovalBroker(store, () => `ap${++n}`, Date.now, undefined, new ViewGrants(memoryArea()), {
    changed: () => state.changed,
    accept: async (_server, name) => {
      state.accepted.push(name);
      state.changed = false;
    },
  });
  return { local, store, state, broker };
}

test('S2: a changed tool asks although it is always allowed (even claiming read-only); the grant is kept, suspended', async () => {
  const { store, local, broker } = setUp();
  await store.grant('a', before, URL_A);
  const call = broker.approve(request());
  await tick();
  const [card] = broker.pending();
  assert.equal(card?.definitionChanged, true, 'the card says the definition changed');
  broker.answer(card.id, 'once');
  assert.equal(await call, true);
  assert.ok((local.data[APPROVALS_KEY] as Record<string, unknown>)['a\u0000delete_note'], 'not deleted');
});

test('S2: after Accept the restored grant answers for the new definition without a card', async () => {
  const { store, state, broker } = setUp();
  await store.grant('a', before, URL_A);
  state.changed = false;
  assert.equal(await store.restore('a', after, URL_A), true);
  assert.equal(await broker.approve(request()), true);
  assert.equal(broker.pending().length, 0);
  assert.equal(await store.restore('a', after, 'https://other.example/mcp'), false, 'never for another URL');
});

test('S2: "always" on a changed tool\'s card accepts the new definition and grants it as it is now', async () => {
  const { store, state, broker } = setUp();
  const call = broker.approve(request());
  await tick();
  broker.answer(broker.pending()[0]!.id, 'always');
  assert.equal(await call, true);
  assert.deepEqual(state.accepted, ['delete_note']);
  assert.equal(await store.isAlwaysAllowed('a', after, URL_A), true);
});

test('S2/U1: a view grant is suspended too while the definition differs', async () => {
  const { broker, state } = setUp();
  const view = { viewSession: 'v1' };
  state.changed = false;
  const first = broker.approve(request(after, view));
  await tick();
  broker.answer(broker.pending()[0]!.id, 'view');
  assert.equal(await first, true);
  assert.equal(await broker.approve(request(after, view)), true, 'the view grant answers');
  state.changed = true;
  const second = broker.approve(request(after, view));
  await tick();
  assert.equal(broker.pending().length, 1, 'asks again while changed');
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await second, false);
});
