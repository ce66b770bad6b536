import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RemoteError } from '../../../../src/protocol/result.js';
import { say } from '../../../../src/protocol/wording.js';
import { authorizeFailure } from '../../../../src/sw/handlers/authorize-failure.js';

test('a window closed before access was granted reads as a cancelled authorization, denied, with Authorize offered', () => {
  const f = authorizeFailure(new RemoteError({ code: 'auth-cancelled', ...say('reasonAuthWindowClosed') }));
  assert.equal(f.reason.kind, 'auth-denied');
  assert.equal(f.reason.action, 'authorize');
  assert.equal(f.reason.wording?.code, 'reasonAuthCancelledWindow');
  assert.deepEqual(f.error, { code: 'auth-cancelled', ...say('reasonAuthCancelledWindow'), action: 'authorize' });
});

test('another cancellation quotes what was said as its detail', () => {
  const f = authorizeFailure(new RemoteError({ code: 'auth-cancelled', message: 'The user said no thanks.' }));
  assert.deepEqual(f.reason, {
    kind: 'auth-denied',
    ...say('reasonAuthCancelled', { detail: 'The user said no thanks.' }),
    action: 'authorize',
  });
});

test('a refusal is denied and keeps its own words and action', () => {
  const f = authorizeFailure(new RemoteError({ code: 'auth-denied', message: 'access_denied', action: 'edit' }));
  assert.deepEqual(f.reason, { kind: 'auth-denied', message: 'access_denied', action: 'edit' });
  assert.deepEqual(f.error, { code: 'auth-denied', message: 'access_denied', action: 'edit' });
});

test('a failed discovery stays a discovery failure, with its wording', () => {
  const said = say('reasonNeedsAuth', { url: 'https://mcp.example/' });
  const f = authorizeFailure(new RemoteError({ code: 'auth-discovery', ...said }));
  assert.equal(f.reason.kind, 'auth-discovery');
  assert.deepEqual(f.reason.wording, said.wording);
  assert.equal(f.error.code, 'auth-discovery');
});

test('anything else thrown is an auth failure under the auth code', () => {
  const f = authorizeFailure(new Error('token endpoint exploded'));
  assert.deepEqual(f.reason, { kind: 'auth', message: 'token endpoint exploded', action: 'authorize' });
  assert.deepEqual(f.error, { code: 'auth', message: 'token endpoint exploded', action: 'authorize' });
});
