import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP_ALIVE_INTERVAL_MS, KeepAlive } from '../../../../src/sw/chrome/keep-alive.js';

function rig() {
  let pending = false;
  let touches = 0;
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
  });
  return {
    keepAlive,
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
