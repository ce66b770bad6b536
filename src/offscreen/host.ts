/**
 * The offscreen side of the worker ↔ offscreen Port: validates each request, runs it against
 * the session that owns its `connectionId`, and answers with a {@link Result} envelope.
 * A request naming a connection this document does not hold is refused (SPEC C6).
 */
import {
  OFFSCREEN_PORT,
  OffscreenRequestEnvelopeSchema,
  OffscreenRequestSchemas,
  type OffscreenEvent,
  type OffscreenMethod,
  type OffscreenParams,
} from '../protocol/offscreen.js';
import { fail, ok, type Result } from '../protocol/result.js';
import { describeSdkError } from './errors.js';
import { McpSession } from './session.js';

interface Held {
  serverId: string;
  url: string;
  session: McpSession;
  calls: Map<string, AbortController>;
}

const sessions = new Map<string, Held>();
let port: chrome.runtime.Port | undefined;
const documentId = crypto.randomUUID().replace(/-/g, '');

function emit(event: OffscreenEvent) {
  port?.postMessage({ kind: 'event', event });
}

function held(connectionId: string): Held {
  const h = sessions.get(connectionId);
  if (!h) throw Object.assign(new Error(`No live session ${connectionId} (stale or closed connection).`), { code: 'stale-connection' });
  return h;
}

type Handler<M extends OffscreenMethod> = (p: OffscreenParams<M>) => Promise<unknown>;
const handlers: { [M in OffscreenMethod]: Handler<M> } = {
  async 'offscreen:connect'(p) {
    if (sessions.has(p.connectionId)) throw Object.assign(new Error('connectionId already in use'), { code: 'protocol' });
    const session = new McpSession({
      url: p.url,
      headers: p.headers,
      timeoutMs: p.timeoutMs,
      onListChanged: (category) => emit({ type: 'offscreen:list-changed', connectionId: p.connectionId, category }),
      onClosed: () => {
        if (sessions.delete(p.connectionId)) {
          emit({ type: 'offscreen:session-lost', connectionId: p.connectionId, error: { code: 'network', message: 'The MCP session was closed.' } });
        }
      },
    });
    try {
      const info = await session.connect();
      sessions.set(p.connectionId, { serverId: p.serverId, url: p.url, session, calls: new Map() });
      return info;
    } catch (e) {
      await session.close().catch(() => undefined);
      throw wrap(e, p.url);
    }
  },
  async 'offscreen:list-catalog'(p) {
    const h = held(p.connectionId);
    return h.session.listCatalog().catch((e) => Promise.reject(wrap(e, h.url)));
  },
  async 'offscreen:call-tool'(p) {
    const h = held(p.connectionId);
    const controller = new AbortController();
    h.calls.set(p.operationId, controller);
    try {
      return await h.session.callTool(p.name, p.arguments, controller.signal, (progress) =>
        emit({ type: 'offscreen:progress', connectionId: p.connectionId, operationId: p.operationId, ...progress }),
      );
    } catch (e) {
      throw wrap(e, h.url);
    } finally {
      h.calls.delete(p.operationId);
    }
  },
  async 'offscreen:cancel'(p) {
    const controller = sessions.get(p.connectionId)?.calls.get(p.operationId);
    controller?.abort('cancelled by the user');
    return { cancelled: controller !== undefined };
  },
  async 'offscreen:close'(p) {
    const h = sessions.get(p.connectionId);
    if (!h) return { closed: false };
    sessions.delete(p.connectionId);
    for (const c of h.calls.values()) c.abort('connection closed');
    await h.session.close().catch(() => undefined);
    return { closed: true };
  },
  async 'offscreen:ping'(p) {
    const h = held(p.connectionId);
    return { latencyMs: await h.session.ping().catch((e) => Promise.reject(wrap(e, h.url))) };
  },
};

function wrap(e: unknown, url: string) {
  const w = describeSdkError(e, url);
  return Object.assign(new Error(w.message), w);
}

async function dispatch(raw: unknown): Promise<{ id: number; result: Result<unknown> } | undefined> {
  const env = OffscreenRequestEnvelopeSchema.safeParse(raw);
  if (!env.success) {
    console.warn('[offscreen] dropped a malformed request envelope');
    return undefined;
  }
  const { id, method } = env.data;
  const params = OffscreenRequestSchemas[method].safeParse(env.data.params);
  if (!params.success) return { id, result: fail('bad-request', `Invalid parameters for ${method}.`) };
  try {
    const value = await (handlers[method] as Handler<typeof method>)(params.data as never);
    return { id, result: ok(value) };
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown; httpStatus?: unknown };
    const code = typeof err.code === 'string' ? err.code : 'protocol';
    const message = typeof err.message === 'string' ? err.message : String(e);
    return { id, result: fail(code, message, typeof err.httpStatus === 'number' ? err.httpStatus : undefined) };
  }
}

/**
 * Connects to the worker. When the worker goes away (evicted or restarted) this document closes
 * itself with every session it held: a new worker instance creates a fresh document, so no
 * session of an old worker can be read, called or closed by a new one (SPEC C6, C7), and the
 * document never keeps waking an idle worker by reconnecting.
 */
export function startOffscreenHost() {
  const p = chrome.runtime.connect({ name: OFFSCREEN_PORT });
  port = p;
  p.onMessage.addListener((msg) => {
    void dispatch(msg).then((reply) => {
      if (reply && port === p) p.postMessage({ kind: 'response', ...reply });
    });
  });
  p.onDisconnect.addListener(() => {
    port = undefined;
    const closing = [...sessions.values()].map((h) => {
      for (const c of h.calls.values()) c.abort('worker restarted');
      return h.session.close().catch(() => undefined);
    });
    sessions.clear();
    void Promise.allSettled(closing).then(() => window.close());
  });
  p.postMessage({ kind: 'event', event: { type: 'offscreen:hello', documentId } });
}
