/**
 * Writing a new binding reconciles the server (disconnect barrier, C3), which can supersede a
 * connect started just before it. Such a connect is worth trying again, a bounded number of
 * times (N5); any other failure is final.
 */
import { toWireError } from '../../protocol/result.js';

/** Tries in all: the first connect and two more after a supersede. */
const MAX_TRIES = 3;

export async function retryingSuperseded<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      if (toWireError(e).code !== 'superseded' || tries >= MAX_TRIES) throw e;
    }
  }
}
