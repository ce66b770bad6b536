/**
 * The one request/response peer of the extension's channels (src/protocol/request-peer.ts): ids,
 * answers matched strictly by id (N6), timeouts, cancellation, and a dropped transport failing
 * every request waiting on it once, with one wording, never resent (D3).
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { RequestPeer, type ReadAnswer } from '../../../src/protocol/request-peer.js';
import { settled } from '../../support/deferred.js';

class Lost extends Error {
  constructor() {
    super('the transport dropped');
  }
}
class TimedOut extends Error {}

function fakeTransport() {
  const sent: { id: number; ask: string }[] = [];
  return { sent, postMessage: (m: unknown) => void sent.push(m as (typeof sent)[number]) };
}

/** Answers are `{ re: id, value }`; a message with `re` of another type is a malformed answer; others are pushes. */
function read(message: unknown): ReadAnswer {
  if (typeof message !== 'object' || message === null || !('re' in message)) return undefined;
  const { re, value } = message as { re: unknown; value?: unknown };
  return typeof re === 'number' ? { id: re, result: value } : 'malformed';
}

function peer() {
  let lostMade = 0;
  const p = new RequestPeer({
    label: 'test',
    read,
    lost: () => (lostMade++, new Lost()),
    timedOut: () => new TimedOut('no answer in time'),
  });
  return { peer: p, lostMade: () => lostMade };
}

const ask = (what: string) => (id: number) => ({ id, ask: what });

const silenced = <T>(run: () => T): T => {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return run();
  } finally {
    console.warn = warn;
  }
};

test('each request gets a fresh id on the wire, and each answer settles the request with its id', async () => {
  const { peer: p } = peer();
  const t = fakeTransport();
  const a = p.request(t, ask('a'));
  const b = p.request(t, ask('b'));
  assert.deepEqual(t.sent, [
    { id: 1, ask: 'a' },
    { id: 2, ask: 'b' },
  ]);
  assert.equal(p.waiting, 2);
  assert.equal(p.receive({ re: 2, value: 'B' }), true);
  assert.equal(await settled(a), 'pending');
  assert.equal(await b, 'B');
  assert.equal(p.receive({ re: 1, value: 'A' }), true);
  assert.equal(await a, 'A');
  assert.equal(p.waiting, 0);
  assert.equal(p.dropped, 0);
});

test('a message that is not an answer is left to the owner and not counted', () => {
  const { peer: p } = peer();
  void p.request(fakeTransport(), ask('a'));
  assert.equal(p.receive({ push: 'state' }), false);
  assert.equal(p.receive(null), false);
  assert.equal(p.dropped, 0);
  assert.equal(p.waiting, 1);
});

test('N6: a malformed answer, one for an unknown id and a second answer are dropped and counted', async () => {
  const { peer: p } = peer();
  const a = p.request(fakeTransport(), ask('a'));
  silenced(() => {
    assert.equal(p.receive({ re: '1', value: 'x' }), true);
    assert.equal(p.receive({ re: 9, value: 'x' }), true);
  });
  assert.equal(p.dropped, 2);
  assert.equal(await settled(a), 'pending');
  silenced(() => {
    p.receive({ re: 1, value: 'first' });
    p.receive({ re: 1, value: 'second' });
  });
  assert.equal(await a, 'first');
  assert.equal(p.dropped, 3);
});

test('a request with no answer by its timeout fails with the timeout error; its late answer is dropped', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { peer: p } = peer();
    const a = p.request(fakeTransport(), ask('a'), { timeoutMs: 1000 });
    const b = p.request(fakeTransport(), ask('b'), { timeoutMs: 5000 });
    mock.timers.tick(999);
    assert.equal(p.waiting, 2);
    mock.timers.tick(1);
    await assert.rejects(a, TimedOut);
    assert.equal(p.waiting, 1);
    silenced(() => p.receive({ re: 1, value: 'late' }));
    assert.equal(p.dropped, 1);
    p.receive({ re: 2, value: 'B' });
    assert.equal(await b, 'B');
    // Answered before its timeout: the timer is gone and fails nothing later.
    mock.timers.tick(10_000);
    assert.equal(p.dropped, 1);
  } finally {
    mock.timers.reset();
  }
});

