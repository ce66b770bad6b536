import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectScope } from '../../../../src/sw/auth/scope.js';

test('the challenge scope is authoritative over PRM and configured scopes', () => {
  assert.equal(selectScope({ challengeScope: 'mcp:tools', prmScopes: ['a', 'b'], configuredScopes: ['c'] }), 'mcp:tools');
});

test('what was granted is always kept: granted ∪ challenged, without duplicates', () => {
  assert.equal(selectScope({ challengeScope: 'write read', grantedScope: 'read profile' }), 'read profile write');
});

test('a stale challenge never narrows the granted scopes (Re-authorize after step-up)', () => {
  assert.equal(selectScope({ challengeScope: 'admin', grantedScope: 'read admin' }), 'read admin');
  assert.equal(selectScope({ prmScopes: ['read'], grantedScope: 'read admin' }), 'read admin');
});

test('without a challenge, PRM scopes_supported, then configured scopes, are used', () => {
  assert.equal(selectScope({ configuredScopes: ['c1', 'c2'], prmScopes: ['a'] }), 'a');
  assert.equal(selectScope({ configuredScopes: ['c1', 'c2'] }), 'c1 c2');
  assert.equal(selectScope({ prmScopes: ['a', 'b'] }), 'a b');
});

test('with nothing to go on, scope is omitted', () => {
  assert.equal(selectScope({}), undefined);
  assert.equal(selectScope({ challengeScope: '   ' }), undefined);
});

test('offline_access is added only when the AS lists it', () => {
  assert.equal(selectScope({ prmScopes: ['a'], asScopes: ['a', 'offline_access'] }), 'a offline_access');
  assert.equal(selectScope({ prmScopes: ['a'], asScopes: ['a'] }), 'a');
  assert.equal(selectScope({ challengeScope: 'a offline_access', asScopes: ['offline_access'] }), 'a offline_access');
});
