/**
 * The streaming JSON string cutter (SPEC H4, N8): long string values are cut while the body is
 * read, whatever way the server splits its chunks; everything else is kept byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringCutter, type CutBounds } from '../../../src/offscreen/string-cutter.js';
import { TEXT_BUDGET_BYTES, MEDIA_ITEM_MAX_BYTES } from '../../../src/sw/use/truncate.js';
import { RESULT_CUT_BOUNDS } from '../../../src/offscreen/string-cutter.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const SMALL: CutBounds = { longString: 40, keepText: 10, keepMedia: 16 };

/** Runs `json` through a cutter in the given chunk sizes (1 = byte by byte); returns the output text. */
function cut(json: string, bounds: CutBounds = SMALL, chunkSize = 1): { text: string; held: number } {
  const bytes = enc.encode(json);
  const cutter = new StringCutter(bounds);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) cutter.push(bytes.subarray(i, i + chunkSize), (b) => out.push(b.slice()));
  const total = new Uint8Array(out.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of out) {
    total.set(b, at);
    at += b.length;
  }
  return { text: dec.decode(total), held: cutter.maxHeldBytes };
}

/** Every chunk size from 1 to the length: a string may be split anywhere. */
function everySplit(json: string, bounds: CutBounds = SMALL): string[] {
  const outs = new Set<string>();
  for (let size = 1; size <= enc.encode(json).length; size++) outs.add(cut(json, bounds, size).text);
  return [...outs];
}

test('short values, structure and ids pass through byte for byte, however the chunks are split', () => {
  const json = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi \\"there\\" \\u00e9 é"}],"n":[1,2.5e3,true,null]}}';
  assert.deepEqual(everySplit(json), [json]);
});

test('a long text value is cut to its keep with a visible marker; the JSON stays valid at every split', () => {
  const long = 'abcdefghij'.repeat(10);
  const json = `{"id":1,"result":{"content":[{"type":"text","text":"${long}"},{"type":"text","text":"tail"}]}}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as { id: number; result: { content: { text: string }[] } };
    assert.equal(parsed.id, 1);
    const [first, second] = parsed.result.content;
    assert.ok(first!.text.startsWith('abcdefghij'));
    assert.match(first!.text, /\n\[\u2026 truncated: the server sent 100 B here; showing the first 10 B\]$/);
    assert.equal(second!.text, 'tail');
  }
});

test('a value just within the long-string bound is kept whole', () => {
  const json = `{"text":"${'x'.repeat(40)}"}`;
  assert.deepEqual(everySplit(json), [json]);
});

test('escapes split across chunks are never cut in half (\\" \\\\ \\uXXXX)', () => {
  const long = '\\"\\\\\\u00e9'.repeat(12);
  const json = `{"text":"${long}","after":"\\u0041"}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as { text: string; after: string };
    assert.ok(parsed.text.startsWith('"\\é'));
    assert.match(parsed.text, /truncated: the server sent 120 B/);
    assert.equal(parsed.after, 'A');
  }
});

test('a cut never splits a multi-byte UTF-8 character', () => {
  const long = 'é€😀'.repeat(10); // 2 + 3 + 4 bytes each
  const json = `{"text":"${long}"}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as { text: string };
    assert.ok(!parsed.text.includes('\uFFFD'), 'no replacement character');
    const kept = parsed.text.split('\n[')[0]!;
    assert.ok(long.startsWith(kept), `kept a prefix: ${kept}`);
    assert.ok(enc.encode(kept).length <= 10 + 3);
  }
});

test('a cut never leaves half of an escaped surrogate pair', () => {
  const json = `{"text":"12345678\\ud83d\\ude00${'y'.repeat(60)}"}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as { text: string };
    assert.ok(parsed.text.startsWith('12345678\u{1F600}'), parsed.text.slice(0, 12));
  }
});

test('nested objects and arrays: keys are told from values, deep values are cut too', () => {
  const long = 'z'.repeat(80);
  const json = `{"a":{"b":[["${long}"],{"text":"${long}","c":{"d":"${long}"}}]},"${long}":1}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as Record<string, unknown>;
    const text = JSON.stringify(parsed);
    assert.ok(!text.includes(long), 'every long string was cut');
    assert.equal((text.match(/truncated: the server sent 80 B/g) ?? []).length, 4);
    assert.equal(Object.keys(parsed).length, 2);
  }
});

test('base64 media data over the bound keeps a valid base64 prefix just over the media budget (dropped there visibly)', () => {
  const data = 'QUJD'.repeat(30);
  const json = `{"content":[{"type":"image","mimeType":"image/png","data":"${data}"},{"type":"resource","resource":{"uri":"u","blob":"${data}"}}]}`;
  for (const out of everySplit(json)) {
    const parsed = JSON.parse(out) as { content: [{ data: string }, { resource: { blob: string } }] };
    assert.equal(parsed.content[0].data, data.slice(0, 16));
    assert.equal(parsed.content[1].resource.blob, data.slice(0, 16));
    assert.doesNotThrow(() => atob(parsed.content[0].data));
  }
});

test('what the cutter holds stays near the long-string bound, not the value size', () => {
  const bounds: CutBounds = { longString: 1000, keepText: 100, keepMedia: 1004 };
  const { text, held } = cut(`{"text":"${'q'.repeat(200_000)}"}`, bounds, 4096);
  assert.ok(held <= 1000, `held ${held} bytes`);
  assert.ok(text.length < 300);
});

test('the real bounds keep the cut text and its marker inside the result budget, and media over the media budget', () => {
  assert.ok(RESULT_CUT_BOUNDS.keepText + 200 < TEXT_BUDGET_BYTES, 'the marker survives the text budget');
  assert.ok(RESULT_CUT_BOUNDS.keepMedia > MEDIA_ITEM_MAX_BYTES, 'a cut image is dropped by the media budget');
  assert.equal(RESULT_CUT_BOUNDS.keepMedia % 4, 0, 'a cut base64 payload stays valid base64');
});
