import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cancelCall, type CancelCallDeps } from '../../../../src/sw/use/cancel-call.js';

function deps(opts: { waiting?: boolean; unsent?: boolean; ready?: boolean; cancelled?: boolean }) {
  const sent: unknown[] = [];
  const d: CancelCallDeps = {
    cancelWaiting: () => opts.waiting ?? false,
    manager: {
      cancelUnsent: () => opts.unsent ?? false,
      state: () => (opts.ready ? { status: 'ready', connectionId: 'c1' } : { status: 'connecting', attempt: 1 }),
    },
    request: async (method, params) => {
      sent.push([method, params]);
      return { cancelled: opts.cancelled ?? true };
    },
  };
  return { d, sent };
}

test('a view call waiting for approval or a call not sent yet is cancelled here, nothing is sent', async () => {
  for (const opts of [
    { waiting: true, ready: true },
    { unsent: true, ready: true },
  ]) {
    const { d, sent } = deps(opts);
    assert.equal(await cancelCall(d, 'gh', 'op_1'), true);
    assert.deepEqual(sent, []);
  }
});

test('a sent call is cancelled on the live connection, with the answer of the offscreen side', async () => {
  const { d, sent } = deps({ ready: true, cancelled: false });
  assert.equal(await cancelCall(d, 'gh', 'op_1'), false);
  assert.deepEqual(sent, [['offscreen:cancel', { connectionId: 'c1', operationId: 'op_1' }]]);
  const yes = deps({ ready: true });
  assert.equal(await cancelCall(yes.d, 'gh', 'op_2'), true);
});

test('without a live connection there is nothing to cancel', async () => {
  const { d, sent } = deps({});
  assert.equal(await cancelCall(d, 'gh', 'op_1'), false);
  assert.deepEqual(sent, []);
});
