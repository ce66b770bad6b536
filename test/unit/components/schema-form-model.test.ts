import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FIELDS, buildFormModel, collectValues, serverValidation } from '../../../src/components/schema-form-model.js';

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
  assert.deepEqual(r.errors, [
    { path: 'text', key: 'formMinLength', subs: ['2'] },
    { path: 'count', key: 'formMaximum', subs: ['10'] },
    { path: 'color', key: 'formChoice' },
    { path: 'nums', key: 'formItemsNumber' },
    { path: 'anything', key: 'formJson' },
  ]);
  assert.deepEqual(collectValues(model, { count: '2.5', text: 'ok' }).errors, [{ path: 'count', key: 'formInteger' }]);
  assert.deepEqual(
    collectValues(model, { text: 'ok', count: '1', nested: { inner: '' } }).value,
    { text: 'ok', count: 1 },
    'a blank optional object is left out',
  );
  assert.deepEqual(collectValues(model, { text: 'ok', count: '1', nested: { other: 'x', inner: '' } }).errors, [
    { path: 'nested.inner', key: 'formRequired' },
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

/** The requested schema of `@modelcontextprotocol/server-everything`'s elicitation tool (MCP 2025-11-25 shapes). */
const everything = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthdate: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14, multipleOf: 0.01 },
    instruments: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'] },
      default: ['Guitar'],
    },
    fish: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
    },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
  },
  required: ['fish'],
};

test('arrays of enums and of anyOf const/title are multiple choices with their titles and item bounds', () => {
  const model = buildFormModel(everything)!;
  const fish = model.find((f) => f.key === 'fish')!;
  assert.deepEqual(fish, {
    kind: 'multi',
    key: 'fish',
    label: 'fish',
    required: true,
    options: [
      { value: 'fish-1', label: 'Tuna' },
      { value: 'fish-2', label: 'Salmon' },
      { value: 'fish-3', label: 'Trout' },
    ],
    minItems: 1,
    maxItems: 2,
  });
  const instruments = model.find((f) => f.key === 'instruments')!;
  assert.equal(instruments.kind, 'multi');
  assert.deepEqual(instruments.default, ['Guitar']);
  const pet = model.find((f) => f.key === 'pet')!;
  assert.ok(pet.kind === 'enum');
  assert.deepEqual(
    pet.options.map((o) => o.label),
    ['Cats', 'Dogs'],
  );
  assert.deepEqual(collectValues(model, { fish: ['fish-3', 'fish-1'] }).value, { fish: ['fish-1', 'fish-3'] }, 'in schema order');
  assert.deepEqual(collectValues(model, { fish: [] }).errors, [{ path: 'fish', key: 'formChooseAtLeast', subs: ['1'] }]);
  assert.deepEqual(collectValues(model, { fish: ['fish-1', 'fish-2', 'fish-3'] }).errors, [
    { path: 'fish', key: 'formChooseAtMost', subs: ['2'] },
  ]);
  assert.deepEqual(collectValues(model, { fish: ['shark'] }).errors, [{ path: 'fish', key: 'formChoice' }]);
});

test('string formats, patterns and number steps are checked before sending', () => {
  const model = buildFormModel(everything)!;
  const errors = collectValues(model, {
    fish: ['fish-1'],
    email: 'not-an-email',
    homepage: 'example.com',
    birthdate: '2025-13-45',
    at: 'yesterday',
    code: 'abc',
    number: '1.234',
  }).errors;
  assert.deepEqual(
    errors.map((e) => [e.path, e.key]),
    [
      ['email', 'formEmail'],
      ['homepage', 'formUri'],
      ['birthdate', 'formDate'],
      ['at', 'formDateTime'],
      ['code', 'formPattern'],
      ['number', 'formMultipleOf'],
    ],
  );
  const ok = collectValues(model, {
    fish: ['fish-2'],
    email: 'ada@example.com',
    homepage: 'https://example.com',
    birthdate: '1815-12-10',
    at: '2025-11-25T10:00:00Z',
    code: 'ABC',
    number: '0.3',
  });
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.value.number, 0.3);
  assert.equal(ok.value.at, '2025-11-25T10:00:00Z');
  assert.match(String(collectValues(model, { fish: ['fish-2'], at: '2025-11-25T10:00' }).value.at), /^2025-11-2\dT\d\d:\d\d:00\.000Z$/);
  // A pattern that does not compile checks nothing rather than blocking the form.
  const bad = buildFormModel({ type: 'object', properties: { x: { type: 'string', pattern: '(' } } })!;
  assert.deepEqual(collectValues(bad, { x: 'anything' }).errors, []);
});

test("a server's refusal is mapped to the fields it names, the rest kept as plain sentences", () => {
  const model = buildFormModel(schema)!;
  const sdk =
    'MCP error -32602: Input validation error: Invalid arguments for tool add: [\n  {\n    "expected": "number",\n    "code": "invalid_type",\n    "path": [\n      "count"\n    ],\n    "message": "Invalid input: expected number, received string"\n  },\n  {\n    "code": "custom",\n    "path": [],\n    "message": "Too many calls"\n  }\n]';
  assert.deepEqual(serverValidation(sdk, model), {
    fields: [{ path: 'count', text: 'Invalid input: expected number, received string' }],
    general: ['Too many calls'],
  });
  assert.deepEqual(serverValidation('Invalid params: "nested.inner" must not be empty', model), {
    fields: [{ path: 'nested.inner', text: 'Invalid params: "nested.inner" must not be empty' }],
    general: [],
  });
  assert.deepEqual(serverValidation('MCP error -32602: the request was malformed', model), {
    fields: [],
    general: ['the request was malformed'],
  });
  assert.equal(serverValidation('Network unreachable', model), undefined);
});
