import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedMap } from '../../../src/common/bounded-map.js';

test('beyond its limit the oldest entry is dropped, the newest kept', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2).set('c', 3);
  assert.deepEqual(
    [...map],
    [
      ['b', 2],
      ['c', 3],
    ],
  );
});

test('setting a key again updates it in place: it stays as old as it was, and nothing is dropped', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2).set('a', 10);
  assert.deepEqual(
    [...map],
    [
      ['a', 10],
      ['b', 2],
    ],
  );
  map.set('c', 3);
  assert.deepEqual([...map.keys()], ['b', 'c']);
});

test('a deleted entry frees its place', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1).set('b', 2);
  map.delete('a');
  map.set('c', 3);
  assert.deepEqual([...map.keys()], ['b', 'c']);
});
