import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RemoteError } from '../../../src/protocol/result.js';
import { MAX_LOST_WHILE_AWAY, SessionTable, keepChecked, recordListing } from '../../../src/offscreen/session-table.js';

class FakeSession {
  closed = 0;
  async close() {
    this.closed++;
  }
}

function tableWith(...connections: [serverId: string, connectionId: string][]) {
  const dropped: string[] = [];
  const table = new SessionTable<FakeSession>((connectionId) => dropped.push(connectionId));
  const sessions = new Map<string, FakeSession>();
  for (const [serverId, connectionId] of connections) {
    const session = new FakeSession();
    sessions.set(connectionId, session);
    table.open(serverId, connectionId);
    table.commit(connectionId, { serverId, url: `https://${serverId}.example/mcp`, fingerprint: `fp-${serverId}`, session });
  }
  return { table, sessions, dropped };
}

test('a newer connection of the same server makes the older one stale', () => {
  const { table } = tableWith(['s1', 'c1']);
  assert.equal(table.current('c1')?.serverId, 's1');
  assert.equal(table.open('s1', 'c2'), 'c1');
  assert.equal(table.current('c1'), undefined);
  assert.equal(table.has('c1'), true, 'the old session is still held until it is dropped');
  assert.throws(
    () => table.held('c1'),
    (e: unknown) => e instanceof RemoteError && e.code === 'stale-connection' && e.wording?.code === 'reasonStaleConnection',
  );
  assert.throws(
    () => table.held('unknown'),
    (e: unknown) => e instanceof RemoteError && e.code === 'stale-connection',
  );
});

test('abandon forgets the current connection only while it is still the current one', () => {
  const { table } = tableWith();
  table.open('s1', 'c1');
  table.open('s1', 'c2');
  table.abandon('s1', 'c1');
  assert.equal(table.isCurrent('s1', 'c2'), true);
  table.abandon('s1', 'c2');
  assert.equal(table.isCurrent('s1', 'c2'), false);
});

test('a committed entry starts empty and is found only with its own session', () => {
  const { table, sessions } = tableWith(['s1', 'c1']);
  const h = table.current('c1')!;
  assert.deepEqual(
    { catalog: h.catalog, stale: [...h.stale], calls: [...h.calls], gen: h.catalogGeneration },
    {
      catalog: {},
      stale: [],
      calls: [],
      gen: 0,
    },
  );
  assert.equal(table.entryOf('c1', sessions.get('c1')!), h);
  assert.equal(table.entryOf('c1', new FakeSession()), undefined);
});

test('C7: what a worker made of a listing is kept only while the category holds that listing, and handed over with the claim', () => {
  const { table } = tableWith(['s1', 'c1']);
  const h = table.current('c1')!;
  const hash = 'a'.repeat(64);
  const first = recordListing(h, 'tools', [{ name: 'raw' }]);
  const prompts = recordListing(h, 'prompts', []);
  assert.equal(first, 1);
  assert.equal(prompts, 2, 'each listing of the session gets its own number');
  const checked = { listing: first, items: [{ name: 'checked' }], warnings: [], hashes: [hash] };
  assert.equal(keepChecked(h, 'tools', { ...checked, hashes: [] }), false, 'not one hash per item: refused');
  assert.equal(keepChecked(h, 'tools', { ...checked, listing: prompts }), false, 'another listing’s number: refused');
  assert.equal(keepChecked(h, 'tools', checked), true);
  const held = table.claim().sessions[0]!;
  assert.deepEqual(held.listings, { tools: 1, prompts: 2 });
  assert.deepEqual(held.checked, { tools: checked });
  assert.deepEqual(held.catalog.tools, [{ name: 'raw' }], 'the listing itself is kept too');

  // A new listing replaces the old one, and what was made of the old one goes with it.
  const second = recordListing(h, 'tools', [{ name: 'newer' }]);
  assert.equal(table.claim().sessions[0]!.checked, undefined);
  assert.equal(keepChecked(h, 'tools', checked), false, 'a late answer about the old listing is refused');
  assert.equal(keepChecked(h, 'tools', { ...checked, listing: second }), true);
});

test('drop forgets the session, tells onDrop, aborts its calls and closes it once', async () => {
  const { table, sessions, dropped } = tableWith(['s1', 'c1']);
  const h = table.current('c1')!;
  assert.equal(h.cancels.admit('op1'), true);
  const signal = h.cancels.signalOf('op1')!;
  await table.drop('c1', 'gone');
  await table.drop('c1', 'gone again');
  assert.equal(table.has('c1'), false);
  assert.deepEqual(dropped, ['c1']);
  assert.equal(signal.aborted, true);
  assert.equal(sessions.get('c1')!.closed, 1);
});

test('close closes only a current connection and leaves its server without one', async () => {
  const { table, sessions } = tableWith(['s1', 'c1'], ['s1', 'c2']);
  assert.equal(await table.close('c1', 'connection closed'), false, 'c1 was superseded by c2');
  assert.equal(sessions.get('c1')!.closed, 0);
  assert.equal(await table.close('c2', 'connection closed'), true);
  assert.equal(sessions.get('c2')!.closed, 1);
  assert.equal(table.isCurrent('s1', 'c2'), false);
  assert.equal(await table.close('c2', 'connection closed'), false);
});

test('claim lists current sessions only and hands the lost ones over once', () => {
  const { table } = tableWith(['s1', 'c1'], ['s1', 'c2'], ['s2', 'c3']);
  table.current('c3')!.stale.add('tools');
  table.rememberLost({ serverId: 's9', connectionId: 'c9', error: { code: 'network', message: 'closed' } });
  const first = table.claim();
  assert.deepEqual(
    first.sessions.map((s) => [s.serverId, s.connectionId, s.fingerprint, s.stale]),
    [
      ['s1', 'c2', 'fp-s1', []],
      ['s2', 'c3', 'fp-s2', ['tools']],
    ],
  );
  assert.deepEqual(first.lost, [{ serverId: 's9', connectionId: 'c9', error: { code: 'network', message: 'closed' } }]);
  assert.deepEqual(table.claim().lost, []);
});

test('at most MAX_LOST_WHILE_AWAY lost sessions are kept, the newest ones', () => {
  const { table } = tableWith();
  for (let i = 0; i < MAX_LOST_WHILE_AWAY + 5; i++) {
    table.rememberLost({ serverId: 's', connectionId: `c${i}`, error: { code: 'network', message: 'closed' } });
  }
  const lost = table.claim().lost;
  assert.equal(lost.length, MAX_LOST_WHILE_AWAY);
  assert.equal(lost[0]!.connectionId, 'c5');
  assert.equal(lost.at(-1)!.connectionId, `c${MAX_LOST_WHILE_AWAY + 4}`);
});

test('cancelCalls aborts every call in flight and keeps the sessions', () => {
  const { table } = tableWith(['s1', 'c1'], ['s2', 'c2']);
  const signals = ['c1', 'c2'].map((c) => {
    const h = table.current(c)!;
    h.cancels.admit('op');
    h.calls.add('op');
    return h.cancels.signalOf('op')!;
  });
  table.cancelCalls('the worker stopped');
  assert.deepEqual(
    signals.map((s) => [s.aborted, String(s.reason)]),
    [
      [true, 'the worker stopped'],
      [true, 'the worker stopped'],
    ],
  );
  assert.equal(table.has('c1') && table.has('c2'), true);
});
