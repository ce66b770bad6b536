/**
 * McpWorkerClient: the worker's thin RPC client to the offscreen SDK host (SPEC D1). Every
 * response and event is validated before anyone sees it; a malformed one is dropped and logged,
 * and a response for an unknown id is never delivered to another request (SPEC N6).
 */
import {
  OffscreenEventEnvelopeSchema,
  OffscreenResponseEnvelopeSchema,
  offscreenResultSchema,
  type OffscreenEvent,
  type OffscreenMethod,
  type OffscreenParams,
  type OffscreenValue,
} from '../../protocol/offscreen.js';
import { RequestPeer, type ReadAnswer } from '../../protocol/request-peer.js';
import { RemoteError } from '../../protocol/result.js';
import { randomId } from '../../common/random-id.js';
import { say } from '../../protocol/wording.js';

export interface PortLike {
  postMessage(message: unknown): void;
  onMessage: { addListener(cb: (message: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
}

/** Anything but an event is taken as a response: a message of neither kind is a malformed answer. */
function readOffscreenAnswer(message: unknown): ReadAnswer {
  if ((message as { kind?: unknown } | null)?.kind === 'event') return undefined;
  const response = OffscreenResponseEnvelopeSchema.safeParse(message);
  return response.success ? response.data : 'malformed';
}

type HostLoss = 'reasonHostClosedUnsent' | 'reasonHostClosedMidRequest' | 'reasonHostReplaced';
const hostLost = (reason: HostLoss) => () => new RemoteError({ code: 'offscreen-lost', ...say(reason) });

export class McpWorkerClient {
  #port: PortLike | undefined;
  readonly #peer = new RequestPeer<PortLike>({
    label: 'worker-client',
    read: readOffscreenAnswer,
    lost: hostLost('reasonHostClosedMidRequest'),
  });
  readonly #eventListeners = new Set<(event: OffscreenEvent) => void>();
  /** Malformed events and results; the peer counts the answers it dropped. */
  #droppedHere = 0;

  /**
   * @param owner this worker instance's token: the offscreen document answers only the instance
   * that claimed it last, so a late request of an older instance is refused (SPEC C6).
   */
  constructor(
    private readonly getPort: () => Promise<PortLike>,
    readonly owner: string = randomId(),
  ) {}

  /** Count of dropped malformed inbound messages, exposed for tests and the log drawer. */
  get dropped(): number {
    return this.#peer.dropped + this.#droppedHere;
  }

  onEvent(listener: (event: OffscreenEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  async request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const port = await this.#attach();
    let answer: Promise<unknown>;
    try {
      answer = this.#peer.request(port, (id) => ({ kind: 'request', id, owner: this.owner, method, params }));
    } catch {
      // A Port that died between attach and send: nothing was sent.
      throw hostLost('reasonHostClosedUnsent')();
    }
    return this.#checked(method, await answer);
  }

  async #attach(): Promise<PortLike> {
    const port = await this.getPort();
    if (port === this.#port) return port;
    // A new port means the old document was replaced without our seeing its onDisconnect
    // (it never fires on the end that disconnected): its requests can no longer be answered.
    if (this.#port) this.#peer.closed(this.#port, hostLost('reasonHostReplaced'));
    this.#port = port;
    port.onMessage.addListener((message) => {
      if (this.#port === port && !this.#peer.receive(message)) this.#event(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.#port !== port) return;
      this.#port = undefined;
      this.#peer.closed(port);
    });
    return port;
  }

  #event(message: unknown) {
    const envelope = OffscreenEventEnvelopeSchema.safeParse(message);
    if (!envelope.success) {
      this.#droppedHere++;
      console.warn('[worker-client] dropped a malformed event from the offscreen document');
      return;
    }
    for (const l of this.#eventListeners) {
      // One failing listener must not keep the event from the others.
      try {
        l(envelope.data.event);
      } catch (e) {
        console.error('[worker-client] an event listener failed', e);
      }
    }
  }

  /** The answer's Result checked against `method`'s schema: its value, or the error it carries. */
  #checked<M extends OffscreenMethod>(method: M, raw: unknown): OffscreenValue<M> {
    const result = offscreenResultSchema(method).safeParse(raw);
    if (!result.success) {
      this.#droppedHere++;
      throw new RemoteError({
        code: 'protocol',
        message: `The server's answer to ${method.replace('offscreen:', '')} was malformed and was rejected.`,
      });
    }
    if (result.data.ok) return result.data.value as OffscreenValue<M>;
    throw new RemoteError(result.data.error);
  }
}
