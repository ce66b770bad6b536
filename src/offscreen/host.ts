/**
 * The offscreen side of the worker ↔ offscreen Port: validates each request, runs it against
 * the session that owns its `connectionId`, and answers with a {@link Result} envelope.
 * A request naming a connection this document does not hold, or one that is no longer the
 * current connection of its server, is refused (SPEC C6). Cancels go through per-connection
 * {@link CancelRecords}, so a cancel that overtakes its call still wins (SPEC H2, H3).
 */
import {
  OFFSCREEN_PORT,
  OffscreenRequestEnvelopeSchema,
  OffscreenRequestSchemas,
  type OffscreenEvent,
  type OffscreenMethod,
  type OffscreenParams,
} from '../protocol/offscreen.js';
import { isErrorAction, isWireErrorCode } from '../protocol/error-codes.js';
import { fail, ok, type Result } from '../protocol/result.js';
import { CancelRecords } from './cancel-records.js';
import { describeSdkError } from './errors.js';
import { McpSession } from './session.js';
import { ElicitationRelay } from './elicitation-relay.js';
import { droppedResponseLogger } from './dropped-log.js';
import { appendRequestLog } from '../storage/request-log.js';

interface Held {
  serverId: string;
  url: string;
  session: McpSession;
  cancels: CancelRecords;
}

/** How long a closing document waits for handshakes in flight to end (and close) their sessions. */
const CLOSE_GRACE_MS = 3_000;

const noop = () => undefined;

type Handler<M extends OffscreenMethod> = (p: OffscreenParams<M>) => Promise<unknown>;

/**
 * A request that failed because its session died says so, instead of e.g. "404: check the URL";
 * one the server refused for an unknown session already says it was not run.
 */
function lostOr(h: Held, e: Error) {
  if (!h.session.lost || (e as { code?: unknown }).code === 'session-lost') return e;
  return Object.assign(new Error('The MCP session ended while this request was running; it was not sent again.'), { code: 'session-lost' });
}

function handshakeLost() {
  return Object.assign(new Error('The MCP session ended while connecting; a new one will be opened.'), { code: 'session-lost' });
}

function wrap(e: unknown, url: string, session?: McpSession) {
  const w = describeSdkError(e, url);
  // The challenge of a refused request goes to the worker's AuthManager (SPEC E3, E7).
  if ((w.httpStatus === 401 || w.httpStatus === 403) && session?.lastChallenge) w.wwwAuthenticate = session.lastChallenge;
  return Object.assign(new Error(w.message), w);
}

/**
 * Connects to the worker. When the worker goes away (evicted or restarted) this document closes
 * itself with every session it held: a new worker instance creates a fresh document, so no
 * session of an old worker can be read, called or closed by a new one (SPEC C6, C7), and the
 * document never keeps waking an idle worker by reconnecting.
 */
