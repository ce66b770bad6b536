/** The data of Server-Sent Events held as text (probe answers, rewritten events). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sseDataOf, sseEventData } from '../../../src/common/sse-text.js';

test('an event’s data lines are joined, one space after the colon dropped; events without data give nothing', () => {
  assert.equal(sseEventData('event: message\ndata: {"a":\ndata:1}'), '{"a":\n1}');
  assert.equal(sseEventData('data:  two spaces'), ' two spaces');
  assert.equal(sseEventData(': keep-alive'), undefined);
  assert.deepEqual(sseDataOf('data: 1\r\n\r\n: ping\n\nid: 7\ndata: 2\n\n'), ['1', '2']);
});
