/**
 * The offscreen side of the worker ↔ offscreen Port: validates each request, runs it against
 * the session that owns its `connectionId`, and answers with a {@link Result} envelope.
 * A request naming a connection this document does not hold, or one that is no longer the
 * current connection of its server, is refused (SPEC C6). Cancels go through per-connection
 * {@link CancelRecords}, so a cancel that overtakes its call still wins (SPEC H2, H3).
 */
import {
  OFFSCREEN_RECONNECT,
  OffscreenRequestEnvelopeSchema,
  OffscreenRequestSchemas,
  type HeldSession,
  type OffscreenEvent,
  type OffscreenMethod,
  type OffscreenParams,
} from '../protocol/offscreen.js';
import { isErrorAction, isWireErrorCode } from '../protocol/error-codes.js';
import { fail, ok, type Result, type WireError } from '../protocol/result.js';
import { say, WordingSchema, type Said } from '../protocol/wording.js';
import { CancelRecords } from './cancel-records.js';
import { describeSdkError } from './errors.js';
import { McpSession } from './session.js';
import { ElicitationRelay } from './elicitation-relay.js';
import { droppedResponseLogger } from './dropped-log.js';
import { appendRequestLog } from '../storage/request-log.js';
import { randomId } from '../common/random-id.js';
import { ChannelLink, newChannelNonce, offscreenPortName, OFFSCREEN_CHANNEL, type LinkChannel } from '../protocol/offscreen-channel.js';

interface Held {
  serverId: string;
  url: string;
  fingerprint: string;
  session: McpSession;
  cancels: CancelRecords;
  /** Calls in flight: cancelled when the worker that asked for them goes away. */
  calls: Set<string>;
  /** The last valid listing of each category, handed to a worker that adopts the session. */
  catalog: HeldSession['catalog'];
  stale: Set<HeldSession['stale'][number]>;
  catalogGeneration: number;
}

/** The part of `chrome.runtime` the host uses; a fake in unit tests. */
export interface HostRuntime {
  id?: string;
  connect(info: { name: string }): chrome.runtime.Port;
  onMessage?: { addListener(cb: (message: unknown, sender: { id?: string }) => void): void };
}

/**
 * Hands the worker its end of a new data channel with the Port's nonce (offscreen-channel.ts).
 * In the document: `navigator.serviceWorker`, whose `ready` registration's active worker is this
 * extension's service worker (`controller` is null: an offscreen document is not controlled).
 */
export type OfferChannel = (channel: MessagePort, nonce: string) => Promise<void>;

async function offerToServiceWorker(channel: MessagePort, nonce: string): Promise<void> {
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) throw new Error('no active service worker');
  worker.postMessage({ type: OFFSCREEN_CHANNEL, nonce }, [channel]);
}

/** Where there is no service worker to reach (Node tests), everything stays on the Port. */
const defaultOffer: OfferChannel | undefined =
  typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? offerToServiceWorker : undefined;

/** Sessions that ended with no worker connected, kept (bounded) for the next claim. */
const MAX_LOST_WHILE_AWAY = 64;

type Handler<M extends OffscreenMethod> = (p: OffscreenParams<M>) => Promise<unknown>;

/**
 * A request that failed because its session died says so, instead of e.g. "404: check the URL";
 * one the server refused for an unknown session already says it was not run.
 */
/** An Error whose code and wording `toWireError` carries across to the worker and the panel. */
function saidError(code: 'session-lost' | 'cancelled' | 'stale-connection', said: Said): Error {
  return Object.assign(new Error(said.message), { code, wording: said.wording });
}

function lostOr(h: Held, e: Error) {
  if (!h.session.lost || (e as { code?: unknown }).code === 'session-lost') return e;
  return saidError('session-lost', say('reasonSessionEndedRunning'));
}

function handshakeLost() {
  return saidError('session-lost', say('reasonSessionEndedConnecting'));
}

function wrap(e: unknown, url: string, session?: McpSession) {
  const w = describeSdkError(e, url);
  // The challenge of a refused request goes to the worker's AuthManager (SPEC E3, E7).
  if ((w.httpStatus === 401 || w.httpStatus === 403) && session?.lastChallenge) w.wwwAuthenticate = session.lastChallenge;
  return Object.assign(new Error(w.message), w);
}

/**
 * Starts the host. The document keeps its sessions when the worker's Port drops (Chrome stops an
 * idle worker every ~30 s; the document outlives it): the next worker instance claims the
 * document and adopts the sessions whose configuration still matches (SPEC C6, C7). The document
 * opens a Port only when a worker asks for it (its start-up `OFFSCREEN_RECONNECT` message) or
 * when it has something to report (a session ended, a list changed) — never on a timer, so it
 * does not keep an idle worker awake. Closing the document is the worker's decision.
 */
