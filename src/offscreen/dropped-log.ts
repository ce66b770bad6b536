/**
 * Records responses the {@link JsonRpcGuard} dropped in the server's request log (SPEC J2, N6),
 * so a server that answers with the wrong id, twice, or before being asked can be diagnosed.
 * A flood is bounded: the first few drops of a session are logged one by one, then every
 * hundredth, each entry carrying the running count.
 */
import type { DroppedResponse } from './jsonrpc-guard.js';
import type { RequestLogEntry } from '../storage/request-log.js';

const LOGGED_ONE_BY_ONE = 10;
const THEN_EVERY = 100;

const WHY: Record<DroppedResponse['kind'], string> = {
  unmatched: 'no request with exactly this id (type and value) is waiting',
  duplicate: 'the request with this id was already answered',
  early: 'no request with this id has been sent yet',
};

export function droppedResponseLogger(
  serverId: string,
  append: (serverId: string, entry: RequestLogEntry) => Promise<void>,
): (dropped: DroppedResponse) => void {
  return (dropped) => {
    if (dropped.count > LOGGED_ONE_BY_ONE && dropped.count % THEN_EVERY !== 0) return;
    void append(serverId, {
      at: Date.now(),
      method: 'jsonrpc:dropped-response',
      durationMs: 0,
      status: 'error',
      requestBytes: 0,
      responseBytes: 0,
      error: `Dropped a response with id ${dropped.id}: ${WHY[dropped.kind]}. ${dropped.count} dropped on this session so far.`,
    }).catch(() => undefined);
  };
}