export function startOffscreenHost() {
  // Everything below belongs to this one connection to the worker; nothing is kept at module level.
  const sessions = new Map<string, Held>();
  /** serverId → the connectionId the worker most recently opened for it; older ones are stale. */
  const currentByServer = new Map<string, string>();
  /** Connects still handshaking: a worker that goes away meanwhile must not leave them open. */
  const connecting = new Set<Promise<unknown>>();
  let port: chrome.runtime.Port | undefined;
  const documentId = crypto.randomUUID().replace(/-/g, '');

  /** Form-mode elicitation questions waiting for the user's answer in the panel (SPEC I1). */
  const elicitations = new ElicitationRelay((event) => emit(event));

  function emit(event: OffscreenEvent) {
    port?.postMessage({ kind: 'event', event });
  }

  function held(connectionId: string): Held {
    const h = sessions.get(connectionId);
    if (!h || currentByServer.get(h.serverId) !== connectionId)
      throw Object.assign(new Error(`No live session ${connectionId} (stale or closed connection).`), { code: 'stale-connection' });
    return h;
  }

  const handlers: { [M in OffscreenMethod]: Handler<M> } = {
    async 'offscreen:connect'(p) {
      if (sessions.has(p.connectionId)) throw Object.assign(new Error('connectionId already in use'), { code: 'protocol' });
      // A newer connection supersedes whatever this server had: close it so nothing leaks.
      const previous = currentByServer.get(p.serverId);
      currentByServer.set(p.serverId, p.connectionId);
      if (previous) void drop(previous, 'Superseded by a newer connection.');
      const session = new McpSession({
        url: p.url,
        headers: p.headers,
        timeoutMs: p.timeoutMs,
        onElicitation: (params, signal) => elicitations.ask(p.connectionId, params, signal),
        onDroppedResponse: droppedResponseLogger(p.serverId, appendRequestLog),
        onListChanged: (category) => {
          if (sessions.get(p.connectionId)?.session === session)
            emit({ type: 'offscreen:list-changed', connectionId: p.connectionId, category });
        },
        onClosed: (reason) => {
          if (sessions.get(p.connectionId)?.session !== session) return;
          void drop(p.connectionId, reason.message);
          emit({ type: 'offscreen:session-lost', connectionId: p.connectionId, error: reason });
        },
      });
      const handshake = (async () => {
        try {
          const info = await session.connect();
          if (session.lost) throw handshakeLost();
          if (currentByServer.get(p.serverId) !== p.connectionId) {
            throw Object.assign(new Error('A newer connection to this server was opened meanwhile.'), { code: 'stale-connection' });
          }
          sessions.set(p.connectionId, { serverId: p.serverId, url: p.url, session, cancels: new CancelRecords() });
          return info;
        } catch (e) {
          if (currentByServer.get(p.serverId) === p.connectionId) currentByServer.delete(p.serverId);
          await session.close().catch(() => undefined);
          const code = (e as { code?: unknown }).code;
          if (code === 'stale-connection' || code === 'session-lost') throw e;
          // The session died under the handshake (SPEC C7): the attempt fails and is retried, never committed.
          throw session.lost ? handshakeLost() : wrap(e, p.url, session);
        }
      })();
      const settled = handshake.then(noop, noop);
      connecting.add(settled);
      void settled.then(() => connecting.delete(settled));
      return handshake;
    },
    async 'offscreen:list-category'(p) {
      const h = held(p.connectionId);
      const items = await h.session.listCategory(p.category).catch((e) => Promise.reject(lostOr(h, wrap(e, h.url, h.session))));
      return { category: p.category, items };
    },
    async 'offscreen:call-tool'(p) {
      const h = held(p.connectionId);
      // Refused when a cancel already arrived for it, or when the same operation already ran (H2, H3).
      if (!h.cancels.admit(p.operationId)) {
        throw Object.assign(new Error('The call was cancelled before it started; it was not sent.'), { code: 'cancelled' });
      }
      elicitations.callStarted(p.connectionId, p.operationId);
      let refusedUnauthorized = false;
      try {
        const signal = h.cancels.signalOf(p.operationId)!;
        return await h.session.callTool(p.name, p.arguments, signal, (progress) =>
          // The worker refuses events with a message over 1,024 characters: cut it here, so a
          // verbose server still gets its progress bar.
          emit({
            type: 'offscreen:progress',
            connectionId: p.connectionId,
            operationId: p.operationId,
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: String(progress.message).slice(0, 1024) } : {}),
          }),
        );
      } catch (e) {
        // The SDK reports a user abort as a timeout; say what really happened (SPEC H2).
        if (h.cancels.signalOf(p.operationId)?.aborted && sessions.get(p.connectionId) === h && !h.session.lost) {
          throw Object.assign(new Error('The call was cancelled; the server was told to stop.'), { code: 'cancelled' });
        }
        const wrapped = wrap(e, h.url, h.session);
        // A 401 was refused before it ran: the worker may resend it with a fresh token (E9).
        refusedUnauthorized = (wrapped as { httpStatus?: number }).httpStatus === 401 && !h.session.lost;
        throw lostOr(h, wrapped);
      } finally {
        elicitations.callEnded(p.connectionId, p.operationId);
        if (refusedUnauthorized) h.cancels.release(p.operationId);
        else h.cancels.settle(p.operationId);
      }
    },
    async 'offscreen:cancel'(p) {
      const h = sessions.get(p.connectionId);
      if (!h || currentByServer.get(h.serverId) !== p.connectionId) return { cancelled: false };
      const outcome = h.cancels.cancel(p.operationId, 'cancelled by the user');
      return { cancelled: outcome !== 'no-op' };
    },
    async 'offscreen:close'(p) {
      const h = sessions.get(p.connectionId);
      if (!h || currentByServer.get(h.serverId) !== p.connectionId) return { closed: false };
      currentByServer.delete(h.serverId);
      await drop(p.connectionId, 'connection closed');
      return { closed: true };
    },
    async 'offscreen:set-authorization'(p) {
      const h = sessions.get(p.connectionId);
      if (!h || currentByServer.get(h.serverId) !== p.connectionId) return { updated: false };
      h.session.setAuthorization(p.authorization);
      return { updated: true };
    },
    async 'offscreen:answer-elicitation'(p) {
      return elicitations.answer(p);
    },
    async 'offscreen:get-prompt'(p) {
      const h = held(p.connectionId);
      return h.session.getPrompt(p.name, p.arguments).catch((e) => Promise.reject(lostOr(h, wrap(e, h.url, h.session))));
    },
    async 'offscreen:read-resource'(p) {
      const h = held(p.connectionId);
      return h.session.readResource(p.uri).catch((e) => Promise.reject(lostOr(h, wrap(e, h.url, h.session))));
    },
    async 'offscreen:ping'(p) {
      const h = held(p.connectionId);
      return { latencyMs: await h.session.ping().catch((e) => Promise.reject(lostOr(h, wrap(e, h.url, h.session)))) };
    },
  };

  /** Forgets a session, aborts its calls and closes it; safe to call twice. */
  async function drop(connectionId: string, reason: string) {
    const h = sessions.get(connectionId);
    if (!h) return;
    sessions.delete(connectionId);
    elicitations.dropConnection(connectionId);
    h.cancels.close(reason);
    await h.session.close().catch(() => undefined);
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
      const value = await (handlers[method] as Handler<typeof method>)(params.data);
      return { id, result: ok(value) };
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown; httpStatus?: unknown; wwwAuthenticate?: unknown; action?: unknown };
      const code = isWireErrorCode(err.code) ? err.code : 'protocol';
      const message = typeof err.message === 'string' ? err.message : String(e);
      const result = fail(code, message, typeof err.httpStatus === 'number' ? err.httpStatus : undefined);
      if (!result.ok && typeof err.wwwAuthenticate === 'string') result.error.wwwAuthenticate = err.wwwAuthenticate;
      if (!result.ok && isErrorAction(err.action)) result.error.action = err.action;
      return { id, result };
    }
  }

  const connection = chrome.runtime.connect({ name: OFFSCREEN_PORT });
  port = connection;
  connection.onMessage.addListener((msg) => {
    void dispatch(msg).then((reply) => {
      if (reply && port === connection) connection.postMessage({ kind: 'response', ...reply });
    });
  });
  connection.onDisconnect.addListener(() => {
    port = undefined;
    const closing = [...sessions.keys()].map((id) => drop(id, 'worker restarted'));
    // A handshake that ends now finds its server no longer current and closes its own session.
    currentByServer.clear();
    const handshakes = Promise.all([...connecting]);
    const grace = new Promise((r) => setTimeout(r, CLOSE_GRACE_MS));
    void Promise.allSettled([...closing, Promise.race([handshakes, grace])]).then(() => window.close());
  });
  connection.postMessage({ kind: 'event', event: { type: 'offscreen:hello', documentId } });
}
