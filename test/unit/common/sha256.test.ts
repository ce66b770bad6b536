import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex } from '../../../src/common/sha256.js';

test('sha256Hex matches node:crypto on empty, short, multi-block and non-ASCII input', () => {
  for (const text of ['', 'abc', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é😀'.repeat(300)]) {
    assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'), `length ${text.length}`);
  }
});
