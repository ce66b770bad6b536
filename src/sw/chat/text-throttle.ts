/**
 * The pushes of a streaming answer's text, at most one per interval: the first at once, the
 * rest at the end of their interval with only the latest text. Each push carries the entry's
 * whole text so far, so the ones skipped lose nothing; a panel gets ~25 updates a second, not one
 * per token. The clock is injected so the pacing can be tested without waiting.
 */

/** Text pushes of a streaming answer are at most this often. */
export const TEXT_PUSH_MS = 40;

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

export const systemClock: Clock = { now: () => Date.now(), setTimeout: (run, ms) => setTimeout(run, ms) };

/** A sender that calls each `send` it is given, or only the latest of those given within one interval. */
export function textThrottle(clock: Clock, intervalMs = TEXT_PUSH_MS): (send: () => void) => void {
  let last = -Infinity;
  let waiting = false;
  let pending: (() => void) | undefined;
  const fire = () => {
    last = clock.now();
    const send = pending;
    pending = undefined;
    send?.();
  };
  return (send) => {
    pending = send;
    const wait = last + intervalMs - clock.now();
    if (wait <= 0) fire();
    else if (!waiting) {
      waiting = true;
      clock.setTimeout(() => {
        waiting = false;
        fire();
      }, wait);
    }
  };
}
