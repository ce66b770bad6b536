import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textThrottle, type Clock } from '../../../../src/sw/chat/text-throttle.js';

/** A clock whose time moves only when the test says, with its timers run in order. */
function fakeClock() {
  let now = 1000;
  const timers: Array<{ at: number; run: () => void }> = [];
  const clock: Clock = {
    now: () => now,
    setTimeout: (run, ms) => timers.push({ at: now + ms, run }),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.run();
    }
  };
  return { clock, advance, timers };
}

test('the first text goes at once; the ones within the interval collapse into the latest, sent at its end', () => {
  const { clock, advance, timers } = fakeClock();
  const sent: string[] = [];
  const throttled = textThrottle(clock, 40);
  throttled(() => sent.push('a'));
  assert.deepEqual(sent, ['a']);
  advance(10);
  throttled(() => sent.push('ab'));
  throttled(() => sent.push('abc'));
  assert.deepEqual(sent, ['a'], 'nothing more inside the interval');
  assert.equal(timers.length, 1, 'one timer for the whole interval');
  advance(29);
  assert.deepEqual(sent, ['a']);
  advance(1);
  assert.deepEqual(sent, ['a', 'abc']);
});

test('after a quiet interval the next text goes at once again', () => {
  const { clock, advance, timers } = fakeClock();
  const sent: string[] = [];
  const throttled = textThrottle(clock, 40);
  throttled(() => sent.push('1'));
  advance(100);
  throttled(() => sent.push('2'));
  assert.deepEqual(sent, ['1', '2']);
  assert.equal(timers.length, 0);
});
