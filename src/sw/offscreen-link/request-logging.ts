/**
 * Records every worker → offscreen request in the per-server request log (SPEC J2): method,
 * duration, status, request and response sizes and the error, with bodies redacted by
 * `appendRequestLog`. Requests name a `connectionId`; the server it belongs to is learnt from
 * `offscreen:connect`, and for the sessions a new worker adopts (C7) from the `offscreen:claim`
 * reply, which names each held session's server: an adopted session is logged like a new one.
 * Each entry is named by the MCP message it stands for (`tools/call echo`);
 * what the server sends on its own (a question, a list change) is recorded through `observe`.
 * Credentials are never logged: the connect request is logged without its headers and
 * `offscreen:set-authorization` without its value. Logging never fails a request.
 */
import { isModernRevision } from '../../protocol/modern-wire.js';
import { BoundedMap } from '../../common/bounded-map.js';
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { RequestLogEntry } from '../../storage/request-log.js';
import {
  answerOf,
  answeredQuestionEntry,
  askedQuestion,
  byteSize,
  failed,
  listChangedEntry,
  succeeded,
  type AskedQuestion,
  type Outcome,
} from './log-entries.js';
import { jsonRpcName, loggable } from './request-log-names.js';

type Request = <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => Promise<OffscreenValue<M>>;
export type LogSink = (serverId: string, entry: RequestLogEntry) => Promise<void>;

const MAX_CONNECTIONS = 256;

/**
 * Runs a log write. The default runs it at once; the worker passes a macrotask deferral (main.ts)
 * so that measuring, redacting and storing the entry happen after the answer has gone back to
 * the caller instead of in front of it (the entry's time and duration are still taken when the
 * request ends). Logging stays best effort either way.
 */
export type LogScheduler = (write: () => void) => void;

/** The logged request function, which also records what the server sent on its own (see `observe`). */
export type LoggedRequest = Request & { observe: (event: OffscreenEvent) => void };

/** Writes one entry, built when the write runs. */
type LogWrite = (serverId: string, entry: () => RequestLogEntry) => void;

/** Runs each write on `schedule`; a write that throws or rejects is dropped: logging never fails a request, nor the worker. */
function bestEffort(append: LogSink, schedule: LogScheduler): LogWrite {
  return (serverId, entry) =>
    schedule(() => {
      try {
        append(serverId, entry()).catch(() => undefined);
      } catch {
        // Dropped, as above.
      }
    });
}

/**
 * Which server each connection belongs to (learnt from `offscreen:connect` and `offscreen:claim`), the server
 * questions waiting for the user's answer, and the entry each request, answer and event makes.
 */
class RequestLogger {
  readonly #serverOf = new BoundedMap<string, string>(MAX_CONNECTIONS);
  /** Server questions waiting for the user's answer: logged once answered, with how long that took. */
  readonly #questions = new BoundedMap<string, AskedQuestion>(MAX_CONNECTIONS);
  readonly #request: Request;
  readonly #write: LogWrite;
  readonly #now: () => number;

  constructor(request: Request, write: LogWrite, now: () => number) {
    this.#request = request;
    this.#write = write;
    this.#now = now;
  }

  async send<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const p = params as Record<string, unknown>;
    const connectionId = typeof p['connectionId'] === 'string' ? p['connectionId'] : undefined;
    if (method === 'offscreen:connect' && connectionId && typeof p['serverId'] === 'string')
      this.#serverOf.set(connectionId, p['serverId']);
    if (method === 'offscreen:answer-elicitation') return this.#answered(method, params, p);
    // The worker's own bookkeeping in the document: no traffic with the server, nothing to log.
    if (method === 'offscreen:keep-checked') return this.#request(method, params);
    const serverId = connectionId ? this.#serverOf.get(connectionId) : undefined;
    const shown = loggable(method, p);
    let named = jsonRpcName(method, p);
    const at = this.#now();
    const record = (outcome: () => Outcome) => {
      if (!serverId) return;
      const durationMs = this.#now() - at;
      this.#write(serverId, () => ({ at, ...named, durationMs, requestBytes: byteSize(shown), request: shown, ...outcome() }));
    };
    try {
      const value = await this.#request(method, params);
      if (method === 'offscreen:claim') this.#adopted(value as OffscreenValue<'offscreen:claim'>);
      // A 2026-07-28 server was reached with `server/discover`, not `initialize` (SPEC R1, J2).
      if (method === 'offscreen:connect' && isModernRevision((value as { protocolVersion?: unknown }).protocolVersion))
        named = { ...named, method: 'server/discover' };
      record(() => succeeded(value));
      return value;
    } catch (e) {
      const outcome = failed(e);
      record(() => outcome);
      throw e;
    }
  }

  /** The sessions a claimed document holds, each under its server, as `offscreen:connect` would have told. */
  #adopted(claimed: OffscreenValue<'offscreen:claim'>) {
    for (const held of claimed.sessions) this.#serverOf.set(held.connectionId, held.serverId);
  }

  /** The user's answer to a server's `elicitation/create`: one entry for the question and its answer. */
  async #answered<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>, p: Record<string, unknown>) {
    const id = String(p['elicitationId']);
    const question = this.#questions.get(id);
    this.#questions.delete(id);
    const value = await this.#request(method, params);
    if (question) {
      const durationMs = this.#now() - question.at;
      const response = answerOf(p);
      this.#write(question.serverId, () => answeredQuestionEntry(question, response, durationMs));
    }
    return value;
  }

  /** What the server sent on its own: a question is kept until answered, a list change logged at once. */
  observe(event: OffscreenEvent) {
    if (event.type !== 'offscreen:elicitation' && event.type !== 'offscreen:list-changed') return;
    const serverId = this.#serverOf.get(event.connectionId);
    if (!serverId) return;
    const at = this.#now();
    if (event.type === 'offscreen:elicitation') this.#questions.set(event.elicitationId, askedQuestion(event, serverId, at));
    else this.#write(serverId, () => listChangedEntry(event.category, at));
  }
}

export function withRequestLogging(
  request: Request,
  append: LogSink,
  now: () => number = Date.now,
  schedule: LogScheduler = (write) => write(),
): LoggedRequest {
  const logger = new RequestLogger(request, bestEffort(append, schedule), now);
  const logged = <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => logger.send(method, params);
  return Object.assign(logged, { observe: (event: OffscreenEvent) => logger.observe(event) });
}
