import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP_ALIVE_INTERVAL_MS, KeepAlive, TOUCH_THROTTLE_MS } from '../../../../src/sw/chrome/keep-alive.js';

function rig() {
  let pending = false;
  let touches = 0;
  let clock = 0;
  const timers = new Map<number, () => void>();
  let next = 0;
  const keepAlive = new KeepAlive({
    pending: () => pending,
    touch: async () => void touches++,
    setInterval: (fn, ms) => {
      assert.equal(ms, KEEP_ALIVE_INTERVAL_MS);
      timers.set(++next, fn);
      return next;
    },
    clearInterval: (h) => void timers.delete(h as number),
    now: () => clock,
  });
  return {
    keepAlive,
    at: (ms: number) => void (clock = ms),
    set: (p: boolean) => void (pending = p),
    tick: () => [...timers.values()].forEach((fn) => fn()),
    timers,
    touches: () => touches,
  };
}

test('C7: nothing ticks while idle; pending work calls an extension API every 20 s; it stops once the work is done', () => {
  const r = rig();
  r.keepAlive.check();
  assert.equal(r.timers.size, 0, 'idle: no timer, Chrome may stop the worker');
  r.set(true);
  r.keepAlive.check();
  r.keepAlive.check();
  assert.equal(r.timers.size, 1, 'one timer however often it is checked');
  r.tick();
  r.tick();
  assert.equal(r.touches(), 2);
  r.set(false);
  r.tick();
  assert.equal(r.touches(), 2, 'a tick with nothing pending touches nothing');
  assert.equal(r.timers.size, 0, '… and stops the ticking');
  assert.equal(r.keepAlive.active, false);
});

test('C7: check() stops at once when work ended', () => {
  const r = rig();
  r.set(true);
  r.keepAlive.check();
  assert.equal(r.keepAlive.active, true);
  r.set(false);
  r.keepAlive.check();
  assert.equal(r.timers.size, 0);
});

test('C7: work Chrome does not see touches at once, then at most once per throttle window, idle or not', () => {
  const r = rig();
  r.at(50_000);
  r.keepAlive.touchSoon();
  assert.equal(r.touches(), 1, "the first such request in a while resets Chrome's idle timer");
  r.at(50_000 + TOUCH_THROTTLE_MS - 1);
  r.keepAlive.touchSoon();
  assert.equal(r.touches(), 1, 'not again inside the window');
  r.at(50_000 + TOUCH_THROTTLE_MS);
  r.keepAlive.touchSoon();
  assert.equal(r.touches(), 2);
  assert.ok(TOUCH_THROTTLE_MS < 30_000, "inside Chrome's ~30 s idle limit");
  assert.equal(r.timers.size, 0, 'and starts no keep-alive ticking: nothing is pending');
});
