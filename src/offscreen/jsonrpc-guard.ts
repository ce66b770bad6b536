/**
 * Strict JSON-RPC correlation at the transport boundary (SPEC N6, N7). The SDK looks a pending
 * request up with `Number(id)`, so a response with id `"1"` would settle request `1`, and it
 * does not record unmatched answers. {@link JsonRpcGuard} sits between the SDK client and its
 * transport: it remembers the id of every request the client sends, exactly (type and value),
 * and lets a response through only to a request still waiting for that very id. Unmatched,
 * duplicate and early responses are dropped and reported, never delivered.
 *
 * It also lets the session fail a pending request at once with a local reason (an oversized or
 * malformed answer) instead of letting it wait for the timeout, and answer some server requests
 * itself (URL-mode elicitation is declined without reaching the SDK, SPEC I2).
 */
import type { Wording } from '../protocol/wording.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { WireErrorCode } from '../protocol/error-codes.js';

export type DropKind = 'unmatched' | 'duplicate' | 'early';

export interface DroppedResponse {
  kind: DropKind;
  /** The id as the server sent it, shown as JSON (`"1"` vs `1`), cut to 100 characters. */
  id: string;
  /** Responses dropped on this session so far, this one included. */
  count: number;
}

/** Why the session failed a request itself; carried to the error mapping through the SDK's McpError. */
export interface LocalFailure {
  code: WireErrorCode;
  message: string;
  /** The HTTP status that carried the failure, when there was one (a refused session id). */
  httpStatus?: number;
  wording?: Wording;
}

/** JSON-RPC "internal error"; only used for the synthetic answers below, recognised by identity. */
const LOCAL_FAILURE_CODE = -32603;
const localFailures = new WeakMap<object, LocalFailure>();

/** The local reason behind an SDK error's `data`, if the guard made it (a server cannot forge it). */
export function localFailureOf(data: unknown): LocalFailure | undefined {
  return typeof data === 'object' && data !== null ? localFailures.get(data) : undefined;
}

/** Ids of answered requests remembered to tell a duplicate from an unmatched response. */
const MAX_ANSWERED = 256;

const keyOf = (id: unknown) => `${typeof id}:${String(id)}`;

function isResponse(m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } {
  return !('method' in m) && ('result' in m || 'error' in m);
}

export interface GuardOptions {
  onDropped(dropped: DroppedResponse): void;
  /** Answers a server request locally (its result), or undefined to hand it to the client. */
  answerLocally?(message: { method: string; params?: unknown }): Record<string, unknown> | undefined;
}

export class JsonRpcGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  /** Type-and-value keys of the requests still waiting for their answer. */
  readonly #pending = new Set<string>();
  readonly #answered = new Set<string>();
  #highestSent = -1;
  #dropped = 0;

  constructor(
    private readonly inner: Transport,
    private readonly options: GuardOptions,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string) {
    this.inner.setProtocolVersion?.(version);
  }

  /** Responses dropped on this session so far. */
  get droppedCount(): number {
    return this.#dropped;
  }

  async start() {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onmessage = (message, extra) => this.#receive(message, extra);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions) {
    const request = 'method' in message && 'id' in message ? message.id : undefined;
    if (request !== undefined) {
      this.#pending.add(keyOf(request));
      if (typeof request === 'number') this.#highestSent = Math.max(this.#highestSent, request);
    }
    // A cancelled request's late answer must not be delivered (the SDK forgot it too).
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (cancelled !== undefined) this.#pending.delete(keyOf(cancelled));
    }
    try {
      await this.inner.send(message, options);
    } catch (e) {
      if (request !== undefined) this.#pending.delete(keyOf(request));
      throw e;
    }
  }

  close() {
    return this.inner.close();
  }

  /**
   * Fails the given requests at once, if they still wait: the client receives an error answer
   * whose `data` {@link localFailureOf} recognises. Ids are those the client sent.
   */
  fail(ids: readonly RequestId[], failure: LocalFailure) {
    for (const id of ids) {
      const key = keyOf(id);
      if (!this.#pending.delete(key)) continue;
      this.#remember(key);
      const data = {};
      localFailures.set(data, failure);
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: LOCAL_FAILURE_CODE, message: failure.message, data } });
    }
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo) {
    if (isResponse(message)) {
      const key = keyOf(message.id);
      if (!this.#pending.delete(key)) {
        this.#drop(message.id, key);
        return;
      }
      this.#remember(key);
    } else if ('method' in message && 'id' in message && this.options.answerLocally) {
      const result = this.options.answerLocally(message);
      if (result) {
        void this.inner.send({ jsonrpc: '2.0', id: message.id as RequestId, result }).catch((e: unknown) => this.onerror?.(e as Error));
        return;
      }
    }
    this.onmessage?.(message, extra);
  }

  /**
   * Records an answer the transport could not hand over because no request can carry its id
   * (`null`, an object: event-check.ts, unmatched-answers.ts); it is dropped like any unmatched one.
   */
  dropUnmatchable(id: unknown) {
    this.#drop(id, keyOf(id));
  }

  #drop(id: unknown, key: string) {
    this.#dropped++;
    const kind: DropKind = this.#answered.has(key) ? 'duplicate' : typeof id === 'number' && id > this.#highestSent ? 'early' : 'unmatched';
    let shown: string;
    try {
      shown = JSON.stringify(id) ?? String(id);
    } catch {
      shown = String(id);
    }
    this.options.onDropped({ kind, id: shown.slice(0, 100), count: this.#dropped });
  }

  #remember(key: string) {
    this.#answered.add(key);
    if (this.#answered.size > MAX_ANSWERED) this.#answered.delete(this.#answered.values().next().value!);
  }
}
