import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelRecords } from '../../../src/offscreen/cancel-records.js';

test('a cancel that arrives before the call wins: admit returns false', () => {
  const records = new CancelRecords();
  assert.equal(records.cancel('op1'), 'recorded');
  assert.equal(records.admit('op1'), false);
});

test('a cancel after admission aborts the call signal', () => {
  const records = new CancelRecords();
  assert.equal(records.admit('op1'), true);
  const signal = records.signalOf('op1')!;
  assert.equal(signal.aborted, false);
  assert.equal(records.cancel('op1', 'stop'), 'aborted');
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason, 'stop');
  assert.equal(records.cancel('op1'), 'no-op');
});

test('a call is never admitted twice, while running or after it finished', () => {
  const records = new CancelRecords();
  assert.equal(records.admit('op1'), true);
  assert.equal(records.admit('op1'), false);
  records.settle('op1');
  assert.equal(records.admit('op1'), false);
  assert.equal(records.cancel('op1'), 'no-op');
});

test('records expire after their time to live', () => {
  let now = 0;
  const records = new CancelRecords({ ttlMs: 1000, now: () => now });
  records.cancel('early');
  now = 999;
  assert.equal(records.admit('early'), false);
  records.cancel('late');
  now = 1500;
  assert.equal(records.recordCount, 2);
  assert.equal(records.admit('fresh'), true);
  assert.equal(records.recordCount, 1, 'the expired record was pruned');
  now = 2500;
  assert.equal(records.admit('late'), true);
});

test('the number of records is bounded, oldest first out', () => {
  const records = new CancelRecords({ maxRecords: 3 });
  for (const id of ['a', 'b', 'c', 'd', 'e']) records.cancel(id);
  assert.equal(records.recordCount, 3);
  assert.equal(records.admit('a'), true);
  assert.equal(records.admit('c'), false);
  assert.equal(records.admit('e'), false);
});

test('live calls are not evicted by a flood of cancels for unknown ids', () => {
  const records = new CancelRecords({ maxRecords: 2 });
  records.admit('live');
  for (let i = 0; i < 100; i++) records.cancel(`ghost${i}`);
  assert.equal(records.signalOf('live')?.aborted, false);
  assert.equal(records.cancel('live'), 'aborted');
});

test('closing the connection aborts running calls', () => {
  const records = new CancelRecords();
  records.admit('op1');
  const signal = records.signalOf('op1')!;
  records.close();
  assert.equal(signal.aborted, true);
  assert.equal(records.signalOf('op1'), undefined);
});
