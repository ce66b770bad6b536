/**
 * SPEC R2: `x-mcp-header` mirroring as the 2026-07-28 Streamable HTTP transport defines it — the
 * specification's own encoding examples, the validity rules, and hostile values (N).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeHeaderValue, headerDeclarations, paramHeaders } from '../../../src/offscreen/param-headers.js';

test('R2: the specification’s encoding examples', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
  assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
  assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
});

test('R2: values are taken at their exact property path, typed, and omitted when absent', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      limit: { type: 'integer', 'x-mcp-header': 'Limit' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      nested: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
      query: { type: 'string' },
    },
  };
  assert.deepEqual(paramHeaders(schema, { region: 'eu', limit: 5, dry: false, nested: { tenant: 'acme' }, query: 'x' }), {
    'Mcp-Param-Region': 'eu',
    'Mcp-Param-Limit': '5',
    'Mcp-Param-Dry-Run': 'false',
    'Mcp-Param-Tenant': 'acme',
  });
  assert.deepEqual(paramHeaders(schema, { query: 'x' }), {});
  // N: a value of the wrong kind (an object, an unsafe integer) is omitted, never sent malformed.
  assert.deepEqual(paramHeaders(schema, { region: { toString: 'x' }, limit: 2 ** 60 }), {});
});

test('R2 (N): annotations that break a rule make the tool invalid (no headers, the client lists it not)', () => {
  const bad = [
    { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
    { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Bad Name' } } },
    { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': '' } } },
    { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } } },
    { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Line\r\nInjected: 1' } } },
  ];
  for (const schema of bad) assert.equal(headerDeclarations(schema), undefined, JSON.stringify(schema));
  // Under items (not statically reachable): not a declaration of ours; the client rejects the tool.
  assert.deepEqual(
    headerDeclarations({ type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } } }),
    [],
  );
});
