/**
 * Records every worker → offscreen request in the per-server request log (SPEC J2): method,
 * duration, status, request and response sizes and the error, with bodies redacted by
 * `appendRequestLog`. Requests name a `connectionId`; the server it belongs to is learnt from
 * `offscreen:connect`. Each entry is named by the MCP message it stands for (`tools/call echo`);
 * what the server sends on its own (a question, a list change) is recorded through `observe`.
 * Credentials are never logged: the connect request is logged without its headers and
 * `offscreen:set-authorization` without its value. Logging never fails a request.
 */
import type { Wording } from '../../protocol/wording.js';
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { RequestLogEntry } from '../../storage/request-log.js';

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

export function withRequestLogging(
  request: Request,
  append: LogSink,
  now: () => number = Date.now,
  schedule: LogScheduler = (write) => write(),
): LoggedRequest {
  const serverOf = new Map<string, string>();
  /** Server questions waiting for the user's answer: logged once answered, with how long that took. */
  const questions = new Map<string, { serverId: string; at: number; params: unknown }>();
  const write = (serverId: string, entry: () => RequestLogEntry) =>
    schedule(() => {
      try {
        append(serverId, entry()).catch(() => undefined);
      } catch {
        // Logging never fails a request, nor the worker.
      }
    });

  async function logged<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const p = params as Record<string, unknown>;
    const connectionId = typeof p['connectionId'] === 'string' ? p['connectionId'] : undefined;
    if (method === 'offscreen:connect' && connectionId && typeof p['serverId'] === 'string') {
      serverOf.set(connectionId, p['serverId']);
      if (serverOf.size > MAX_CONNECTIONS) serverOf.delete(serverOf.keys().next().value!);
    }
    if (method === 'offscreen:answer-elicitation') return answered(method, params, p);
    const serverId = connectionId ? serverOf.get(connectionId) : undefined;
    const shown = loggable(method, p);
    const named = jsonRpcName(method, p);
    const at = now();
    const record = (entry: () => Omit<RequestLogEntry, 'at' | 'method' | 'durationMs' | 'requestBytes' | 'request'>) => {
      if (!serverId) return;
      const durationMs = now() - at;
      write(serverId, () => ({ at, ...named, durationMs, requestBytes: size(shown), request: shown, ...entry() }));
    };
    try {
      const value = await request(method, params);
      // Response bodies are fresh objects validated by the worker client; nothing mutates them later.
      record(() => ({ status: 'ok', responseBytes: size(value), response: value }));
      return value;
    } catch (e) {
      const status = typeof (e as { httpStatus?: unknown }).httpStatus === 'number' ? (e as { httpStatus: number }).httpStatus : 'error';
      const error = e instanceof Error ? e.message : String(e);
      const errorWording = (e as { wording?: Wording }).wording;
      record(() => ({ status, responseBytes: 0, error, ...(errorWording ? { errorWording } : {}) }));
      throw e;
    }
  }

  /** The user's answer to a server's `elicitation/create`: one entry for the question and its answer. */
  async function answered<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>, p: Record<string, unknown>) {
    const id = String(p['elicitationId']);
    const question = questions.get(id);
    questions.delete(id);
    const value = await request(method, params);
    if (question) {
      const durationMs = now() - question.at;
      const response = { action: p['action'], ...(p['content'] ? { content: p['content'] } : {}) };
      write(question.serverId, () => ({
        at: question.at,
        method: 'elicitation/create',
        direction: 'in',
        durationMs,
        status: 'ok',
        requestBytes: size(question.params),
        responseBytes: size(response),
        request: question.params,
        response,
      }));
    }
    return value;
  }

  function observe(event: OffscreenEvent) {
    if (event.type === 'offscreen:elicitation') {
      const serverId = serverOf.get(event.connectionId);
      if (!serverId) return;
      questions.set(event.elicitationId, {
        serverId,
        at: now(),
        params: { message: event.message, requestedSchema: event.requestedSchema },
      });
      if (questions.size > MAX_CONNECTIONS) questions.delete(questions.keys().next().value!);
    } else if (event.type === 'offscreen:list-changed') {
      const serverId = serverOf.get(event.connectionId);
      if (!serverId) return;
      const at = now();
      const method = `notifications/${event.category}/list_changed`;
      write(serverId, () => ({
        at,
        method,
        direction: 'in',
        notification: true,
        durationMs: 0,
        status: 'ok',
        requestBytes: 0,
        responseBytes: 0,
      }));
    }
  }

  return Object.assign(logged, { observe });
}

type Named = Pick<RequestLogEntry, 'method' | 'subject' | 'notification'>;

const LIST_METHODS: Record<string, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

/**
 * The MCP message a worker → offscreen request stands for, so the log speaks the protocol the
 * server sees (`tools/call echo`), not our internal names. Requests without a JSON-RPC message
 * of their own (closing a session, handing it a token) are named as session steps.
 */
function jsonRpcName(method: OffscreenMethod, p: Record<string, unknown>): Named {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const withSubject = (name: string, subject: unknown): Named => {
    const s = text(subject);
    return s === undefined ? { method: name } : { method: name, subject: s };
  };
  switch (method) {
    case 'offscreen:connect':
      return withSubject('initialize', p['url']);
    case 'offscreen:list-category':
      return { method: LIST_METHODS[String(p['category'])] ?? 'list' };
    case 'offscreen:call-tool':
      return withSubject('tools/call', p['name']);
    case 'offscreen:get-prompt':
      return withSubject('prompts/get', p['name']);
    case 'offscreen:read-resource':
      return withSubject('resources/read', p['uri']);
    case 'offscreen:cancel':
      return { method: 'notifications/cancelled', notification: true };
    case 'offscreen:ping':
      return { method: 'ping' };
    default:
      return { method: method.replace(/^offscreen:/, 'session:') };
  }
}

/**
 * The request as logged: the JSON-RPC params where there is such a message, and no
 * credential-bearing fields at all, whatever redaction would do.
 */
function loggable(method: OffscreenMethod, p: Record<string, unknown>): unknown {
  switch (method) {
    case 'offscreen:connect':
      return { url: p['url'], timeoutMs: p['timeoutMs'], headerNames: Object.keys((p['headers'] as object | undefined) ?? {}) };
    case 'offscreen:set-authorization':
      return { connectionId: p['connectionId'] };
    case 'offscreen:call-tool':
    case 'offscreen:get-prompt':
      return { name: p['name'], arguments: p['arguments'] };
    case 'offscreen:read-resource':
      return { uri: p['uri'] };
    case 'offscreen:list-category':
      return {};
    case 'offscreen:cancel':
      return { requestId: p['operationId'] };
    default:
      return p;
  }
}

function size(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : new TextEncoder().encode(text).length;
  } catch {
    return 0;
  }
}
