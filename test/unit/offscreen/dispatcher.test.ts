import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispatch, failureOf, reply, type Handlers } from '../../../src/offscreen/dispatcher.js';
import { OwnerFence } from '../../../src/offscreen/owner-fence.js';
import { RemoteError } from '../../../src/protocol/result.js';

function handlers(overrides: Partial<Handlers>): Handlers {
  const unexpected = async () => assert.fail('this handler should not run');
  return new Proxy(overrides, { get: (target, key: string) => target[key as keyof Handlers] ?? unexpected }) as Handlers;
}

const ping = (owner: string, id = 1) => ({ kind: 'request', id, owner, method: 'offscreen:ping', params: { connectionId: 'c1' } });

test('a valid request runs its handler and answers ok with its id', async () => {
  const seen: unknown[] = [];
  const table = handlers({
    'offscreen:ping': async (p) => {
      seen.push(p);
      return { latencyMs: 3 };
    },
  });
  assert.deepEqual(await dispatch(ping('w1', 7), table, new OwnerFence()), { id: 7, result: { ok: true, value: { latencyMs: 3 } } });
  assert.deepEqual(seen, [{ connectionId: 'c1' }]);
});

test('a malformed envelope gets no answer; malformed parameters get bad-request', async () => {
  assert.equal(await dispatch({ kind: 'request', id: -1 }, handlers({}), new OwnerFence()), undefined);
  const answer = await dispatch({ ...ping('w1', 2), params: {} }, handlers({}), new OwnerFence());
  assert.deepEqual(answer, {
    id: 2,
    result: { ok: false, error: { code: 'bad-request', message: 'Invalid parameters for offscreen:ping.' } },
  });
});

test('a sender that is not the owner is refused before its handler runs', async () => {
  const fence = new OwnerFence();
  const table = handlers({ 'offscreen:ping': async () => ({ latencyMs: 1 }) });
  await dispatch(ping('w1'), table, fence);
  const refused = await dispatch(ping('w-old', 3), handlers({}), fence);
  assert.equal(refused?.id, 3);
  assert.equal(refused?.result.ok === false && refused.result.error.code, 'stale-connection');
});

test('a thrown RemoteError keeps its code, status, challenge, action and wording', async () => {
  const error = new RemoteError({
    code: 'auth',
    message: 'refused',
    httpStatus: 401,
    wwwAuthenticate: 'Bearer realm="x"',
    action: 'reauthorize',
    wording: { code: 'reasonStaleConnection' },
  });
  const table = handlers({ 'offscreen:ping': () => Promise.reject(error) });
  assert.deepEqual((await dispatch(ping('w1'), table, new OwnerFence()))?.result, {
    ok: false,
    error: {
      code: 'auth',
      message: 'refused',
      httpStatus: 401,
      wwwAuthenticate: 'Bearer realm="x"',
      action: 'reauthorize',
      wording: { code: 'reasonStaleConnection' },
    },
  });
});

test('anything else thrown becomes a protocol failure with its message', () => {
  assert.deepEqual(failureOf(Object.assign(new Error('odd'), { code: 'ECONNRESET', action: 'explode' })), {
    ok: false,
    error: { code: 'protocol', message: 'odd' },
  });
  assert.deepEqual(failureOf('plain text'), { ok: false, error: { code: 'protocol', message: 'plain text' } });
});

test('an answer the link cannot carry is replaced by a protocol failure with the same id', () => {
  const sent: unknown[] = [];
  const link = {
    postMessage(message: unknown) {
      if ((message as { result: { ok: boolean } }).result.ok) throw new DOMException('could not be cloned', 'DataCloneError');
      sent.push(message);
    },
  };
  reply(link, { id: 4, result: { ok: true, value: () => undefined } });
  assert.deepEqual(sent, [
    {
      kind: 'response',
      id: 4,
      result: { ok: false, error: { code: 'protocol', message: 'The answer could not be passed to the service worker.' } },
    },
  ]);
});
