/**
 * Records every worker → offscreen request in the per-server request log (SPEC J2): method,
 * duration, status, request and response sizes and the error, with bodies redacted by
 * `appendRequestLog`. Requests name a `connectionId`; the server it belongs to is learnt from
 * `offscreen:connect`. Credentials are never logged: the connect request is logged without its
 * headers and `offscreen:set-authorization` without its value. Logging never fails a request.
 */
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
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

export function withRequestLogging(
  request: Request,
  append: LogSink,
  now: () => number = Date.now,
  schedule: LogScheduler = (write) => write(),
): Request {
  const serverOf = new Map<string, string>();
  return async function logged<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const p = params as Record<string, unknown>;
    const connectionId = typeof p['connectionId'] === 'string' ? p['connectionId'] : undefined;
    if (method === 'offscreen:connect' && connectionId && typeof p['serverId'] === 'string') {
      serverOf.set(connectionId, p['serverId']);
      if (serverOf.size > MAX_CONNECTIONS) serverOf.delete(serverOf.keys().next().value!);
    }
    const serverId = connectionId ? serverOf.get(connectionId) : undefined;
    const shown = loggable(method, p);
    const at = now();
    const record = (entry: () => Omit<RequestLogEntry, 'at' | 'method' | 'durationMs' | 'requestBytes' | 'request'>) => {
      if (!serverId) return;
      const durationMs = now() - at;
      schedule(() => {
        try {
          append(serverId, {
            at,
            method: method.replace(/^offscreen:/, ''),
            durationMs,
            requestBytes: size(shown),
            request: shown,
            ...entry(),
          }).catch(() => undefined);
        } catch {
          // Logging never fails a request, nor the worker.
        }
      });
    };
    try {
      const value = await request(method, params);
      // Response bodies are fresh objects validated by the worker client; nothing mutates them later.
      record(() => ({ status: 'ok', responseBytes: size(value), response: value }));
      return value;
    } catch (e) {
      const status = typeof (e as { httpStatus?: unknown }).httpStatus === 'number' ? (e as { httpStatus: number }).httpStatus : 'error';
      const error = e instanceof Error ? e.message : String(e);
      record(() => ({ status, responseBytes: 0, error }));
      throw e;
    }
  };
}

/** The request as logged: no credential-bearing fields at all, whatever redaction would do. */
function loggable(method: OffscreenMethod, p: Record<string, unknown>): unknown {
  if (method === 'offscreen:connect')
    return { url: p['url'], timeoutMs: p['timeoutMs'], headerNames: Object.keys((p['headers'] as object | undefined) ?? {}) };
  if (method === 'offscreen:set-authorization') return { connectionId: p['connectionId'] };
  return p;
}

function size(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : new TextEncoder().encode(text).length;
  } catch {
    return 0;
  }
}
