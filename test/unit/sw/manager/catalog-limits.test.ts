import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESCRIPTION_TRUNCATED_MARKER,
  MAX_DESCRIPTION_LENGTH,
  MAX_SCHEMA_BYTES,
  MAX_TOOLS,
  PLACEHOLDER_SCHEMA,
  runsOnlyAsTask,
  sanitizeTools,
  wireNameOf,
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
  const raw = [tool(''), tool('has space'), tool('slash/name'), tool('ünï'), tool(42), 'not-an-object', tool('ok'), tool('y'.repeat(128))];
  const { tools, warnings } = sanitizeTools(raw);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['ok', 'y'.repeat(128)],
  );
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /Left out 6 tool\(s\) with invalid names/);
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

test('tools that can only run as tasks are offered like the others, and runsOnlyAsTask tells them apart', () => {
  const { tools, warnings } = sanitizeTools([
    tool('plain'),
    tool('batch', { execution: { taskSupport: 'required' } }),
    tool('either', { execution: { taskSupport: 'optional' } }),
  ]);
  assert.deepEqual(
    tools.map((t) => [t.name, runsOnlyAsTask(t)]),
    [
      ['plain', false],
      ['batch', true],
      ['either', false],
    ],
  );
  assert.deepEqual(warnings, []);
});

test('N8: a tool name over 128 characters is offered under a bounded alias that keeps the original for the wire', () => {
  const long = `search_${'a'.repeat(200)}`;
  const { tools, warnings } = sanitizeTools([tool(long), tool('ok')]);
  const aliased = tools[0]!;
  assert.ok(aliased.name.length <= 128, `alias of ${aliased.name.length} characters`);
  assert.match(aliased.name, /^[A-Za-z0-9_.-]+$/);
  assert.ok(aliased.name.startsWith('search_aaa'), 'the alias starts like the name it stands for');
  assert.notEqual(aliased.name, long.slice(0, 128));
  assert.equal(wireNameOf(aliased), long);
  assert.equal(wireNameOf(tools[1]!), 'ok');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /Offered 1 tool\(s\) whose names are over 128 characters under a shorter name/);
  assert.ok(warnings[0]!.message.includes(`"${aliased.name}" for "${long.slice(0, 64)}`), warnings[0]!.message);
});

test('N8: aliases are stable across listings (and worker restarts: a pure function of the names) and unique among the tools', () => {
  const a = `x${'y'.repeat(150)}a`;
  const b = `x${'y'.repeat(150)}b`;
  const first = sanitizeTools([tool(a), tool(b)]).tools.map((t) => t.name);
  const again = sanitizeTools([tool('other'), tool(b), tool(a)]).tools.map((t) => t.name);
  assert.notEqual(first[0], first[1], 'two long names sharing a prefix get different aliases');
  assert.deepEqual([again[2], again[1]], first, 'the same names give the same aliases whatever else is listed');
  // A tool that is literally named like the alias keeps its name; the long one gets another alias.
  const squatter = sanitizeTools([tool(first[0]!), tool(a)]).tools;
  assert.equal(squatter[0]!.name, first[0]);
  assert.notEqual(squatter[1]!.name, first[0]);
  assert.ok(squatter[1]!.name.length <= 128);
  assert.equal(wireNameOf(squatter[1]!), a);
});

test('N8: a long name with characters outside the tool-name set, or absurdly long, is still left out as invalid', () => {
  const { tools, warnings } = sanitizeTools([tool(`bad name ${'z'.repeat(200)}`), tool('q'.repeat(100_000))]);
  assert.deepEqual(tools, []);
  assert.match(warnings[0]!.message, /Left out 2 tool\(s\) with invalid names/);
});
