import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallsInFlight } from '../../../../src/sw/use/calls-in-flight.js';

test('a started call is known by its operationId until it settles, then the settle hook runs once', () => {
  const settled: Array<[string, unknown]> = [];
  const calls: CallsInFlight = new CallsInFlight((op) => settled.push([op, calls.get(op)]));
  calls.started('op_1', { serverId: 'gh', tool: 'search', arguments: { q: 'x' } });
  calls.started('op_2', { serverId: 'gh', tool: 'other', arguments: {} });
  assert.deepEqual(calls.get('op_1'), { tool: 'search', arguments: { q: 'x' } });
  calls.settled('op_1');
  assert.equal(calls.get('op_1'), undefined);
  assert.deepEqual(calls.get('op_2'), { tool: 'other', arguments: {} });
  assert.deepEqual(settled, [['op_1', undefined]], 'the hook sees the call already forgotten');
});
