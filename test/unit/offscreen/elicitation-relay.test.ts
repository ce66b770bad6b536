import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitationRelay, MAX_PENDING_PER_CONNECTION, MAX_SCHEMA_JSON } from '../../../src/offscreen/elicitation-relay.js';
import type { OffscreenEvent } from '../../../src/protocol/offscreen.js';

const params = (schema: unknown = { type: 'object', properties: { n: { type: 'number' } } }) =>
  ({ mode: 'form', message: 'Pick', requestedSchema: schema }) as never;

function relay() {
  const events: OffscreenEvent[] = [];
  return { r: new ElicitationRelay((e) => events.push(e) > 0), events };
}
const idOf = (e: OffscreenEvent | undefined) => (e as { elicitationId: string }).elicitationId;

test('a question names the one call in flight and settles with the answer, once', async () => {
  const { r, events } = relay();
  r.callStarted('c1', 'op1');
  const answer = r.ask('c1', params(), new AbortController().signal);
  assert.deepEqual(
    { ...events[0], elicitationId: 'x' },
    {
      type: 'offscreen:elicitation',
      connectionId: 'c1',
      operationId: 'op1',
      elicitationId: 'x',
      message: 'Pick',
      requestedSchema: { type: 'object', properties: { n: { type: 'number' } } },
    },
  );
  assert.deepEqual(r.answer({ elicitationId: idOf(events[0]), action: 'accept', content: { n: 2 } }), { delivered: true });
  assert.deepEqual(await answer, { action: 'accept', content: { n: 2 } });
  assert.deepEqual(r.answer({ elicitationId: idOf(events[0]), action: 'decline' }), { delivered: false });
});

test('with two calls in flight the question is not attributed to either', async () => {
  const { r, events } = relay();
  r.callStarted('c1', 'op1');
  r.callStarted('c1', 'op2');
  void r.ask('c1', params(), new AbortController().signal).catch(() => undefined);
  assert.equal((events[0] as { operationId?: string }).operationId, undefined);
  r.dropConnection('c1');
});

test('a withdrawn question or a closed connection fails the question; an oversized schema is declined unseen', async () => {
  const { r, events } = relay();
  r.callStarted('c1', 'op1');
  r.callStarted('c2', 'op2');
  const ac = new AbortController();
  const withdrawn = r.ask('c1', params(), ac.signal);
  ac.abort();
  await assert.rejects(withdrawn, /withdrew/);
  const dropped = r.ask('c2', params(), new AbortController().signal);
  r.dropConnection('c2');
  await assert.rejects(dropped, /closed/);
  assert.deepEqual(r.answer({ elicitationId: idOf(events[1]), action: 'accept' }), { delivered: false });
  const big = { type: 'object', properties: { x: { type: 'string', description: 'y'.repeat(MAX_SCHEMA_JSON) } } };
  assert.deepEqual(await r.ask('c1', params(big), new AbortController().signal), { action: 'decline' });
  assert.equal(events.length, 2);
});

test('a question with no tool call in flight, or beyond the per-connection cap, is declined without a card (I1, N5)', async () => {
  const { r, events } = relay();
  assert.deepEqual(await r.ask('c1', params(), new AbortController().signal), { action: 'decline' });
  assert.equal(events.length, 0, 'no card for a question outside a call');
  r.callStarted('c1', 'op1');
  for (let i = 0; i < MAX_PENDING_PER_CONNECTION; i++) void r.ask('c1', params(), new AbortController().signal).catch(() => undefined);
  assert.equal(events.length, MAX_PENDING_PER_CONNECTION);
  assert.deepEqual(await r.ask('c1', params(), new AbortController().signal), { action: 'decline' });
  assert.equal(events.length, MAX_PENDING_PER_CONNECTION, 'the extra question raised no card');
  r.dropConnection('c1');
});

const urlParams = (url: unknown) => ({ mode: 'url', message: 'Sign up', url, elicitationId: 'srv-1' }) as never;

test('R5: a URL-mode question reaches the panel with its page; accepting it answers accept without content', async () => {
  const { r, events } = relay();
  r.callStarted('c1', 'op1');
  const answer = r.ask('c1', urlParams('https://example.com/signup?step=1'), new AbortController().signal);
  const event = events[0] as { url?: string; requestedSchema: unknown; message: string };
  assert.equal(event.url, 'https://example.com/signup?step=1');
  assert.deepEqual(event.requestedSchema, {});
  assert.equal(event.message, 'Sign up');
  assert.deepEqual(r.answer({ elicitationId: idOf(events[0]), action: 'accept', content: { injected: true } }), { delivered: true });
  assert.deepEqual(await answer, { action: 'accept' });
});

test('R5/N2: a page that is not https (or loopback http), carries a credential, or is too long is declined before any card', async () => {
  const { r, events } = relay();
  r.callStarted('c1', 'op1');
  for (const url of [
    'javascript:alert(1)',
    'http://example.com/plain',
    'https://user:secret@example.com/',
    'https://token@example.com/',
    'data:text/html,<p>x',
    `https://example.com/${'a'.repeat(2100)}`,
    42,
    undefined,
  ]) {
    assert.deepEqual(await r.ask('c1', urlParams(url), new AbortController().signal), { action: 'decline' }, String(url));
  }
  assert.equal(events.length, 0);
  const loopback = r.ask('c1', urlParams('http://127.0.0.1:8080/consent'), new AbortController().signal);
  assert.equal((events[0] as { url?: string }).url, 'http://127.0.0.1:8080/consent');
  r.answer({ elicitationId: idOf(events[0]), action: 'decline' });
  assert.deepEqual(await loopback, { action: 'decline' });
});

test('R6: a question asked while no worker listened is told to the next worker once; one a worker heard is not told again', async () => {
  let listening = false;
  const events: OffscreenEvent[] = [];
  const r = new ElicitationRelay((e) => (events.push(e), listening));
  r.callStarted('c1', 'op1');
  void r.ask('c1', params(), new AbortController().signal).catch(() => undefined);
  listening = true;
  void r.ask('c1', params({ type: 'object' }), new AbortController().signal).catch(() => undefined);
  assert.deepEqual(r.untold(), [events[0]], 'only the one nobody heard');
  assert.deepEqual(r.untold(), [], 'told once');
  r.dropConnection('c1');
  assert.deepEqual(r.untold(), []);
});
