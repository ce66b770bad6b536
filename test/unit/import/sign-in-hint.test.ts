import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signInHint } from '../../../src/import/sign-in-hint.js';

const entry = (over: Partial<Parameters<typeof signInHint>[0]> = {}) => ({
  status: 'add' as const,
  authKind: 'none' as const,
  headers: [],
  ...over,
});

test('an OAuth entry will need sign-in; a credential-less one may; a token or a header says nothing', () => {
  assert.equal(signInHint(entry({ authKind: 'oauth' })), 'needed');
  assert.equal(signInHint(entry()), 'maybe');
  assert.equal(signInHint(entry({ authKind: 'bearer' })), undefined);
  assert.equal(signInHint(entry({ headers: [{ name: 'X-Api-Key', value: '${KEY}' }] })), undefined);
});

test('a skipped entry gets no hint', () => {
  assert.equal(signInHint(entry({ status: 'skip', authKind: 'oauth' })), undefined);
});
