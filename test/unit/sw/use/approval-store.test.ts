import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPROVALS_KEY, ApprovalStore, schemaHash } from '../../../../src/sw/use/approval-store.js';
import { canonicalJson } from '../../../../src/common/canonical-json.js';
import { ApprovalBroker } from '../../../../src/sw/use/approval-broker.js';
import { memoryArea, tool } from './fakes.js';

const URL_A = 'https://a.example/mcp';
const schema = { type: 'object', properties: { text: { type: 'string' } } };

test('the schema hash ignores key order but not content', () => {
  assert.equal(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
  assert.equal(schemaHash({ a: 1, b: 2 }), schemaHash({ b: 2, a: 1 }));
  assert.notEqual(schemaHash({ a: 1 }), schemaHash({ a: 2 }));
});

test('an "always" grant persists in chrome.storage.local and survives a new store instance', async () => {
  const area = memoryArea();
  await new ApprovalStore(area).grant('a', 'echo', URL_A, schema);
  assert.ok(area.data[APPROVALS_KEY], 'written under mcp_tool_approvals');
  const fresh = new ApprovalStore(area);
  assert.equal(await fresh.isAlwaysAllowed('a', 'echo', URL_A, { properties: { text: { type: 'string' } }, type: 'object' }), true);
  assert.equal(await fresh.isAlwaysAllowed('a', 'other', URL_A, schema), false, 'per tool');
  assert.equal(await fresh.isAlwaysAllowed('b', 'echo', URL_A, schema), false, 'per server');
});

test('grants are read from storage once, and again after a write from elsewhere (forget)', async () => {
  const area = memoryArea();
  let reads = 0;
  const counting = { get: (k: string) => (reads++, area.get(k)), set: (items: Record<string, unknown>) => area.set(items) };
  const store = new ApprovalStore(counting);
  await store.grant('a', 'echo', URL_A, schema);
  reads = 0;
  for (let i = 0; i < 3; i++) assert.equal(await store.isAlwaysAllowed('a', 'echo', URL_A, schema), true);
  assert.equal(reads, 0, 'an "always" call does not read storage each time');
  // Another context revokes it (the Activity view, a test): storage.onChanged → forget().
  await area.set({ [APPROVALS_KEY]: {} });
  store.forget();
  assert.equal(await store.isAlwaysAllowed('a', 'echo', URL_A, schema), false);
  assert.equal(reads, 1);
});

test('a changed input schema clears the grant, and it does not come back with the old schema', async () => {
  const store = new ApprovalStore(memoryArea());
  await store.grant('a', 'echo', URL_A, schema);
  assert.equal(await store.isAlwaysAllowed('a', 'echo', URL_A, { ...schema, required: ['text'] }), false);
  assert.equal(await store.isAlwaysAllowed('a', 'echo', URL_A, schema), false);
  assert.deepEqual(await store.list(), []);
});

test('a changed server URL clears the grant', async () => {
  const store = new ApprovalStore(memoryArea());
  await store.grant('a', 'echo', URL_A, schema);
  await store.grant('b', 'echo', 'https://b.example/mcp', schema);
  await store.pruneServers([
    { id: 'a', url: 'https://a.example/other' },
    { id: 'b', url: 'https://b.example/mcp' },
  ]);
  assert.deepEqual(
    (await store.list()).map((g) => g.serverId),
    ['b'],
  );
  assert.equal(await store.isAlwaysAllowed('b', 'echo', 'https://b.example/elsewhere', schema), false, 'checked at use time too');
});

test('two grants given at once are both kept', async () => {
  const store = new ApprovalStore(memoryArea());
  await Promise.all([store.grant('a', 'x', URL_A, schema), store.grant('a', 'y', URL_A, schema)]);
  assert.deepEqual((await store.list()).map((g) => g.tool).sort(), ['x', 'y']);
});

const request = (extra: Partial<Parameters<ApprovalBroker['approve']>[0]> = {}) => ({
  serverId: 'a',
  serverName: 'A',
  serverUrl: URL_A,
  tool: tool('echo', { annotations: { readOnlyHint: true } }),
  agentName: 'Agent',
  arguments: { text: 'hi' },
  ...extra,
});

let n = 0;
const ids = () => `ap${++n}`;

test('every call waits for the user even with readOnlyHint; "once" allows only that call', async () => {
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), ids);
  const first = broker.approve(request());
  await new Promise((r) => setTimeout(r, 0));
  const [card] = broker.pending();
  assert.ok(card, 'a card is pending');
  assert.equal(card.annotations?.readOnlyHint, true, 'shown, not acted on');
  assert.equal(card.argumentsJson, JSON.stringify({ text: 'hi' }, null, 2));
  assert.equal(broker.answer(card.id, 'once'), true);
  assert.equal(await first, true);
  const second = broker.approve(request());
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(broker.pending().length, 1, 'asked again');
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await second, false);
});