export function startOffscreenHost(runtime: HostRuntime = chrome.runtime, offerChannel: OfferChannel | undefined = defaultOffer) {
  const sessions = new Map<string, Held>();
  /** serverId → the connectionId the worker most recently opened for it; older ones are stale. */
  const currentByServer = new Map<string, string>();
  /** The link over the current Port: its data channel once the worker paired it, the Port before. */
  let port: ChannelLink | undefined;
  /** The worker instance the document answers; set by a claim, or by the first request of a fresh document. */
  let owner: string | undefined;
  const lostWhileAway: { serverId: string; connectionId: string; error: WireError }[] = [];
  const documentId = randomId();

  /** Form-mode elicitation questions waiting for the user's answer in the panel (SPEC I1). */
  const elicitations = new ElicitationRelay((event) => emit(event));

  function emit(event: OffscreenEvent) {
    port?.postMessage({ kind: 'event', event });
  }

  function held(connectionId: string): Held {
    const h = sessions.get(connectionId);
    if (!h || currentByServer.get(h.serverId) !== connectionId) throw saidError('stale-connection', say('reasonStaleConnection'));
    return h;
  }

  /** A session event while no worker listens: remembered for the next claim, and the worker is woken to hear it. */
  function whileAway(report: () => void) {
    report();
    if (!port) connectToWorker();
  }

  const handlers: { [M in OffscreenMethod]: Handler<M> } = {
    async 'offscreen:claim'() {
      const list: HeldSession[] = [...sessions.entries()]
        .filter(([connectionId, h]) => currentByServer.get(h.serverId) === connectionId)
        .map(([connectionId, h]) => ({
          serverId: h.serverId,
          connectionId,
          fingerprint: h.fingerprint,
          catalogGeneration: h.catalogGeneration,
          catalog: h.catalog,
          stale: [...h.stale],
        }));
      return { sessions: list, lost: lostWhileAway.splice(0) };
    },
    async 'offscreen:connect'(p) {
      if (sessions.has(p.connectionId)) throw Object.assign(new Error('connectionId already in use'), { code: 'protocol' });
      // A newer connection supersedes whatever this server had: close it so nothing leaks.
      const previous = currentByServer.get(p.serverId);
      currentByServer.set(p.serverId, p.connectionId);
      if (previous) void drop(previous, 'Superseded by a newer connection.');
      const via = port;
      let entry: Held | undefined;
      const session = new McpSession({
        url: p.url,
        headers: p.headers,
        timeoutMs: p.timeoutMs,
        ...(p.appViews ? { appViews: true } : {}),
        onElicitation: (params, signal) => elicitations.ask(p.connectionId, params, signal),
        onDroppedResponse: droppedResponseLogger(p.serverId, appendRequestLog),
        onListChanged: (category) => {
          if (!entry || sessions.get(p.connectionId) !== entry) return;
          entry.catalogGeneration++;
          entry.stale.add(category);
          if (category === 'resources') entry.stale.add('resourceTemplates');
          if (port) emit({ type: 'offscreen:list-changed', connectionId: p.connectionId, category });
          else whileAway(() => undefined);
        },
        onClosed: (reason) => {
          if (sessions.get(p.connectionId)?.session !== session) return;
          void drop(p.connectionId, reason.message);
          if (port) emit({ type: 'offscreen:session-lost', connectionId: p.connectionId, error: reason });
          else
            whileAway(() => {
              lostWhileAway.push({ serverId: p.serverId, connectionId: p.connectionId, error: reason });
              lostWhileAway.splice(0, Math.max(0, lostWhileAway.length - MAX_LOST_WHILE_AWAY));
            });
        },
      });
      try {
        const info = await session.connect();
        if (session.lost) throw handshakeLost();
        if (currentByServer.get(p.serverId) !== p.connectionId) {
          throw Object.assign(new Error('A newer connection to this server was opened meanwhile.'), { code: 'stale-connection' });
        }
        // The worker that asked went away meanwhile: nobody knows this connectionId, so it is closed.
        if (port !== via) throw Object.assign(new Error('The worker that opened this connection stopped.'), { code: 'stale-connection' });
        entry = {
          serverId: p.serverId,
          url: p.url,
          fingerprint: p.fingerprint,
          session,
          cancels: new CancelRecords(),
          calls: new Set(),
          catalog: {},
          stale: new Set(),
          catalogGeneration: 0,
        };
        sessions.set(p.connectionId, entry);
        return info;
      } catch (e) {
        if (currentByServer.get(p.serverId) === p.connectionId) currentByServer.delete(p.serverId);
        await session.close().catch(() => undefined);
        const code = (e as { code?: unknown }).code;
        if (code === 'stale-connection' || code === 'session-lost') throw e;
        // The server forgot the session under the handshake (SPEC C7): the attempt fails and is
        // retried, never committed. Any other failure (a 401, a refused initialize) says what it is:
        // the SDK closes the transport on a failed initialize, so `lost` alone does not mean that.
        throw session.lostCode === 'session-lost' ? handshakeLost() : wrap(e, p.url, session);
      }
    },
    async 'offscreen:list-category'(p) {
      const h = held(p.connectionId);
      // A list_changed that arrives while this listing runs marks the category stale again.
      h.stale.delete(p.category);
      try {
        const items = await h.session.listCategory(p.category);
        h.catalog[p.category] = items;
        h.catalogGeneration++;
        return { category: p.category, items };
      } catch (e) {
        h.stale.add(p.category);
        throw lostOr(h, wrap(e, h.url, h.session));
      }
    },
    async 'offscreen:call-tool'(p) {
      const h = held(p.connectionId);
      // Refused when a cancel already arrived for it, or when the same operation already ran (H2, H3).
      if (!h.cancels.admit(p.operationId)) {
        throw saidError('cancelled', say('reasonCancelledBeforeStart'));
      }
      elicitations.callStarted(p.connectionId, p.operationId);
      h.calls.add(p.operationId);
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
          throw saidError('cancelled', say('reasonCancelledServerTold'));
        }
        const wrapped = wrap(e, h.url, h.session);
        // A 401 was refused before it ran: the worker may resend it with a fresh token (E9).
        refusedUnauthorized = (wrapped as { httpStatus?: number }).httpStatus === 401 && !h.session.lost;
        throw lostOr(h, wrapped);
      } finally {
        h.calls.delete(p.operationId);
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

  /**
   * Fences old worker instances: a claim makes its sender the owner; a fresh document takes the
   * first sender as owner; any other sender is refused before its request runs.
   */
  function admitOwner(method: OffscreenMethod, sender: string): boolean {
    if (method === 'offscreen:claim' || owner === undefined) owner = sender;
    return owner === sender;
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
    if (!admitOwner(method, env.data.owner)) {
      return {
        id,
        result: fail('stale-connection', 'Refused: this request came from a service worker instance that no longer owns the MCP sessions.'),
      };
    }
    try {
      const value = await (handlers[method] as Handler<typeof method>)(params.data);
      return { id, result: ok(value) };
    } catch (e) {
      const err = e as {
        code?: unknown;
        message?: unknown;
        httpStatus?: unknown;
        wwwAuthenticate?: unknown;
        action?: unknown;
        wording?: unknown;
      };
      const code = isWireErrorCode(err.code) ? err.code : 'protocol';
      const message = typeof err.message === 'string' ? err.message : String(e);
      const result = fail(code, message, typeof err.httpStatus === 'number' ? err.httpStatus : undefined);
      if (!result.ok && typeof err.wwwAuthenticate === 'string') result.error.wwwAuthenticate = err.wwwAuthenticate;
      if (!result.ok && isErrorAction(err.action)) result.error.action = err.action;
      const wording = WordingSchema.safeParse(err.wording);
      if (!result.ok && wording.success && wording.data) result.error.wording = wording.data;
      return { id, result };
    }
  }

  /**
   * The worker that asked for the calls in flight is gone and cannot receive their results: they
   * are cancelled (the server is told to stop) and never resent (SPEC H3). Sessions stay.
   */
  function workerGone() {
    for (const h of sessions.values()) for (const op of [...h.calls]) h.cancels.cancel(op, 'the service worker that asked for it stopped');
  }

  /**
   * Answers on the link. Structured clone (the channel) throws on what JSON (the Port) silently
   * dropped, e.g. a function in a value: the request then fails instead of waiting forever.
   */
  function reply(link: ChannelLink, answer: { id: number; result: Result<unknown> }) {
    try {
      link.postMessage({ kind: 'response', ...answer });
    } catch {
      link.postMessage({
        kind: 'response',
        id: answer.id,
        result: fail('protocol', 'The answer could not be passed to the service worker.'),
      });
    }
  }

  function connectToWorker() {
    if (port) return;
    // A new Port, a new channel: its nonce rides in the Port's name and in the offer.
    const nonce = newChannelNonce();
    const link = new ChannelLink(runtime.connect({ name: offscreenPortName(nonce) }));
    port = link;
    link.onMessage.addListener((msg) => {
      void dispatch(msg).then((answer) => {
        if (answer && port === link) reply(link, answer);
      });
    });
    link.onDisconnect.addListener(() => {
      if (port !== link) return;
      port = undefined;
      workerGone();
    });
    link.port.postMessage({ kind: 'event', event: { type: 'offscreen:hello', documentId } });
    if (!offerChannel) return;
    const channel = new MessageChannel();
    link.attach(channel.port1 as LinkChannel);
    // Unanswered or refused, the offer changes nothing: the worker never switches, so neither does this side.
    offerChannel(channel.port2, nonce).catch((e: unknown) =>
      console.warn('[offscreen] the data channel was not offered; staying on the Port', e),
    );
  }

  runtime.onMessage?.addListener((message, sender) => {
    if (sender.id === runtime.id && (message as { type?: unknown } | null)?.type === OFFSCREEN_RECONNECT) connectToWorker();
  });
  connectToWorker();
}
