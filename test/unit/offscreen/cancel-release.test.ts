/**
 * A tool call the server refused with 401 never ran, so the offscreen side releases its id
 * instead of remembering it as finished: the worker's one resend with a refreshed token (same
 * operationId, so Abort and progress still name it) is admitted (SPEC E9, H3). A cancel that
 * landed meanwhile still wins over that resend (H2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelRecords } from '../../../src/offscreen/cancel-records.js';

test('a released call can be admitted again under the same id', () => {
  const r = new CancelRecords();
  assert.equal(r.admit('op'), true);
  r.release('op');
  assert.equal(r.admit('op'), true, 'the resend after a 401 is admitted');
  r.settle('op');
  assert.equal(r.admit('op'), false, 'a call that ran is never admitted twice');
});

test('a cancel during the refused attempt still refuses the resend', () => {
  const r = new CancelRecords();
  r.admit('op');
  assert.equal(r.cancel('op'), 'aborted');
  r.release('op');
  assert.equal(r.admit('op'), false);
});

test('releasing an unknown id changes nothing', () => {
  const r = new CancelRecords();
  r.release('nope');
  assert.equal(r.recordCount, 0);
  assert.equal(r.admit('nope'), true);
});
