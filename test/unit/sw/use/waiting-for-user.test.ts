import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WaitingForUser } from '../../../../src/sw/use/waiting-for-user.js';

test('the open-question count is kept, and every listener hears each change', () => {
  const waits = new WaitingForUser();
  const heard: number[] = [];
  waits.onChange(() => heard.push(waits.questions));
  waits.onChange(() => heard.push(-1));
  assert.equal(waits.questions, 0);
  waits.setQuestions(2);
  waits.changed();
  assert.equal(waits.questions, 2);
  assert.deepEqual(heard, [2, -1, 2, -1]);
});
