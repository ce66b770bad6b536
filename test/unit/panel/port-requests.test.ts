/**
 * The panel's requests on its Port (src/panel/port-requests.ts): answers are matched by id, pushes
 * pass through, an answer nobody waits for is dropped and counted, and a Port that drops fails the
 * requests sent on it (never resent).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortRequests, WorkerGoneError } from '../../../src/panel/port-requests.js';
import { settled } from '../../support/deferred.js';

function fakePort() {
  const sent: { kind: string; id: number; type: string; params: unknown }[] = [];
  return { sent, postMessage: (m: unknown) => void sent.push(m as (typeof sent)[number]) };
}

test('each answer settles the request with its id, in whatever order they come', async () => {
  const requests = new PortRequests();
  const port = fakePort();
  const a = requests.send(port, 'panel:get-state', {});
  const b = requests.send(port, 'panel:ping', { serverId: 'demo' });
  assert.deepEqual(port.sent, [
    { kind: 'request', id: 1, type: 'panel:get-state', params: {} },
    { kind: 'request', id: 2, type: 'panel:ping', params: { serverId: 'demo' } },
  ]);
  assert.equal(requests.receive({ kind: 'response', id: 2, result: { ok: true, value: 'b' } }), true);
  assert.equal(await settled(a), 'pending');
  assert.deepEqual(await b, { ok: true, value: 'b' });
  assert.equal(requests.receive({ kind: 'response', id: 1, result: { ok: true, value: 'a' } }), true);
  assert.deepEqual(await a, { ok: true, value: 'a' });
  assert.equal(requests.waiting, 0);
  assert.equal(requests.dropped, 0);
});

test('pushes are not taken as answers, even one whose fields look like an answer’s', () => {
  const requests = new PortRequests();
  void requests.send(fakePort(), 'panel:get-state', {});
  assert.equal(requests.receive({ type: 'panel:state', state: { servers: [], configErrors: [] } }), false);
  assert.equal(requests.receive({ type: 'panel:approvals', id: 1, result: {} }), false);
  assert.equal(requests.receive(null), false);
  assert.equal(requests.waiting, 1);
  assert.equal(requests.dropped, 0);
});

test('an answer for an unknown id, a second answer and a malformed one are dropped and counted', async () => {
  const requests = new PortRequests();
  const a = requests.send(fakePort(), 'panel:get-state', {});
  assert.equal(requests.receive({ kind: 'response', id: 7, result: { ok: true, value: 'x' } }), true);
  assert.equal(requests.receive({ kind: 'response', id: '1', result: {} }), true);
  assert.equal(requests.receive({ kind: 'response', result: {} }), true);
  assert.equal(requests.dropped, 3);
  assert.equal(await settled(a), 'pending');
  requests.receive({ kind: 'response', id: 1, result: 'first' });
  requests.receive({ kind: 'response', id: 1, result: 'second' });
  assert.equal(await a, 'first');
  assert.equal(requests.dropped, 4);
});

test('a Port that drops fails the requests sent on it with WorkerGoneError and leaves the others', async () => {
  const requests = new PortRequests();
  const old = fakePort();
  const fresh = fakePort();
  const a = requests.send(old, 'panel:call-tool', {});
  const b = requests.send(fresh, 'panel:get-state', {});
  requests.portDropped(old);
  const outcome = await settled(a);
  assert.ok(typeof outcome === 'object' && 'error' in outcome && outcome.error instanceof WorkerGoneError);
  assert.equal(await settled(b), 'pending');
  // The failed request is not sent again, and its late answer is dropped.
  assert.equal(old.sent.length, 1);
  assert.equal(fresh.sent.length, 1);
  requests.receive({ kind: 'response', id: 1, result: 'late' });
  assert.equal(requests.dropped, 1);
  requests.receive({ kind: 'response', id: 2, result: 'ok' });
  assert.equal(await b, 'ok');
});

test('a Port that throws on send: the send throws at once and nothing waits', () => {
  const requests = new PortRequests();
  const dead = {
    postMessage() {
      throw new Error('Attempting to use a disconnected port object');
    },
  };
  assert.throws(() => requests.send(dead, 'panel:get-state', {}), /disconnected port/);
  assert.equal(requests.waiting, 0);
});