test('aborting fails the request with the signal’s reason; a late answer is dropped', async () => {
  const { peer: p } = peer();
  const controller = new AbortController();
  const a = p.request(fakeTransport(), ask('a'), { signal: controller.signal });
  const reason = new Error('the user stopped it');
  controller.abort(reason);
  const outcome = await settled(a);
  assert.ok(typeof outcome === 'object' && 'error' in outcome && outcome.error === reason);
  assert.equal(p.waiting, 0);
  silenced(() => p.receive({ re: 1, value: 'late' }));
  assert.equal(p.dropped, 1);
});

test('an already aborted signal throws at once and sends nothing', () => {
  const { peer: p } = peer();
  const t = fakeTransport();
  assert.throws(() => p.request(t, ask('a'), { signal: AbortSignal.abort(new Error('too late')) }), /too late/);
  assert.deepEqual(t.sent, []);
  assert.equal(p.waiting, 0);
});

test('a transport that refuses the message: the request throws at once and nothing waits', () => {
  const { peer: p } = peer();
  const dead = {
    postMessage() {
      throw new Error('Attempting to use a disconnected port object');
    },
  };
  assert.throws(() => p.request(dead, ask('a')), /disconnected port/);
  assert.equal(p.waiting, 0);
});

test('D3: a dropped transport fails every request waiting on it once, with the one lost error, and resends none', async () => {
  const { peer: p, lostMade } = peer();
  const old = fakeTransport();
  const fresh = fakeTransport();
  const a = p.request(old, ask('a'));
  const b = p.request(old, ask('b'), { timeoutMs: 50 });
  const c = p.request(fresh, ask('c'));
  p.closed(old);
  await assert.rejects(a, (e: unknown) => e instanceof Lost && e.message === 'the transport dropped');
  await assert.rejects(b, Lost);
  assert.equal(lostMade(), 2, 'one error per request, no more');
  // Dropping it again, its timeout passing or its late answers settle nothing twice.
  p.closed(old);
  assert.equal(lostMade(), 2);
  await new Promise((r) => setTimeout(r, 60));
  silenced(() => p.receive({ re: 1, value: 'late' }));
  assert.equal(p.dropped, 1);
  // Nothing was sent again, and the other transport's request still waits.
  assert.equal(old.sent.length, 2);
  assert.equal(fresh.sent.length, 1);
  assert.equal(await settled(c), 'pending');
  p.receive({ re: 3, value: 'C' });
  assert.equal(await c, 'C');
});

test('closed() may name another error for one drop (a replaced transport), still once per request', async () => {
  const { peer: p, lostMade } = peer();
  const t = fakeTransport();
  const a = p.request(t, ask('a'));
  p.closed(t, () => new Error('replaced'));
  await assert.rejects(a, /replaced/);
  assert.equal(lostMade(), 0);
  assert.equal(p.waiting, 0);
});

test('a transport that delivers its answer while the request is posted still finds it waiting', async () => {
  const { peer: p } = peer();
  const echo = { postMessage: (m: unknown) => void p.receive({ re: (m as { id: number }).id, value: 'at once' }) };
  assert.equal(await p.request(echo, ask('a')), 'at once');
  assert.equal(p.dropped, 0);
});

test('an answered request is done: a later abort or the end of its timeout changes nothing', async () => {
  const { peer: p } = peer();
  const controller = new AbortController();
  const a = p.request(fakeTransport(), ask('a'), { signal: controller.signal, timeoutMs: 20 });
  p.receive({ re: 1, value: 'A' });
  controller.abort(new Error('after the answer'));
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(await a, 'A');
  assert.equal(p.waiting, 0);
  assert.equal(p.dropped, 0);
});
