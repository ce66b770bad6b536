import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_CONTENT_PARTS,
  MEDIA_ITEM_MAX_BYTES,
  MEDIA_TOTAL_MAX_BYTES,
  STRUCTURED_MAX_BYTES,
  TEXT_BUDGET_BYTES,
  truncateToolResult,
} from '../../../../src/sw/use/truncate.js';
import { truncateUtf8, utf8Length } from '../../../../src/sw/use/utf8.js';

type Part = { type: string; text?: string; data?: string; [k: string]: unknown };
const texts = (content: unknown) => (content as Part[]).filter((p) => p.type === 'text').map((p) => p.text ?? '');
const totalTextBytes = (content: unknown) => texts(content).reduce((n, t) => n + utf8Length(t), 0);

test('utf8Length and truncateUtf8 agree with TextEncoder and never split a character', () => {
  for (const s of ['abc', 'é', '中文', '😀x', 'a😀😀b']) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length);
  }
  const cut = truncateUtf8('ab😀cd', 4);
  assert.deepEqual(cut, { text: 'ab', cutBytes: 6 });
  assert.deepEqual(truncateUtf8('short', 100), { text: 'short', cutBytes: 0 });
});

test('a small result is returned unchanged with truncated null', () => {
  const input = { content: [{ type: 'text', text: 'hello' }], structuredContent: { a: 1 }, isError: false };
  const { result, truncated } = truncateToolResult(input);
  assert.deepEqual(result, input);
  assert.equal(truncated, null);
});

test('text over the budget is cut with a visible marker and the cut size reported', () => {
  const big = 'x'.repeat(TEXT_BUDGET_BYTES + 5000);
  const { result, truncated } = truncateToolResult({ content: [{ type: 'text', text: big }] });
  const [text] = texts(result.content);
  assert.ok(text!.startsWith('x'.repeat(1000)));
  assert.match(text!, /\[… truncated: 4\.9 KiB cut to fit the result size budget\]$/);
  assert.equal(truncated?.cutBytes, 5000);
  assert.match(truncated.parts[0]!, /^content\[0\] text: cut/);
});

test('the text budget is shared: later parts are omitted and replaced by one marker', () => {
  const half = 'y'.repeat(TEXT_BUDGET_BYTES / 2);
  const content = [
    { type: 'text', text: half },
    { type: 'text', text: half },
    { type: 'text', text: 'z'.repeat(100) },
    { type: 'text', text: 'w'.repeat(100) },
  ];
  const { result, truncated } = truncateToolResult({ content });
  const out = result.content as Part[];
  assert.equal(out.length, 3);
  assert.match(out[2]!.text!, /2 content parts omitted \(200 B\)/);
  assert.equal(truncated?.cutBytes, 200);
  assert.equal(truncated?.parts.length, 2);
  assert.ok(totalTextBytes(out.slice(0, 2)) <= TEXT_BUDGET_BYTES);
});

test('an oversized image is omitted whole; a small one is kept', () => {
  const content = [
    { type: 'image', mimeType: 'image/png', data: 'A'.repeat(MEDIA_ITEM_MAX_BYTES + 1) },
    { type: 'image', mimeType: 'image/png', data: 'QUJD' },
  ];
  const { result, truncated } = truncateToolResult({ content });
  const out = result.content as Part[];
  assert.equal(out[0]!.type, 'text');
  assert.match(out[0]!.text!, /1 content part omitted/);
  assert.deepEqual(out[1], content[1]);
  assert.match(truncated!.parts[0]!, /content\[0\] image: omitted .* per item/);
});

test('media is also bounded in total', () => {
  const n = MEDIA_TOTAL_MAX_BYTES / MEDIA_ITEM_MAX_BYTES + 2;
  const content = Array.from({ length: n }, () => ({ type: 'audio', mimeType: 'audio/wav', data: 'A'.repeat(MEDIA_ITEM_MAX_BYTES) }));
  const { result, truncated } = truncateToolResult({ content });
  const kept = (result.content as Part[]).filter((p) => p.type === 'audio');
  assert.equal(kept.length, MEDIA_TOTAL_MAX_BYTES / MEDIA_ITEM_MAX_BYTES);
  assert.equal(truncated?.cutBytes, 2 * MEDIA_ITEM_MAX_BYTES);
});

test('text and blob resources follow the text and media budgets', () => {
  const content = [
    { type: 'resource', resource: { uri: 'file:///a', text: 'r'.repeat(TEXT_BUDGET_BYTES + 10) } },
    { type: 'resource', resource: { uri: 'file:///b', blob: 'B'.repeat(MEDIA_ITEM_MAX_BYTES + 10) } },
  ];
  const { result, truncated } = truncateToolResult({ content });
  const out = result.content as Array<{ type: string; resource?: { uri: string; text?: string }; text?: string }>;
  assert.equal(out[0]!.resource!.uri, 'file:///a');
  assert.match(out[0]!.resource!.text!, /truncated: 10 B cut/);
  assert.equal(out[1]!.type, 'text');
  assert.equal(truncated!.parts.length, 2);
});

test('oversized structuredContent is removed whole with a marker part', () => {
  const structuredContent = { rows: Array.from({ length: 20_000 }, (_, i) => ({ i, v: 'value' })) };
  const input = { content: [{ type: 'text', text: 'summary' }], structuredContent, isError: false, _meta: { k: 1 } };
  const { result, truncated } = truncateToolResult(input);
  assert.equal('structuredContent' in result, false);
  assert.equal(result.isError, false);
  assert.deepEqual(result._meta, { k: 1 });
  const out = texts(result.content);
  assert.equal(out[0], 'summary');
  assert.match(out[1]!, /structured result omitted/);
  assert.ok(truncated!.cutBytes > STRUCTURED_MAX_BYTES);
  assert.match(truncated!.parts[0]!, /^structuredContent: omitted/);
  assert.ok(input.structuredContent === structuredContent && input.content.length === 1, 'input untouched');
});

test('the number of content parts is bounded', () => {
  const content = Array.from({ length: MAX_CONTENT_PARTS + 50 }, () => ({ type: 'text', text: '' }));
  const { result } = truncateToolResult({ content });
  const out = result.content as Part[];
  assert.equal(out.length, MAX_CONTENT_PARTS + 1);
  assert.match(out.at(-1)!.text!, /50 content parts omitted/);
});

test('resource links and unknown parts count against the text budget', () => {
  const content = [
    { type: 'text', text: 'q'.repeat(TEXT_BUDGET_BYTES - 10) },
    { type: 'resource_link', uri: 'https://example.com/x', name: 'x' },
  ];
  const { result, truncated } = truncateToolResult({ content });
  assert.equal((result.content as Part[])[1]!.type, 'text');
  assert.match(truncated!.parts[0]!, /resource_link: omitted/);
});
