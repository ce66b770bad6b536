import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESCRIPTION_TRUNCATED_MARKER,
  MAX_DESCRIPTION_LENGTH,
  MAX_SCHEMA_BYTES,
  MAX_TOOLS,
  PLACEHOLDER_SCHEMA,
  sanitizeTools,
} from '../../../../src/sw/manager/catalog-limits.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
const tool = (name: unknown, extra: Record<string, unknown> = {}) => ({ name, inputSchema: schema, ...extra });

test('a well-formed catalog passes through untouched with no warnings', () => {
  const raw = [tool('search', { description: 'Find', annotations: { readOnlyHint: true } }), tool('a.b-c_D9')];
  const { tools, warnings } = sanitizeTools(raw);
  assert.deepEqual(tools, raw);
  assert.deepEqual(warnings, []);
});

test('tools over the count limit are refused with a visible count', () => {
  const raw = Array.from({ length: MAX_TOOLS + 7 }, (_, i) => tool(`t${i}`));
  const { tools, warnings } = sanitizeTools(raw);
  assert.equal(tools.length, MAX_TOOLS);
  assert.equal(tools.at(-1)?.name, `t${MAX_TOOLS - 1}`);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /Refused 7 tools/);
});

test('invalid names are dropped and reported', () => {
  const raw = [
    tool(''),
    tool('has space'),
    tool('x'.repeat(129)),
    tool('slash/name'),
    tool('ünï'),
    tool(42),
    'not-an-object',
    tool('ok'),
    tool('y'.repeat(128)),
  ];
  const { tools, warnings } = sanitizeTools(raw);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['ok', 'y'.repeat(128)],
  );
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /Left out 7 tool\(s\) with invalid names/);
  assert.match(warnings[0]!.message, /"has space"/);
});

test('warnings list at most ten names and count the rest', () => {
  const raw = Array.from({ length: 15 }, (_, i) => tool(`bad name ${i}`));
  const [warning] = sanitizeTools(raw).warnings;
  assert.match(warning!.message, /\(\+5\)\.$/);
});

test('duplicates are dropped, keeping the first, and reported', () => {
  const raw = [tool('dup', { description: 'first' }), tool('dup', { description: 'second' }), tool('other')];
  const { tools, warnings } = sanitizeTools(raw);
  assert.deepEqual(
    tools.map((t) => [t.name, t.description]),
    [
      ['dup', 'first'],
      ['other', undefined],
    ],
  );
  assert.match(warnings.map((w) => w.message).join('\n'), /Left out 1 tool\(s\) whose name another tool already has: "dup"/);
});

test('long descriptions are truncated to the limit with a marker', () => {
  const { tools, warnings } = sanitizeTools([tool('t', { description: 'd'.repeat(10_000) })]);
  const description = tools[0]!.description!;
  assert.equal(description.length, MAX_DESCRIPTION_LENGTH);
  assert.ok(description.endsWith(DESCRIPTION_TRUNCATED_MARKER));
  assert.equal(tools[0]!.descriptionTruncated, true);
  assert.match(warnings.map((w) => w.message).join('\n'), /Truncated the descriptions of 1 tools/);
});

test('truncation never splits a surrogate pair', () => {
  const cut = MAX_DESCRIPTION_LENGTH - DESCRIPTION_TRUNCATED_MARKER.length;
  const text = 'a'.repeat(cut - 1) + '😀'.repeat(3000);
  const description = sanitizeTools([tool('t', { description: text })]).tools[0]!.description!;
  assert.ok(description.length <= MAX_DESCRIPTION_LENGTH);
  assert.doesNotMatch(description, /[\ud800-\udbff](?![\udc00-\udfff])/);
});

test('a non-string description is removed rather than passed on', () => {
  const { tools } = sanitizeTools([tool('t', { description: { evil: true } })]);
  assert.equal('description' in tools[0]!, false);
});

test('an oversized input schema is replaced by a flagged placeholder, the tool kept', () => {
  const big = { type: 'object', description: 'x'.repeat(MAX_SCHEMA_BYTES) };
  const { tools, warnings } = sanitizeTools([tool('big', { inputSchema: big }), tool('small')]);
  assert.equal(tools.length, 2);
  assert.deepEqual(tools[0]!.inputSchema, PLACEHOLDER_SCHEMA);
  assert.equal(tools[0]!.schemaTooLarge, true);
  assert.equal(tools[1]!.schemaTooLarge, undefined);
  assert.match(warnings.map((w) => w.message).join('\n'), /Replaced the input schemas of 1 tools larger than 64 KiB/);
});

test('schema size counts UTF-8 bytes, not characters', () => {
  const chars = Math.ceil(MAX_SCHEMA_BYTES / 3) + 10;
  const { tools } = sanitizeTools([tool('cjk', { inputSchema: { description: '中'.repeat(chars) } })]);
  assert.equal(tools[0]!.schemaTooLarge, true);
});

test('the input list is not modified', () => {
  const raw = [tool('t', { description: 'd'.repeat(5000) })];
  const copy = structuredClone(raw);
  sanitizeTools(raw);
  assert.deepEqual(raw, copy);
});

test('tools that can only run as tasks are left out with the reason; optional task support is kept', () => {
  const { tools, warnings } = sanitizeTools([
    tool('plain'),
    tool('batch', { execution: { taskSupport: 'required' } }),
    tool('either', { execution: { taskSupport: 'optional' } }),
  ]);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['plain', 'either'],
  );
  assert.deepEqual(
    warnings.map((w) => w.message),
    ['Left out 1 tool(s) that can only run as a task (taskSupport "required"), which this extension cannot call yet: "batch".'],
  );
});