test('"always" is remembered for the tool until its schema changes', async () => {
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), ids);
  const first = broker.approve(request());
  await new Promise((r) => setTimeout(r, 0));
  broker.answer(broker.pending()[0]!.id, 'always');
  assert.equal(await first, true);
  assert.equal(await broker.approve(request()), true, 'no card the second time');
  assert.equal(broker.pending().length, 0);
  const changed = broker.approve(
    request({ tool: tool('echo', { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }) }),
  );
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(broker.pending().length, 1, 'asked again after the schema changed');
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await changed, false);
});

test('aborting a waiting call removes its card and denies; a late answer is refused', async () => {
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), ids);
  const ac = new AbortController();
  const waiting = broker.approve(request(), ac.signal);
  await new Promise((r) => setTimeout(r, 0));
  const id = broker.pending()[0]!.id;
  ac.abort();
  assert.equal(await waiting, false);
  assert.equal(broker.pending().length, 0);
  assert.equal(broker.answer(id, 'once'), false);
});

test('"always" is never kept for a tool whose oversized schema was replaced by a placeholder', async () => {
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), ids);
  const big = () => request({ tool: { ...tool('echo'), schemaTooLarge: true } });
  const first = broker.approve(big());
  await new Promise((r) => setTimeout(r, 0));
  broker.answer(broker.pending()[0]!.id, 'always');
  assert.equal(await first, true, 'the answer still allows this call');
  const second = broker.approve(big());
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(broker.pending().length, 1, 'asked again: the placeholder hash cannot see schema changes');
  broker.answer(broker.pending()[0]!.id, 'deny');
  assert.equal(await second, false);
});

test('revoke and revoke all: they report what was there, and each change is announced to listeners', async () => {
  let t = 100;
  const store = new ApprovalStore(memoryArea(), () => t++);
  let changes = 0;
  store.onChange(() => changes++);
  await store.grant('a', 'echo', URL_A, schema);
  await store.grant('a', 'add', URL_A, schema);
  await store.grant('b', 'echo', URL_A, schema);
  assert.equal(changes, 3);
  assert.deepEqual(
    (await store.list()).map((g) => [g.serverId, g.tool, g.grantedAt]),
    [
      ['a', 'echo', 100],
      ['a', 'add', 101],
      ['b', 'echo', 102],
    ],
  );
  assert.equal(await store.revoke('a', 'echo'), true);
  assert.equal(await store.revoke('a', 'echo'), false, 'already gone');
  assert.equal(changes, 4, 'a revocation that changed nothing is not announced');
  assert.equal(await store.isAlwaysAllowed('a', 'echo', URL_A, schema), false, 'the next call asks again');
  assert.equal(await store.revokeAll(), 2);
  assert.deepEqual(await store.list(), []);
  assert.equal(await store.revokeAll(), 0);
  assert.equal(changes, 5);
});
