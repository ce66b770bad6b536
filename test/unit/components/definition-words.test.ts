/** A definition change in words (SPEC S2): which message says what happened to each hint, and diff lines as text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLineText, hintChangeKeys } from '../../../src/components/definition-words.js';
import { en } from '../../../src/i18n/en.js';
import { zh_CN } from '../../../src/i18n/zh_CN.js';

test('S2: a dropped destructiveHint reads "no longer marked destructive"; a new one "now marked …"; others from → to', () => {
  const words = hintChangeKeys([
    { hint: 'destructiveHint', from: true },
    { hint: 'readOnlyHint', to: true },
    { hint: 'idempotentHint', from: false, to: undefined },
  ]);
  assert.deepEqual(words, [
    { key: 'pinHintNoLongerDestructive', subs: [] },
    { key: 'pinHintNowReadOnly', subs: [] },
    { key: 'pinHintValue', subs: ['pinHintIdempotent', 'pinHintNo', 'pinHintUnset'] },
  ]);
  assert.equal(en.pinHintNoLongerDestructive.message, 'no longer marked destructive');
  assert.equal(zh_CN.pinHintNoLongerDestructive.message, '不再标记为破坏性');
});

test('S2: diff lines are text with a sign; a fold says how many lines it hides', () => {
  assert.equal(diffLineText({ op: '-', text: '<b>old</b>' }), '− <b>old</b>');
  assert.equal(diffLineText({ op: '+', text: 'new' }), '+ new');
  assert.equal(diffLineText({ op: '=', text: 'same' }), '  same');
  assert.equal(
    diffLineText({ op: '…', text: '7' }, (n) => `${n} more`),
    '7 more',
  );
});
