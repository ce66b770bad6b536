import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerOf, withBearer } from '../../../../src/sw/offscreen-link/bearer-header.js';

test('the bearer token is read from the authorization header whatever its case and spacing', () => {
  assert.equal(bearerOf({ Authorization: 'Bearer abc' }), 'abc');
  assert.equal(bearerOf({ authorization: '  bearer   abc  ' }), 'abc');
  assert.equal(bearerOf({ 'X-Key': 'k' }), undefined);
  assert.equal(bearerOf({ Authorization: 'Basic dXNlcjpwYXNz' }), undefined);
});

test('a fresh token replaces every spelling of the authorization header and keeps the others', () => {
  const headers = { authorization: 'Bearer OLD', AUTHORIZATION: 'Bearer OLDER', 'X-Key': 'k' };
  assert.deepEqual(withBearer(headers, 'NEW'), { 'X-Key': 'k', Authorization: 'Bearer NEW' });
  assert.deepEqual(headers, { authorization: 'Bearer OLD', AUTHORIZATION: 'Bearer OLDER', 'X-Key': 'k' });
  assert.deepEqual(withBearer({}, 'NEW'), { Authorization: 'Bearer NEW' });
});
