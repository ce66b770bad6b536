/**
 * McpWorkerClient: the worker's thin RPC client to the offscreen SDK host (SPEC D1). Every
 * response and event is validated before anyone sees it; a malformed one is dropped and logged,
 * and a response for an unknown id is never delivered to another request (SPEC N6).
 */
import {
  OffscreenEventSchema,
  OffscreenInboundSchema,
  offscreenResultSchema,
  type OffscreenEvent,
  type OffscreenMethod,
  type OffscreenParams,
  type OffscreenValue,
} from '../../protocol/offscreen.js';
import { RemoteError } from '../../protocol/result.js';
import { randomId } from '../../common/random-id.js';
import { say, type Said } from '../../protocol/wording.js';

export interface PortLike {
  postMessage(message: unknown): void;
  onMessage: { addListener(cb: (message: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
}

interface Pending {
  method: OffscreenMethod;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class McpWorkerClient {
  #port: PortLike | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #eventListeners = new Set<(event: OffscreenEvent) => void>();
  /** Count of dropped malformed inbound messages, exposed for tests and the log drawer. */
  dropped = 0;

  /**
   * @param owner this worker instance's token: the offscreen document answers only the instance
   * that claimed it last, so a late request of an older instance is refused (SPEC C6).
   */
  constructor(
    private readonly getPort: () => Promise<PortLike>,
    readonly owner: string = randomId(),
  ) {}

  onEvent(listener: (event: OffscreenEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  async request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const port = await this.#attach();
    const id = this.#nextId++;
    return new Promise<OffscreenValue<M>>((resolve, reject) => {
      this.#pending.set(id, { method, resolve: resolve, reject });
      try {
        port.postMessage({ kind: 'request', id, owner: this.owner, method, params });
      } catch {
        // A Port that died between attach and send: fail this request rather than leave it pending.
        this.#pending.delete(id);
        reject(new RemoteError({ code: 'offscreen-lost', ...say('reasonHostClosedUnsent') }));
      }
    });
  }

  async #attach(): Promise<PortLike> {
    const port = await this.getPort();
    if (port === this.#port) return port;
    // A new port means the old document was replaced without our seeing its onDisconnect
    // (it never fires on the end that disconnected): its requests can no longer be answered.
    if (this.#port) this.#failAll(say('reasonHostReplaced'));
    this.#port = port;
    port.onMessage.addListener((message) => {
      if (this.#port === port) this.#receive(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.#port !== port) return;
      this.#port = undefined;
      this.#failAll(say('reasonHostClosedMidRequest'));
    });
    return port;
  }

  #failAll({ message, wording }: Required<Said>) {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(new RemoteError({ code: 'offscreen-lost', message, wording }));
  }

  #receive(message: unknown) {
    const inbound = OffscreenInboundSchema.safeParse(message);
    if (!inbound.success) {
      this.dropped++;
      console.warn('[worker-client] dropped a malformed message from the offscreen document');
      return;
    }
    if (inbound.data.kind === 'event') {
      const event = OffscreenEventSchema.parse(inbound.data.event);
      for (const l of this.#eventListeners) {
        // One failing listener must not keep the event from the others.
        try {
          l(event);
        } catch (e) {
          console.error('[worker-client] an event listener failed', e);
        }
      }
      return;
    }
    const pending = this.#pending.get(inbound.data.id);
    if (!pending) {
      this.dropped++;
      console.warn(`[worker-client] dropped a response for unknown request ${inbound.data.id}`);
      return;
    }
    this.#pending.delete(inbound.data.id);
    const result = offscreenResultSchema(pending.method).safeParse(inbound.data.result);
    if (!result.success) {
      this.dropped++;
      pending.reject(
        new RemoteError({
          code: 'protocol',
          message: `The server's answer to ${pending.method.replace('offscreen:', '')} was malformed and was rejected.`,
        }),
      );
      return;
    }
    if (result.data.ok) pending.resolve(result.data.value);
    else pending.reject(new RemoteError(result.data.error));
  }
}
