import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FIELDS, buildFormModel, collectValues } from '../../../src/components/schema-form-model.js';

/** Path and English message only; the wording is checked in test/unit/i18n/wording.test.ts. */
const plain = (errors: { path: string; message: string }[]) => errors.map(({ path, message }) => ({ path, message }));

const schema = {
  type: 'object',
  properties: {
    text: { type: 'string', title: 'Text', description: 'What to say', minLength: 2 },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string' } },
    nums: { type: 'array', items: { type: 'number' } },
    nested: { type: 'object', properties: { inner: { type: 'string' } }, required: ['inner'] },
    anything: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    people: { type: 'array', items: { type: 'object' } },
    maybe: { type: ['string', 'null'] },
  },
  required: ['text', 'count'],
};

test('each supported type becomes its field kind; everything else falls back to raw JSON', () => {
  const model = buildFormModel(schema)!;
  assert.deepEqual(
    model.map((f) => [f.key, f.kind]),
    [
      ['text', 'string'],
      ['count', 'integer'],
      ['ratio', 'number'],
      ['loud', 'boolean'],
      ['color', 'enum'],
      ['size', 'enum'],
      ['tags', 'array'],
      ['nums', 'array'],
      ['nested', 'object'],
      ['anything', 'json'],
      ['people', 'json'],
      ['maybe', 'string'],
    ],
  );
  const text = model[0]!;
  assert.deepEqual(text, { kind: 'string', key: 'text', label: 'Text', description: 'What to say', required: true, minLength: 2 });
  assert.deepEqual(model[1], { kind: 'integer', key: 'count', label: 'count', required: true, default: 3, minimum: 1, maximum: 10 });
  const size = model[5]!;
  assert.ok(size.kind === 'enum');
  assert.deepEqual(size.options, [
    { value: 's', label: 'Small' },
    { value: 'l', label: 'Large' },
  ]);
  const nested = model[8]!;
  assert.ok(nested.kind === 'object');
  assert.deepEqual(nested.fields, [{ kind: 'string', key: 'inner', label: 'inner', required: true }]);
});

test('a schema that is not an object with properties has no form', () => {
  assert.equal(buildFormModel({ type: 'string' }), null);
  assert.equal(buildFormModel(null), null);
  assert.deepEqual(buildFormModel({ type: 'object' }), []);
});

test('values are converted and checked, empty optional fields are left out', () => {
  const model = buildFormModel(schema)!;
  const ok = collectValues(model, {
    text: 'hi',
    count: '4',
    ratio: '',
    loud: true,
    color: 'green',
    size: 'l',
    tags: 'a\nb\n',
    nums: '1\n2.5',
    nested: { inner: 'x' },
    anything: '42',
  });
  assert.deepEqual(ok.errors, []);
  assert.deepEqual(ok.value, {
    text: 'hi',
    count: 4,
    loud: true,
    color: 'green',
    size: 'l',
    tags: ['a', 'b'],
    nums: [1, 2.5],
    nested: { inner: 'x' },
    anything: 42,
  });
});

test('invalid input gives one plain error per field, with its path', () => {
  const model = buildFormModel(schema)!;
  const r = collectValues(model, { text: 'h', count: '11', color: 'blue', nums: 'x', nested: { inner: '' }, anything: '{' });
  assert.deepEqual(plain(r.errors), [
    { path: 'text', message: 'must be at least 2 characters' },
    { path: 'count', message: 'must be at most 10' },
    { path: 'color', message: 'must be one of the choices' },
    { path: 'nums', message: 'items must be numbers' },
    { path: 'anything', message: 'is not valid JSON' },
  ]);
  assert.deepEqual(plain(collectValues(model, { count: '2.5', text: 'ok' }).errors), [
    { path: 'count', message: 'must be a whole number' },
  ]);
  assert.deepEqual(
    collectValues(model, { text: 'ok', count: '1', nested: { inner: '' } }).value,
    { text: 'ok', count: 1 },
    'a blank optional object is left out',
  );
  assert.deepEqual(plain(collectValues(model, { text: 'ok', count: '1', nested: { other: 'x', inner: '' } }).errors), [
    { path: 'nested.inner', message: 'is required' },
  ]);
});

test('a hostile schema is bounded in depth and field count', () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 50; i++) deep = { type: 'object', properties: { d: deep } };
  let node = buildFormModel(deep)![0]!;
  let depth = 1;
  while (node.kind === 'object') {
    node = node.fields[0]!;
    depth++;
  }
  assert.equal(node.kind, 'json');
  assert.ok(depth <= 6);
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, { type: 'string' }])) };
  assert.equal(buildFormModel(wide)!.length, MAX_FIELDS);
});
