import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomId } from '../../../src/common/random-id.js';

test('a random id is 32 lowercase hex digits, which every protocol id schema accepts', () => {
  for (let i = 0; i < 50; i++) {
    const id = randomId();
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.match(id, /^[A-Za-z0-9_-]{1,64}$/);
  }
});

test('random ids do not repeat', () => {
  const ids = new Set(Array.from({ length: 2000 }, randomId));
  assert.equal(ids.size, 2000);
});
