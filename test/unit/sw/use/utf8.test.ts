import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, jsonBytes, truncateUtf8, utf8Length } from '../../../../src/sw/use/utf8.js';

test('utf8Length counts a lone surrogate as U+FFFD (3 bytes), as TextEncoder writes it', () => {
  assert.equal(utf8Length('\ud800'), 3);
  assert.equal(utf8Length('a\udc00b'), new TextEncoder().encode('a\udc00b').length);
});

test('truncateUtf8 to zero bytes leaves nothing and reports every byte cut', () => {
  assert.deepEqual(truncateUtf8('中文', 0), { text: '', cutBytes: 6 });
  assert.deepEqual(truncateUtf8('中文', 4), { text: '中', cutBytes: 3 });
});

test('formatBytes says B below 1 KiB, then KiB and MiB with one decimal', () => {
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(3 * 1024 * 1024), '3.0 MiB');
});

test('jsonBytes measures the JSON text; what is not JSON counts as too large', () => {
  assert.equal(jsonBytes({ a: 'é' }), utf8Length('{"a":"é"}'));
  assert.equal(jsonBytes(undefined), 0);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(jsonBytes(cyclic), Number.MAX_SAFE_INTEGER);
  assert.equal(jsonBytes(10n), Number.MAX_SAFE_INTEGER);
});
