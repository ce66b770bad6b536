import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPROVALS_KEY, ApprovalStore, legacySchemaHash, toolFingerprint } from '../../../../src/sw/use/approval-store.js';
import { canonicalJson } from '../../../../src/common/canonical-json.js';
import { ApprovalBroker } from '../../../../src/sw/use/approval-broker.js';
import { memoryArea, tool } from './fakes.js';

const URL_A = 'https://a.example/mcp';
const schema = { type: 'object', properties: { text: { type: 'string' } } };

test('the tool fingerprint ignores key order but not content', () => {
  assert.equal(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
  assert.equal(toolFingerprint(tool('t', { inputSchema: { a: 1, b: 2 } })), toolFingerprint(tool('t', { inputSchema: { b: 2, a: 1 } })));
  assert.notEqual(toolFingerprint(tool('t', { inputSchema: { a: 1 } })), toolFingerprint(tool('t', { inputSchema: { a: 2 } })));
  assert.match(toolFingerprint(tool('t')), /^[0-9a-f]{64}$/, 'SHA-256');
});

test('an "always" grant persists in chrome.storage.local and survives a new store instance', async () => {
  const area = memoryArea();
  await new ApprovalStore(area).grant('a', tool('echo', { inputSchema: schema }), URL_A);
  assert.ok(area.data[APPROVALS_KEY], 'written under mcp_tool_approvals');
  const fresh = new ApprovalStore(area);
  assert.equal(
    await fresh.isAlwaysAllowed('a', tool('echo', { inputSchema: { properties: { text: { type: 'string' } }, type: 'object' } }), URL_A),
    true,
  );
  assert.equal(await fresh.isAlwaysAllowed('a', tool('other', { inputSchema: schema }), URL_A), false, 'per tool');
  assert.equal(await fresh.isAlwaysAllowed('b', tool('echo', { inputSchema: schema }), URL_A), false, 'per server');
});

test('grants are read from storage once, and again after a write from elsewhere (forget)', async () => {
  const area = memoryArea();
  let reads = 0;
  const counting = { get: (k: string) => (reads++, area.get(k)), set: (items: Record<string, unknown>) => area.set(items) };
  const store = new ApprovalStore(counting);
  await store.grant('a', tool('echo', { inputSchema: schema }), URL_A);
  reads = 0;
  for (let i = 0; i < 3; i++) assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), true);
  assert.equal(reads, 0, 'an "always" call does not read storage each time');
  // Another context revokes it (the Activity view, a test): storage.onChanged → forget().
  await area.set({ [APPROVALS_KEY]: {} });
  store.forget();
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), false);
  assert.equal(reads, 1);
});

test('a changed input schema clears the grant, and it does not come back with the old schema', async () => {
  const store = new ApprovalStore(memoryArea());
  await store.grant('a', tool('echo', { inputSchema: schema }), URL_A);
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: { ...schema, required: ['text'] } }), URL_A), false);
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), false);
  assert.deepEqual(await store.list(), []);
});

test('a changed server URL clears the grant', async () => {
  const store = new ApprovalStore(memoryArea());
  await store.grant('a', tool('echo', { inputSchema: schema }), URL_A);
  await store.grant('b', tool('echo', { inputSchema: schema }), 'https://b.example/mcp');
  await store.pruneServers([
    { id: 'a', url: 'https://a.example/other' },
    { id: 'b', url: 'https://b.example/mcp' },
  ]);
  assert.deepEqual(
    (await store.list()).map((g) => g.serverId),
    ['b'],
  );
  assert.equal(
    await store.isAlwaysAllowed('b', tool('echo', { inputSchema: schema }), 'https://b.example/elsewhere'),
    false,
    'checked at use time too',
  );
});

test('two grants given at once are both kept', async () => {
  const store = new ApprovalStore(memoryArea());
  await Promise.all([
    store.grant('a', tool('x', { inputSchema: schema }), URL_A),
    store.grant('a', tool('y', { inputSchema: schema }), URL_A),
  ]);
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
  await store.grant('a', tool('echo', { inputSchema: schema }), URL_A);
  await store.grant('a', tool('add', { inputSchema: schema }), URL_A);
  await store.grant('b', tool('echo', { inputSchema: schema }), URL_A);
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
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), false, 'the next call asks again');
  assert.equal(await store.revokeAll(), 2);
  assert.deepEqual(await store.list(), []);
  assert.equal(await store.revokeAll(), 0);
  assert.equal(changes, 5);
});

test('G1: a grant re-asks when the title, description, annotations or output schema change', async () => {
  const granted = tool('echo', {
    title: 'Echo',
    description: 'Echoes text.',
    annotations: { destructiveHint: false },
    outputSchema: { type: 'object' },
  });
  const changes: Array<Partial<typeof granted>> = [
    { title: 'Echo (new)' },
    { description: 'Deletes all data.' },
    { annotations: {} },
    { annotations: { destructiveHint: true } },
    { outputSchema: { type: 'object', properties: { x: {} } } },
  ];
  for (const change of changes) {
    const store = new ApprovalStore(memoryArea());
    await store.grant('a', granted, URL_A);
    assert.equal(await store.isAlwaysAllowed('a', { ...granted }, URL_A), true, 'an equal copy still matches');
    assert.equal(await store.isAlwaysAllowed('a', { ...granted, ...change }, URL_A), false, JSON.stringify(change));
    assert.equal(await store.isAlwaysAllowed('a', granted, URL_A), false, 'and the old grant is gone');
  }
  // `_meta` is not shown to the user or the model: a change there keeps the grant.
  const store = new ApprovalStore(memoryArea());
  await store.grant('a', granted, URL_A);
  assert.equal(await store.isAlwaysAllowed('a', { ...granted, _meta: { x: 1 } } as typeof granted, URL_A), true);
});

test('G1: a grant of the previous storage version whose schema hash no longer matches re-asks and is deleted', async () => {
  const area = memoryArea();
  await area.set({ [APPROVALS_KEY]: { 'a\u0000echo': { url: URL_A, schemaHash: '1234abcd5678ef90', grantedAt: 1 } } });
  const store = new ApprovalStore(area);
  assert.equal((await store.list()).length, 1, 'listed until the next call, so the user sees it');
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), false);
  assert.deepEqual(await store.list(), []);
});

test('V2/G1: a grant of the previous storage version that still matches is kept once, as a fingerprint; a later change re-asks', async () => {
  const area = memoryArea();
  await area.set({ [APPROVALS_KEY]: { 'a\u0000echo': { url: URL_A, schemaHash: legacySchemaHash(schema), grantedAt: 1 } } });
  const store = new ApprovalStore(area);
  const echo = tool('echo', { inputSchema: schema });
  assert.equal(await store.isAlwaysAllowed('a', echo, URL_A), true, 'the upgrade keeps the grant');
  const stored = ((await area.get(APPROVALS_KEY))[APPROVALS_KEY] as Record<string, { fingerprint?: string }>)['a\u0000echo'];
  assert.equal(stored?.fingerprint, store.fingerprintOf(echo), 'rewritten with the fingerprint of the tool as it is now');
  assert.equal(await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema }), URL_A), true);
  assert.equal(
    await store.isAlwaysAllowed('a', tool('echo', { inputSchema: schema, description: 'Now deletes everything.' }), URL_A),
    false,
  );
  assert.deepEqual(await store.list(), []);
});
