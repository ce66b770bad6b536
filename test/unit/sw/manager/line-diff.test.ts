/** The pinned-definition diff (SPEC S2): changed lines with context, folds, and bounds for hostile input (N). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineDiff, MAX_DIFF_LINES, MAX_DIFF_LINE_LENGTH } from '../../../../src/sw/manager/line-diff.js';

test('S2: only changed lines and one line of context are shown; the rest folds into counts', () => {
  const old = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n');
  const next = ['a', 'b', 'c', 'D', 'e', 'f', 'g'].join('\n');
  assert.deepEqual(lineDiff(old, next), [
    { op: '…', text: '2' },
    { op: '=', text: 'c' },
    { op: '-', text: 'd' },
    { op: '+', text: 'D' },
    { op: '=', text: 'e' },
    { op: '…', text: '2' },
  ]);
  assert.deepEqual(lineDiff('same', 'same'), [{ op: '…', text: '1' }]);
  assert.deepEqual(lineDiff('', 'new'), [
    { op: '-', text: '' },
    { op: '+', text: 'new' },
  ]);
});

test('S2 (N): huge texts give a bounded diff: lines shown, line length, and lines compared', () => {
  const old = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
  const next = Array.from({ length: 5000 }, (_, i) => (i % 2 ? `changed ${i} ${'w'.repeat(5000)}` : `line ${i}`)).join('\n');
  const started = Date.now();
  const diff = lineDiff(old, next);
  assert.ok(Date.now() - started < 2000, 'quick');
  assert.ok(diff.length <= MAX_DIFF_LINES);
  assert.ok(diff.every((l) => l.text.length <= MAX_DIFF_LINE_LENGTH));
  assert.equal(diff.at(-1)!.op, '…');
});
