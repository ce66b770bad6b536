/**
 * Records every worker → offscreen request in the per-server request log (SPEC J2): method,
 * duration, status, request and response sizes and the error, with bodies redacted by
 * `appendRequestLog`. Requests name a `connectionId`; the server it belongs to is learnt from
 * `offscreen:connect`. Credentials are never logged: the connect request is logged without its
 * headers and `offscreen:set-authorization` without its value. Logging never fails a request.
 */
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../protocol/offscreen.js';
import type { RequestLogEntry } from '../storage/request-log.js';

type Request = <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => Promise<OffscreenValue<M>>;
export type LogSink = (serverId: string, entry: RequestLogEntry) => Promise<void>;

const MAX_CONNECTIONS = 256;

export function withRequestLogging(request: Request, append: LogSink, now: () => number = Date.now): Request {
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
    const record = (entry: Omit<RequestLogEntry, 'at' | 'method' | 'durationMs' | 'requestBytes' | 'request'>) => {
      if (!serverId) return;
      append(serverId, { at, method: method.replace(/^offscreen:/, ''), durationMs: now() - at, requestBytes: size(shown), request: shown, ...entry }).catch(() => undefined);
    };
    try {
      const value = await request(method, params);
      record({ status: 'ok', responseBytes: size(value), response: value });
      return value;
    } catch (e) {
      const status = typeof (e as { httpStatus?: unknown }).httpStatus === 'number' ? ((e as { httpStatus: number }).httpStatus) : 'error';
      record({ status, responseBytes: 0, error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  };
}

/** The request as logged: no credential-bearing fields at all, whatever redaction would do. */
function loggable(method: OffscreenMethod, p: Record<string, unknown>): unknown {
  if (method === 'offscreen:connect') return { url: p['url'], timeoutMs: p['timeoutMs'], headerNames: Object.keys((p['headers'] as object | undefined) ?? {}) };
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
