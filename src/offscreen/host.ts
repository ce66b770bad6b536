/**
 * The offscreen side of the worker ↔ offscreen Port: validates each request, runs it against
 * the session that owns its `connectionId`, and answers with a result envelope (dispatcher.ts).
 * A request naming a connection this document does not hold, or one that is no longer the
 * current connection of its server, is refused (SPEC C6; session-table.ts), and so is a request
 * of a worker instance that no longer owns the document (owner-fence.ts). Cancels go through
 * per-connection cancel records, so a cancel that overtakes its call still wins (SPEC H2, H3).
 */
import { randomId } from '../common/random-id.js';
import { OFFSCREEN_RECONNECT, type OffscreenEvent, type OffscreenParams } from '../protocol/offscreen.js';
import { RemoteError, type WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';
import { dispatch, reply, type Handlers } from './dispatcher.js';
import { saidError, sdkFailure } from './errors.js';
import { OwnerFence } from './owner-fence.js';
import { McpSession, type SessionOptions } from './session.js';
import { ModernSession } from './modern-session.js';
import { openSession, type EraCache } from './open-session.js';
import { SessionTable, keepChecked, recordListing, type Held } from './session-table.js';
import { TaskTable } from './task-table.js';
import type { TaskStatusUpdate } from './task-call.js';
import { isRunningTask, type TaskView } from '../protocol/tasks.js';
import { ElicitationRelay } from './elicitation-relay.js';
import { droppedResponseLogger } from './dropped-log.js';
import { appendRequestLog } from '../storage/request-log.js';
import {
  ChannelLink,
  newChannelNonce,
  offerNewChannel,
  offerToServiceWorker,
  offscreenPortName,
  OFFSCREEN_CHANNEL,
} from '../protocol/offscreen-channel.js';

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

const offerToWorker: OfferChannel = (channel, nonce) => offerToServiceWorker(OFFSCREEN_CHANNEL, channel, nonce);

/** Where there is no service worker to reach (Node tests), everything stays on the Port. */
const defaultOffer: OfferChannel | undefined = typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? offerToWorker : undefined;

/** A session of either era: the 2025 SDK's (stateful or not) or the v2 client's (2026-07-28, stateless). */
type AnySession = McpSession | ModernSession;
type HeldMcp = Held<AnySession>;

/** A request that failed because its session died says so, instead of e.g. "404: check the URL". */
function lostOr(h: HeldMcp, e: RemoteError): RemoteError {
  if (!h.session.lost || e.code === 'session-lost') return e;
  return saidError('session-lost', say('reasonSessionEndedRunning'));
}

/** What a request on an open session threw, described for the worker. */
function failureOn(h: HeldMcp, e: unknown): RemoteError {
  return lostOr(h, sdkFailure(e, h.url, h.session.lastChallenge));
}

function handshakeLost(): RemoteError {
  return saidError('session-lost', say('reasonSessionEndedConnecting'));
}

/**
 * The document's end of the worker link. The document keeps its sessions when the worker's Port
 * drops (Chrome stops an idle worker every ~30 s; the document outlives it): the next worker
 * instance claims the document and adopts the sessions whose configuration still matches (SPEC
 * C6, C7). The document opens a Port only when a worker asks for it (its start-up
 * `OFFSCREEN_RECONNECT` message) or when it has something to report (a session ended, a list
 * changed) — never on a timer, so it does not keep an idle worker awake. Closing the document is
 * the worker's decision.
 */
class OffscreenHost {
  readonly #runtime: HostRuntime;
  readonly #offerChannel: OfferChannel | undefined;
  /** The link over the current Port: its data channel once the worker paired it, the Port before. */
  #port: ChannelLink | undefined;
  readonly #fence = new OwnerFence();
  readonly #documentId = randomId();
  /** Form-mode elicitation questions waiting for the user's answer in the panel (SPEC I1). */
  readonly #elicitations = new ElicitationRelay((event) => this.#ask(event));
  /** Each server URL's era, learnt once per document (versioning: clients SHOULD cache it per origin). */
  readonly #eras: EraCache = new Map();
  readonly #table = new SessionTable<AnySession>((connectionId) => this.#elicitations.dropConnection(connectionId));
  /** The tasks this document runs and has run (SPEC R6); they go on while no worker is there. */
  readonly #tasks = new TaskTable((task) => this.#taskChanged(task));
  readonly #handlers: Handlers = this.#handlerTable();

  constructor(runtime: HostRuntime, offerChannel: OfferChannel | undefined) {
    this.#runtime = runtime;
    this.#offerChannel = offerChannel;
  }

  start() {
    this.#runtime.onMessage?.addListener((message, sender) => {
      if (sender.id === this.#runtime.id && (message as { type?: unknown } | null)?.type === OFFSCREEN_RECONNECT) this.#connectToWorker();
    });
    this.#connectToWorker();
  }

  #handlerTable(): Handlers {
    const table = this.#table;
    return {
      'offscreen:claim': async () => {
        // After the claim's answer: questions a task asked while no worker listened (R6).
        setTimeout(() => this.#elicitations.untold().forEach((event) => this.#emit(event)), 0);
        return { ...table.claim(), tasks: this.#tasks.list() };
      },
      'offscreen:connect': (p) => this.#connect(p),
      'offscreen:list-category': (p) => this.#listCategory(p),
      'offscreen:keep-checked': async (p) => {
        const h = table.current(p.connectionId);
        return { kept: !!h && keepChecked(h, p.category, p.checked) };
      },
      'offscreen:call-tool': (p) => this.#callTool(p),
      'offscreen:cancel': async (p) => {
        const h = table.current(p.connectionId);
        return { cancelled: !!h && h.cancels.cancel(p.operationId, 'cancelled by the user') !== 'no-op' };
      },
      'offscreen:close': async (p) => ({ closed: await table.close(p.connectionId, 'connection closed') }),
      'offscreen:set-authorization': async (p) => {
        const h = table.current(p.connectionId);
        h?.session.setAuthorization(p.authorization);
        return { updated: !!h };
      },
      'offscreen:answer-elicitation': async (p) => this.#elicitations.answer(p),
      'offscreen:get-prompt': (p) => this.#onSession(p.connectionId, (s) => s.getPrompt(p.name, p.arguments)),
      'offscreen:read-resource': (p) => this.#onSession(p.connectionId, (s) => s.readResource(p.uri)),
      'offscreen:complete': ({ connectionId, ...ask }) => this.#onSession(connectionId, (s) => s.complete(ask)),
      'offscreen:ping': async (p) => ({ latencyMs: await this.#onSession(p.connectionId, (s) => s.ping()) }),
      'offscreen:heap': async () => heapNow(),
      'offscreen:clear-tasks': async (p) => {
        this.#tasks.clearEnded(p.serverId);
        return { tasks: this.#tasks.list() };
      },
    };
  }

  async #onSession<T>(connectionId: string, run: (session: AnySession) => Promise<T>): Promise<T> {
    const h = this.#table.held(connectionId);
    return run(h.session).catch((e: unknown) => Promise.reject(failureOn(h, e)));
  }

  async #connect(p: OffscreenParams<'offscreen:connect'>) {
    const table = this.#table;
    if (table.has(p.connectionId)) throw new RemoteError({ code: 'protocol', message: 'connectionId already in use' });
    // A newer connection supersedes whatever this server had: close it so nothing leaks.
    const previous = table.open(p.serverId, p.connectionId);
    if (previous) void table.drop(previous, 'Superseded by a newer connection.');
    const via = this.#port;
    let session: AnySession | undefined;
    try {
      session = await openSession(this.#eras, p, (modern) => this.#newSession(p, modern));
      const info = await session.connect();
      this.#checkStillWanted(p, session, via);
      table.commit(p.connectionId, {
        serverId: p.serverId,
        url: p.url,
        fingerprint: p.fingerprint,
        ...(info.protocolVersion ? { protocolVersion: info.protocolVersion } : {}),
        session,
      });
      return info;
    } catch (e) {
      table.abandon(p.serverId, p.connectionId);
      // The era is asked again next time: a server may have been upgraded or moved (versioning: re-probe when the cached assumption fails).
      this.#eras.delete(p.url);
      await session?.close().catch(() => undefined);
      const code = (e as { code?: unknown }).code;
      if (code === 'stale-connection' || code === 'session-lost' || e instanceof RemoteError) throw e;
      // The server forgot the session under the handshake (SPEC C7): the attempt fails and is
      // retried, never committed. Any other failure (a 401, a refused initialize) says what it is:
      // the SDK closes the transport on a failed initialize, so `lost` alone does not mean that.
      throw session?.lostCode === 'session-lost' ? handshakeLost() : sdkFailure(e, p.url, session?.lastChallenge);
    }
  }

  /** A handshake that succeeded is committed only while its session, its connection and its worker are all still there. */
  #checkStillWanted(p: OffscreenParams<'offscreen:connect'>, session: AnySession, via: ChannelLink | undefined) {
    if (session.lost) throw handshakeLost();
    if (!this.#table.isCurrent(p.serverId, p.connectionId)) {
      throw new RemoteError({ code: 'stale-connection', message: 'A newer connection to this server was opened meanwhile.' });
    }
    // The worker that asked went away meanwhile: nobody knows this connectionId, so it is closed.
    if (this.#port !== via) throw new RemoteError({ code: 'stale-connection', message: 'The worker that opened this connection stopped.' });
  }

  #newSession(p: OffscreenParams<'offscreen:connect'>, modern: Record<string, unknown> | undefined): AnySession {
    const options: SessionOptions = {
      url: p.url,
      headers: p.headers,
      timeoutMs: p.timeoutMs,
      ...(p.appViews ? { appViews: true } : {}),
      onElicitation: (params, signal) => this.#elicitations.ask(p.connectionId, params, signal),
      onDroppedResponse: droppedResponseLogger(p.serverId, appendRequestLog),
      onListChanged: (category) => this.#listChanged(p.connectionId, session, category),
      onClosed: (reason) => this.#sessionClosed(p, session, reason),
    };
    const session: AnySession = modern ? new ModernSession(options, modern) : new McpSession(options);
    return session;
  }

  /** A list_changed of a committed session marks the category stale; a worker away is woken to hear it. */
  #listChanged(connectionId: string, session: AnySession, category: 'tools' | 'prompts' | 'resources') {
    const entry = this.#table.entryOf(connectionId, session);
    if (!entry) return;
    entry.catalogGeneration++;
    entry.stale.add(category);
    if (category === 'resources') entry.stale.add('resourceTemplates');
    if (this.#port) this.#emit({ type: 'offscreen:list-changed', connectionId, category });
    else this.#connectToWorker();
  }

  /** A session that ended on its own is dropped and reported; while no worker listens, remembered for the next claim. */
  #sessionClosed(p: { serverId: string; connectionId: string }, session: AnySession, reason: WireError) {
    if (!this.#table.entryOf(p.connectionId, session)) return;
    void this.#table.drop(p.connectionId, reason.message);
    if (this.#port) return this.#emit({ type: 'offscreen:session-lost', connectionId: p.connectionId, error: reason });
    this.#table.rememberLost({ serverId: p.serverId, connectionId: p.connectionId, error: reason });
    this.#connectToWorker();
  }

  async #listCategory(p: OffscreenParams<'offscreen:list-category'>) {
    const h = this.#table.held(p.connectionId);
    // A list_changed that arrives while this listing runs marks the category stale again.
    h.stale.delete(p.category);
    try {
      const items = await h.session.listCategory(p.category);
      return { category: p.category, items, listing: recordListing(h, p.category, items) };
    } catch (e) {
      h.stale.add(p.category);
      throw failureOn(h, e);
    }
  }

  async #callTool(p: OffscreenParams<'offscreen:call-tool'>) {
    const h = this.#table.held(p.connectionId);
    // Refused when a cancel already arrived for it, or when the same operation already ran (H2, H3).
    if (!h.cancels.admit(p.operationId)) throw saidError('cancelled', say('reasonCancelledBeforeStart'));
    this.#elicitations.callStarted(p.connectionId, p.operationId);
    h.calls.add(p.operationId);
    if (p.asTask) this.#tasks.begin(p.operationId, h.serverId, p.name);
    const startedAt = Date.now();
    // A 2026 server may answer any call with a task: the table learns of it at its first status (R6).
    const tasks = {
      required: p.asTask === true,
      onStatus: (u: TaskStatusUpdate) => {
        if (!this.#tasks.has(p.operationId)) this.#tasks.begin(p.operationId, h.serverId, p.name, startedAt);
        this.#tasks.status(p.operationId, u);
      },
    };
    let refusedUnauthorized = false;
    try {
      const signal = h.cancels.signalOf(p.operationId)!;
      const result = await h.session.callTool(p.name, p.arguments, signal, (progress) => this.#progress(p, progress), tasks);
      this.#tasks.completed(p.operationId, result as { content?: unknown; isError?: unknown });
      return result;
    } catch (e) {
      // The SDK reports a user abort as a timeout; say what really happened (SPEC H2).
      if (h.cancels.signalOf(p.operationId)?.aborted && this.#table.entryOf(p.connectionId, h.session) === h && !h.session.lost) {
        this.#tasks.ended(p.operationId, 'cancelled', say('reasonCancelledServerTold'));
        throw saidError('cancelled', say('reasonCancelledServerTold'));
      }
      const wrapped = sdkFailure(e, h.url, h.session.lastChallenge);
      // A 401 was refused before it ran: the worker may resend it with a fresh token (E9).
      refusedUnauthorized = wrapped.httpStatus === 401 && !h.session.lost;
      const failure = lostOr(h, wrapped);
      this.#tasks.ended(p.operationId, 'failed', failure);
      throw failure;
    } finally {
      h.calls.delete(p.operationId);
      this.#elicitations.callEnded(p.connectionId, p.operationId);
      if (refusedUnauthorized) h.cancels.release(p.operationId);
      else h.cancels.settle(p.operationId);
    }
  }

  /** The worker refuses events with a message over 1,024 characters: cut it here, so a verbose server still gets its progress bar. */
  #progress(p: { connectionId: string; operationId: string }, progress: { progress: number; total?: number; message?: string }) {
    this.#emit({
      type: 'offscreen:progress',
      connectionId: p.connectionId,
      operationId: p.operationId,
      progress: progress.progress,
      ...(progress.total !== undefined ? { total: progress.total } : {}),
      ...(progress.message !== undefined ? { message: String(progress.message).slice(0, 1024) } : {}),
    });
  }

  /** A task's change goes to the worker listening; an ended task wakes one, so an open panel hears of it (R6). */
  #taskChanged(task: TaskView) {
    if (this.#port) this.#emit({ type: 'offscreen:task', task });
    else if (!isRunningTask(task.state)) this.#connectToWorker();
  }

  /** A server's question: to the worker listening, else a worker is woken, and its claim brings the question. */
  #ask(event: OffscreenEvent): boolean {
    if (this.#port) {
      this.#emit(event);
      return true;
    }
    this.#connectToWorker();
    return false;
  }

  #emit(event: OffscreenEvent) {
    this.#port?.postMessage({ kind: 'event', event });
  }

  #connectToWorker() {
    if (this.#port) return;
    // A new Port, a new channel: its nonce rides in the Port's name and in the offer.
    const nonce = newChannelNonce();
    const link = new ChannelLink(this.#runtime.connect({ name: offscreenPortName(nonce) }));
    this.#port = link;
    link.onMessage.addListener((msg) => {
      void dispatch(msg, this.#handlers, this.#fence).then((answer) => {
        if (answer && this.#port === link) reply(link, answer);
      });
    });
    link.onDisconnect.addListener(() => {
      if (this.#port !== link) return;
      this.#port = undefined;
      // A task goes on: its server keeps working on it, and the next worker gets it with its claim (R6).
      this.#table.cancelCalls('the service worker that asked for it stopped', (op) => this.#tasks.has(op));
    });
    link.port.postMessage({ kind: 'event', event: { type: 'offscreen:hello', documentId: this.#documentId } });
    this.#offer(link, nonce);
  }

  #offer(link: ChannelLink, nonce: string) {
    const offer = this.#offerChannel;
    if (offer) offerNewChannel(link, (channel) => offer(channel, nonce), 'offscreen');
  }
}

/** Starts the document's host (see {@link OffscreenHost}). */
export function startOffscreenHost(runtime: HostRuntime = chrome.runtime, offerChannel: OfferChannel | undefined = defaultOffer) {
  new OffscreenHost(runtime, offerChannel).start();
}

/** Chrome's non-standard `performance.memory` (V3's report); nothing where it is missing. */
function heapNow(): { usedBytes?: number; totalBytes?: number } {
  const memory = (performance as { memory?: { usedJSHeapSize?: number; totalJSHeapSize?: number } }).memory;
  return memory?.usedJSHeapSize !== undefined && memory.totalJSHeapSize !== undefined
    ? { usedBytes: memory.usedJSHeapSize, totalBytes: memory.totalJSHeapSize }
    : {};
}
