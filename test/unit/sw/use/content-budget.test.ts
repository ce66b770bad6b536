import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContentBudget, type ContentLimits, type CutReport } from '../../../../src/sw/use/content-budget.js';

const small: ContentLimits = { textBytes: 10, mediaItemBytes: 8, mediaTotalBytes: 12, maxParts: 4 };

function fit(parts: unknown[], limits = small) {
  const report: CutReport = { cutBytes: 0, parts: [] };
  const budget = new ContentBudget(limits, report);
  parts.forEach((p, i) => budget.add(p, i));
  return { out: budget.parts(), report };
}

test('parts within the limits are kept as they are, in order', () => {
  const parts = [
    { type: 'text', text: 'hello' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
  ];
  const { out, report } = fit(parts);
  assert.deepEqual(out, parts);
  assert.deepEqual(report, { cutBytes: 0, parts: [] });
});

test('the text part that crosses the budget is cut with a marker; the next text part is omitted under one marker', () => {
  const { out, report } = fit([
    { type: 'text', text: '12345678' },
    { type: 'resource', resource: { uri: 'x:1', text: 'abcdef' } },
    { type: 'text', text: 'more' },
  ]);
  assert.equal(out.length, 3);
  assert.deepEqual(out[0], { type: 'text', text: '12345678' });
  assert.equal((out[1] as { resource: { text: string } }).resource.text, 'ab\n[\u2026 truncated: 4 B cut to fit the result size budget]');
  assert.equal((out[2] as { text: string }).text, '[\u2026 1 content part omitted (4 B) to fit the result size budget]');
  assert.equal(report.cutBytes, 8);
  assert.deepEqual(report.parts, [
    'content[1] resource: cut 4 B (text budget of 10 B)',
    'content[2] text: omitted 4 B (text budget of 10 B used up)',
  ]);
});

test('media is omitted whole over the per-item or the total limit, and a run of omissions is one marker in place', () => {
  const { out, report } = fit([
    { type: 'image', data: '123456789' },
    { type: 'audio', data: '1234567' },
    { type: 'image', data: '123456' },
    { type: 'text', text: 'ok' },
  ]);
  assert.deepEqual(out, [
    { type: 'text', text: '[\u2026 1 content part omitted (9 B) to fit the result size budget]' },
    { type: 'audio', data: '1234567' },
    { type: 'text', text: '[\u2026 1 content part omitted (6 B) to fit the result size budget]' },
    { type: 'text', text: 'ok' },
  ]);
  assert.match(report.parts[0]!, /over 8 B per item/);
  assert.match(report.parts[1]!, /over 12 B of media in total/);
});

test('parts past the cap are omitted, the trailing run under one marker', () => {
  const text = (t: string) => ({ type: 'text', text: t });
  const { out, report } = fit([text('a'), text('b'), text('c'), text('d')], { ...small, maxParts: 2 });
  assert.deepEqual(out, [text('a'), text('b'), text('[\u2026 2 content parts omitted (52 B) to fit the result size budget]')]);
  assert.equal(report.parts.at(-1), 'content[3] text: omitted 26 B (more than 2 parts)');
});

test('a part that is not text or media is charged its JSON to the text budget, and omitted over it', () => {
  const link = { type: 'resource_link', uri: 'u' };
  const { out, report } = fit(['x'.repeat(20), link], { ...small, textBytes: 40 });
  assert.deepEqual(out, [{ type: 'text', text: '[\u2026 1 content part omitted (49 B) to fit the result size budget]' }, link]);
  assert.deepEqual(report, { cutBytes: 49, parts: ['content[0] unknown: omitted 49 B (text budget of 40 B)'] });
});
