import { test } from 'node:test';
import assert from 'node:assert/strict';
import { droppedResponseLogger } from '../../../src/offscreen/dropped-log.js';
import type { RequestLogEntry } from '../../../src/storage/request-log.js';

test('N6/J2: dropped responses reach the request log with their id and count; a flood is thinned', () => {
  const logged: [string, RequestLogEntry][] = [];
  const log = droppedResponseLogger('srv', async (id, entry) => void logged.push([id, entry]));
  log({ kind: 'unmatched', id: '"1"', count: 1 });
  assert.equal(logged[0]![0], 'srv');
  assert.equal(logged[0]![1].method, 'jsonrpc:dropped-response');
  assert.match(logged[0]![1].error ?? '', /id "1": no request with exactly this id \(type and value\) is waiting\. 1 dropped/);
  for (let count = 2; count <= 1000; count++) log({ kind: 'duplicate', id: '7', count });
  assert.equal(logged.length, 10 + 10, 'the first ten, then every hundredth');
});
