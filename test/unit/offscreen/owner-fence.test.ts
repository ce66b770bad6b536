import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnerFence } from '../../../src/offscreen/owner-fence.js';

test('a fresh document takes its first sender as owner and refuses any other', () => {
  const fence = new OwnerFence();
  assert.equal(fence.admit('offscreen:ping', 'w1'), true);
  assert.equal(fence.admit('offscreen:ping', 'w1'), true);
  assert.equal(fence.admit('offscreen:connect', 'w2'), false);
});

test('a claim hands the document to its sender; the old owner is refused from then on', () => {
  const fence = new OwnerFence();
  assert.equal(fence.admit('offscreen:claim', 'w1'), true);
  assert.equal(fence.admit('offscreen:claim', 'w2'), true);
  assert.equal(fence.admit('offscreen:call-tool', 'w1'), false);
  assert.equal(fence.admit('offscreen:call-tool', 'w2'), true);
});
