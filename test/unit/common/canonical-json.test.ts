import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../../src/common/canonical-json.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

test('keys are sorted at every level, arrays keep their order', () => {
  assert.equal(canonicalJson({ b: [2, 1], a: { d: 1, c: [{ z: 1, y: 2 }] } }), '{"a":{"c":[{"y":2,"z":1}],"d":1},"b":[2,1]}');
});

test('what JSON leaves out is left out: undefined, functions and symbols; non-finite numbers are null', () => {
  assert.equal(canonicalJson({ a: undefined, b: () => 1, c: Symbol('s'), d: NaN, e: Infinity }), '{"d":null,"e":null}');
  assert.equal(canonicalJson([undefined, NaN]), '[null,null]');
  assert.equal(canonicalJson(undefined), 'null');
  assert.throws(() => canonicalJson({ n: 1n }), TypeError);
});

test('the text equals JSON.stringify of the key-sorted value', () => {
  const value = { z: 'x"y', a: [1, true, null, { k: 'é\n' }] };
  assert.equal(canonicalJson(value), JSON.stringify({ a: [1, true, null, { k: 'é\n' }], z: 'x"y' }));
});

test('nesting beyond 64 levels throws by default; a caller may lift the limit', () => {
  assert.doesNotThrow(() => canonicalJson(nested(64)));
  assert.throws(() => canonicalJson(nested(65)), RangeError);
  assert.throws(() => canonicalJson(nested(5), 4), RangeError);
  assert.equal(canonicalJson(nested(200), Infinity), `${'{"a":'.repeat(200)}"leaf"${'}'.repeat(200)}`);
});
