/**
 * The panel's requests on its Port, on the shared {@link RequestPeer}: this file is only the
 * panel's envelope. A request goes out as `{ kind: 'request', id, type, params }`; a message with
 * `kind: 'response'` is an answer, anything else is a push for the caller's handlers. When the
 * Port drops, the requests sent on it fail with {@link WorkerGoneError}: the worker may have acted
 * on them before it stopped, so they are never sent again.
 */
import { PanelPortResponseSchema } from '../protocol/panel.js';
import { RequestPeer, type PeerTransport, type ReadAnswer } from '../protocol/request-peer.js';

/** What the panel needs of a `chrome.runtime.Port` here (a fake one in the unit tests). */
export type RequestPort = PeerTransport;

/** The Port carrying a request dropped before its answer came. */
export class WorkerGoneError extends Error {
  constructor() {
    super('The worker stopped before it answered');
  }
}

function readPanelAnswer(message: unknown): ReadAnswer {
  if ((message as { kind?: unknown } | null)?.kind !== 'response') return undefined;
  const answer = PanelPortResponseSchema.safeParse(message);
  return answer.success ? answer.data : 'malformed';
}

export class PortRequests extends RequestPeer<RequestPort> {
  constructor() {
    super({ label: 'panel', read: readPanelAnswer, lost: () => new WorkerGoneError() });
  }

  /**
   * Posts `{ kind: 'request', id, type, params }` on `port`; settles with the answer's `result`.
   * Throws at once if the Port is already dead (nothing was sent, so a fresh Port may carry it).
   */
  send(port: RequestPort, type: string, params: unknown): Promise<unknown> {
    return this.request(port, (id) => ({ kind: 'request', id, type, params }));
  }

  /** `port` dropped: every request sent on it fails. */
  portDropped(port: RequestPort) {
    this.closed(port);
  }
}
