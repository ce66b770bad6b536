import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlsToSpaces, flattenToOneLine, hasValueControlChar } from '../../../src/common/control-chars.js';

test('a header value may carry a tab but no other C0 control and no DEL', () => {
  assert.equal(hasValueControlChar('Bearer abc\tdef'), false);
  assert.equal(hasValueControlChar('plain value é 漢'), false);
  for (const c of ['\u0000', '\u0008', '\n', '\r', '\u001f', '\u007f'])
    assert.equal(hasValueControlChar(`a${c}b`), true, JSON.stringify(c));
  assert.equal(hasValueControlChar('a\u0085b'), false, 'C1 controls are not refused in a value (as before)');
  assert.equal(hasValueControlChar('a\u2028b'), false);
});

test('a name gets a space for each C0 control (tab included) and DEL, nothing else changes', () => {
  assert.equal(controlsToSpaces('a\tb\nc\r\nd\u007fe'), 'a b c  d e');
  assert.equal(controlsToSpaces('a\u0085b\u2028c'), 'a\u0085b\u2028c');
  // The regex is global and stateless between calls.
  assert.equal(controlsToSpaces('x\ny'), 'x y');
  assert.equal(controlsToSpaces('x\ny'), 'x y');
});

test('a label is flattened to one line: runs of C0, DEL, C1 and U+2028/2029 become one space', () => {
  assert.equal(flattenToOneLine('a\r\n\tb'), 'a b');
  assert.equal(flattenToOneLine('a\u0085b\u2028c\u2029d\u009fe\u007ff'), 'a b c d e f');
  assert.equal(flattenToOneLine('no controls: é 漢'), 'no controls: é 漢');
});
