/**
 * McpManager: per-server connection state, lazy and start-up connects, reconciliation with
 * stored configuration, session recovery and the catalog mirror (SPEC C1–C7, D1–D2, H3, N5–N8).
 * It decides; the offscreen document only executes. Config, permissions and credentials come
 * through injected ports so the manager runs unchanged in Node tests.
 *
 * The pieces it is built from are pure and tested on their own:
 * - every status change goes through {@link transition} (an event that does not apply to the
 *   current state is simply ignored, which is how late messages from superseded attempts die);
 * - connect/disconnect per server go through one {@link KeyedSerialQueue} (shared attempts,
 *   disconnect barrier, epoch for drift detection);
 * - each server's catalog is a {@link CatalogMirror} (listing, paced refreshes, warnings).
 */
import type { McpServerConfig } from '../../storage/config-schema.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../../storage/config-schema.js';
import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from '../../protocol/mcp-shapes.js';
import { MAX_SERVER_WARNINGS, MAX_WARNING_LENGTH, type ServerView } from '../../protocol/panel.js';
import { RemoteError, toWireError, type WireError } from '../../protocol/result.js';
import { say, type Said } from '../../protocol/wording.js';
import type { ErrorAction } from '../../protocol/error-codes.js';
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import { bindingFingerprint, sameBinding } from './binding.js';
import {
  DISCONNECTED,
  isErrorKind,
  transition,
  type ConnectionEvent,
  type ConnectionState,
  type ErrorKind,
  type ErrorReason,
} from './connection-state.js';
import { KeyedSerialQueue } from './serial-queue.js';
import { CATALOG_CATEGORIES, CatalogGenerations, type CatalogCategory } from './catalog-generations.js';
import { CatalogMirror, listingRefusal, LOST_CODES } from './catalog-mirror.js';
import { adoptedList } from './adopted-catalog.js';
import { runsOnlyAsTask, wireNameOf } from './catalog-limits.js';
import { cancelledBeforeSending, UnsentCalls, unlessAborted } from './unsent-calls.js';
import { settleIncludeTools } from './include-tools.js';
import { applyListing, definitionChanged, reviewsNewTools } from './pins.js';
import { definitionOf } from './pin-definitions.js';
import { changesOf } from './pin-changes.js';

export type Reason = ErrorReason;

export interface ManagerPorts {
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
  /** Whether the browser lets us reach the server's origin (SPEC L1). */
  hasHostPermission(url: string): Promise<boolean>;
  /** Headers carrying credentials for this server (Authorization, static headers). */
  headersFor(config: McpServerConfig): Promise<Record<string, string>>;
  newId(): string;
  /** Waits between session-recovery attempts; injectable so tests need not sleep. */
  delay?(ms: number): Promise<void>;
  now?(): number;
  /**
   * Told the start time (epoch ms) of every connect attempt in progress whenever that changes,
   * so a new worker instance measures the attempt's time limit from its real start (SPEC C7).
   */
  saveAttempts?(attempts: Record<string, number>): void;
  /**
   * Told when a server's imported `includeTools` was settled against its first known tool list
   * (the manager already uses the result), so the stored entry is settled the same way.
   */
  saveIncludeTools?(serverId: string, toolNames: string[]): void;
  /**
   * Told when a committed listing changed the server's pins (SPEC S2; the manager already uses
   * the result), so the stored entry gets the same {@link applyListing} with the same time.
   */
  savePins?(serverId: string, category: CatalogCategory, items: readonly Record<string, unknown>[], now: number): void;
}

/** What a new worker instance found in the offscreen document it claimed (SPEC C6, C7). */
export interface StartFindings {
  sessions: OffscreenValue<'offscreen:claim'>['sessions'];
  lost: OffscreenValue<'offscreen:claim'>['lost'];
  /** serverId → start (epoch ms) of a connect attempt a previous instance left in progress. */
  attempts: Record<string, number>;
}

export interface ManagerOptions {
  /** Least time between two refreshes of one category of one server after `list_changed` (N5). */
  refreshIntervalMs?: number;
  now?: () => number;
  /** The panel can host MCP App views (the build has the sandbox page): sessions declare the UI extension. */
  appViews?: boolean;
}

/** At most two refreshes per second per server and category, however fast the server announces changes. */
const REFRESH_INTERVAL_MS = 500;

/** A tool call as its observers see it (SPEC I3: a server's question during a call names it). */
export interface ObservedCall {
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** Told of every tool call, whichever path started it (panel runner, AgentTools, re-runs). */
export interface CallObserver {
  /** Before anything else happens for the call. */
  started(operationId: string, call: ObservedCall): void;
  /** After it ended, with a result (`error` undefined) or an error, before its caller sees the outcome. */
  settled(operationId: string, error?: unknown): void;
}

/** Backoff between reconnects after a session loss: doubles from the base, capped (SPEC N5). */
const RECOVERY_BASE_DELAY_MS = 250;
export const RECOVERY_MAX_DELAY_MS = 4000;

export function recoveryDelay(attempt: number): number {
  return Math.min(RECOVERY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), RECOVERY_MAX_DELAY_MS);
}

interface Runtime {
  config: McpServerConfig;
  state: ConnectionState;
  /** Connection being handshaken; list_changed seen for it is replayed after it commits. */
  candidate?: string;
  candidateChanged: Set<CatalogCategory>;
  /** The candidate's session was reported lost before it could commit. */
  candidateLost?: boolean;
  catalog: CatalogMirror;
  /** Set while the catalog kept from an earlier session is shown without a live session (C2). */
  cachedSince?: number;
  /** The user pressed Disconnect: listing tools does not wake it again until something connects it. */
  heldOff?: boolean;
  /** Start (epoch ms) of the connect attempt in progress, while `connecting`. */
  connectingSince?: number;
  /** The start a previous worker instance recorded, taken over by the next attempt. */
  resumeSince?: number;
  /** Bumped when an attempt runs out of time: a handshake of an older value commits nothing. */
  attemptSeq: number;
  /** The revision the live session speaks (SPEC R1): from its connect, or from the document that held it. */
  protocolVersion?: string;
}

/**
 * The reason a card shows for a wire error, with the button that helps. An action set where the
 * error was made (AuthManager, offscreen error mapping) wins; otherwise it follows from the code
 * and, for a refused token, from how the server authenticates.
 */
function reasonOf(w: WireError, auth: McpServerConfig['auth']['kind']): ErrorReason {
  const kind: ErrorKind = isErrorKind(w.code)
    ? w.code
    : w.code === 'session-lost'
      ? 'network'
      : w.code === 'needs-auth'
        ? 'auth'
        : 'protocol';
  const action = w.action ?? defaultAction(w, auth);
  return {
    kind,
    message: w.message,
    ...(w.httpStatus !== undefined ? { httpStatus: w.httpStatus } : {}),
    ...(action ? { action } : {}),
    ...(w.wording ? { wording: w.wording } : {}),
  };
}

function defaultAction(w: WireError, auth: McpServerConfig['auth']['kind']): ErrorAction | undefined {
  switch (w.code) {
    case 'auth':
      // A static token (or none) can only be fixed in the settings; OAuth signs in again.
      return auth === 'oauth' ? 'reauthorize' : 'edit';
    case 'needs-auth':
      return 'authorize';
    case 'timeout':
      return 'edit';
    case 'network':
    case 'session-lost':
    case 'offscreen-lost':
    case 'stale-connection':
      return 'connect';
    case 'http-status':
      return w.httpStatus === 404 ? 'edit' : 'retry';
    default:
      return undefined;
  }
}

const superseded = () => new RemoteError({ code: 'superseded', ...say('reasonSuperseded') });

const noop = () => undefined;

/** What the caller of a tool hears when its call's session was lost: it is never resent (H3, N7). */
function callLostError(w: WireError, name: string, tool: string): RemoteError {
  // The server refused the call for an unknown session id: it never ran (N7).
  if (w.code === 'session-lost' && (w.httpStatus === 400 || w.httpStatus === 404)) {
    return new RemoteError({ code: 'session-lost', ...say('reasonCallSessionGone', { name, tool }), action: 'retry' });
  }
  // The offscreen host refuses a call on a superseded connection before sending it.
  if (w.code === 'stale-connection') {
    return new RemoteError({ code: 'session-lost', ...say('reasonCallConnectionReplaced', { name, tool }), action: 'retry' });
  }
  return new RemoteError({ code: 'session-lost', ...say('reasonCallConnectionLost', { name, tool }), action: 'retry' });
}

export class McpManager {
  readonly #servers = new Map<string, Runtime>();
  readonly #listeners = new Set<() => void>();
  readonly #callObservers = new Set<CallObserver>();
  readonly #queue = new KeyedSerialQueue<void>();
  readonly #catalogs: CatalogGenerations;
  readonly #unsent = new UnsentCalls();
  readonly #refreshIntervalMs: number;
  readonly #appViews: boolean;
  readonly #now: () => number;
  readonly #disconnects = new Set<Promise<void>>();
  /** Tool calls in flight, for the keep-alive (pending work). */
  #callsInFlight = 0;

  constructor(
    private readonly ports: ManagerPorts,
    options: ManagerOptions = {},
  ) {
    this.#now = options.now ?? ports.now?.bind(ports) ?? Date.now;
    this.#refreshIntervalMs = options.refreshIntervalMs ?? REFRESH_INTERVAL_MS;
    this.#appViews = options.appViews === true;
    this.#catalogs = new CatalogGenerations(this.#now);
  }

  /** Whether anything is in progress that the worker must stay alive for: a call or a connect attempt. */
  hasPendingWork(): boolean {
    return this.#callsInFlight > 0 || [...this.#servers.values()].some((rt) => rt.state.status === 'connecting');
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  observeCalls(observer: CallObserver): () => void {
    this.#callObservers.add(observer);
    return () => this.#callObservers.delete(observer);
  }

  #changed() {
    for (const l of this.#listeners) l();
  }

  /** Applies one state-machine event; returns whether it changed anything. */
  #apply(rt: Runtime, event: ConnectionEvent): boolean {
    const next = transition(rt.state, event);
    if (next === rt.state) return false;
    this.#setState(rt, next);
    this.#changed();
    return true;
  }

  /** Every state change goes through here: it keeps the attempt's start time and saves it. */
  #setState(rt: Runtime, next: ConnectionState) {
    const was = rt.state.status;
    rt.state = next;
    if (next.status === 'connecting' && was !== 'connecting') {
      rt.connectingSince = rt.resumeSince ?? this.#now();
      rt.resumeSince = undefined;
    } else if (next.status !== 'connecting') {
      rt.connectingSince = undefined;
    } else {
      return;
    }
    this.#saveAttempts();
  }

  #saveAttempts() {
    const attempts: Record<string, number> = {};
    for (const [id, rt] of this.#servers) if (rt.connectingSince !== undefined) attempts[id] = rt.connectingSince;
    this.ports.saveAttempts?.(attempts);
  }

  /** The committed connection, if the server is ready. */
  #live(rt: Runtime): string | undefined {
    return rt.state.status === 'ready' ? rt.state.connectionId : undefined;
  }

  #create(config: McpServerConfig): Runtime {
    const rt: Runtime = {
      config,
      state: DISCONNECTED,
      candidateChanged: new Set(),
      attemptSeq: 0,
      catalog: this.#mirrorOf(config.id, () => rt),
    };
    return rt;
  }

  /** The catalog mirror of a server's runtime: it refreshes on the runtime's live connection. */
  #mirrorOf(serverId: string, runtime: () => Runtime): CatalogMirror {
    return new CatalogMirror(
      serverId,
      this.#catalogs,
      {
        request: (method, params) => this.ports.request(method, params),
        live: () => this.#live(runtime()),
        changed: () => this.#changed(),
        authLost: (connectionId, w) => this.#authLost(runtime(), connectionId, reasonOf(w, runtime().config.auth.kind)),
        toolsCommitted: () => this.#settleIncludeTools(runtime()),
        committed: (categories) => {
          this.#applyPins(runtime(), categories);
          this.#tellChecks(runtime(), categories);
        },
      },
      { refreshIntervalMs: this.#refreshIntervalMs, now: this.#now },
    );
  }

  /**
   * A new worker instance's start (SPEC C6, C7): adopts every session the offscreen document
   * still holds whose binding fingerprint matches the stored entry — ready at once with the
   * catalog the document kept, no new `initialize` — and closes the others; resumes the connect
   * attempts a previous instance left in progress with their original start; then connects
   * what connects on startup.
   */
  async start(configs: McpServerConfig[], found: StartFindings): Promise<void> {
    const closing: Promise<unknown>[] = [];
    for (const held of found.sessions) {
      const config = configs.find((c) => c.id === held.serverId);
      if (!config?.enabled || bindingFingerprint(config) !== held.fingerprint || this.#servers.has(config.id)) {
        closing.push(this.ports.request('offscreen:close', { connectionId: held.connectionId }).catch(noop));
        continue;
      }
      const rt = this.#create(config);
      this.#servers.set(config.id, rt);
      const listed = CATALOG_CATEGORIES.filter((c) => held.catalog[c] !== undefined);
      rt.catalog.commit(
        rt.catalog.begin(),
        listed,
        listed.map((c) => adoptedList(config, held, c)),
      );
      rt.protocolVersion = held.protocolVersion;
      this.#setState(rt, { status: 'ready', connectionId: held.connectionId });
      for (const c of CATALOG_CATEGORIES) if (held.stale.includes(c) || held.catalog[c] === undefined) rt.catalog.markDirty(c);
    }
    const resume = new Map(Object.entries(found.attempts));
    // A session that ended while no worker listened was live: it is rebuilt like a lost one.
    for (const lost of found.lost) if (!resume.has(lost.serverId)) resume.set(lost.serverId, this.#now());
    for (const [id, since] of resume) {
      const config = configs.find((c) => c.id === id);
      if (!config?.enabled || this.#servers.has(id)) continue;
      const rt = this.#create(config);
      rt.resumeSince = since;
      this.#servers.set(id, rt);
      void this.connect(id).catch(noop);
    }
    this.reconcile(configs, { startup: true });
    this.#saveAttempts();
    await Promise.all(closing);
  }

  /** Brings live sessions in line with the stored configuration (SPEC C2, C3). */
  reconcile(configs: McpServerConfig[], { startup = false } = {}) {
    const seen = new Set<string>();
    for (const config of configs) {
      seen.add(config.id);
      const rt = this.#servers.get(config.id);
      if (!rt) {
        this.#servers.set(config.id, this.#create(config));
        if (config.enabled && config.connectOnStartup) void this.connect(config.id).catch(noop);
        continue;
      }
      const before = rt.config;
      rt.config = config;
      // The stored entry may not have caught up yet with an allow-list settled or pins moved in memory.
      this.#settleIncludeTools(rt);
      this.#applyPins(rt, CATALOG_CATEGORIES);
      if (!config.enabled) {
        if (rt.state.status !== 'disconnected' || this.#queue.isBusy(config.id) || rt.cachedSince !== undefined) void this.#disconnect(rt);
      } else if (!before.enabled) {
        // Enabling is like a start for this server: it connects now only if it is not lazy (C2),
        // and a lazy one is again woken by its first use.
        rt.heldOff = false;
        if (config.connectOnStartup) void this.connect(config.id).catch(noop);
      } else if (!sameBinding(before, config)) {
        // Barrier first: the old client closes before the new binding connects (C3, C4).
        void this.#disconnect(rt);
        if (config.connectOnStartup) void this.connect(config.id).catch(noop);
      } else if (startup && config.connectOnStartup && rt.state.status === 'disconnected') {
        void this.connect(config.id).catch(noop);
      }
    }
    for (const [id, rt] of [...this.#servers]) {
      if (seen.has(id)) continue;
      this.#servers.delete(id);
      void this.#disconnect(rt);
    }
    this.#changed();
  }

  /** Connects, sharing an in-flight attempt among concurrent callers (SPEC C4). */
  connect(serverId: string): Promise<void> {
    const rt = this.#require(serverId);
    if (!rt.config.enabled) {
      return Promise.reject(new RemoteError({ code: 'config-invalid', ...say('reasonServerDisabled') }));
    }
    rt.heldOff = false;
    if (rt.state.status === 'ready') return Promise.resolve();
    return this.#queue.connect(serverId, (epoch) => this.#attempt(rt, epoch));
  }

  async #attempt(rt: Runtime, epoch: number): Promise<void> {
    const id = rt.config.id;
    if (!this.#queue.isCurrent(id, epoch) || this.#servers.get(id) !== rt) throw superseded();
    if (rt.state.status === 'ready') return;
    const recovering = rt.state.status === 'connecting';
    if (!recovering) this.#apply(rt, { type: 'connect' });
    try {
      await this.#withinConnectTimeout(rt, () => (recovering ? this.#recover(rt, epoch) : this.#handshake(rt, epoch)));
    } catch (e) {
      const w = toWireError(e);
      // A session lost during the handshake is retried with backoff, like a lost ready session (C7).
      if (w.code === 'session-lost' && this.#queue.isCurrent(id, epoch)) {
        this.#apply(rt, { type: 'session-lost', reason: reasonOf(w, rt.config.auth.kind) });
        // Re-read: #apply moved the state on (TypeScript still narrows it from above).
        if ((rt.state as ConnectionState).status === 'connecting') return this.#recover(rt, epoch);
        throw new RemoteError(w);
      }
      if (w.code !== 'superseded' && this.#queue.isCurrent(id, epoch)) {
        this.#apply(
          rt,
          w.code === 'needs-auth'
            ? { type: 'auth-required', reason: reasonOf(w, rt.config.auth.kind) }
            : { type: 'failed', reason: reasonOf(w, rt.config.auth.kind) },
        );
      }
      throw new RemoteError(w);
    }
  }

  /**
   * Runs one connect attempt (a handshake, or the recovery of a lost session) within the server's
   * connect time limit, measured from the attempt's start — which a previous worker instance may
   * have recorded (SPEC C7). When time runs out the attempt ends in `error`; a handshake still on
   * the network commits nothing and closes its candidate when it ends.
   */
  async #withinConnectTimeout(rt: Runtime, work: () => Promise<void>): Promise<void> {
    const limit = rt.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const left = (rt.connectingSince ?? this.#now()) + limit - this.#now();
    const timedOut = () => {
      rt.attemptSeq++;
      return new RemoteError({
        code: 'timeout',
        ...say('reasonConnectTimeout', { name: rt.config.name, seconds: Math.round(limit / 1000), origin: new URL(rt.config.url).origin }),
        action: 'retry',
      });
    };
    // The time ran out while no worker instance was running: no new attempt at all.
    if (left <= 0) throw timedOut();
    const running = work();
    running.catch(noop);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), left);
    });
    expired.catch(noop);
    try {
      await Promise.race([running, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Opens a candidate, lists its catalog and commits it only if the config still matches and no
   * disconnect happened meanwhile (C5). On any failure or drift the candidate is closed.
   */
  async #handshake(rt: Runtime, epoch: number): Promise<void> {
    const config = rt.config;
    const stillWanted = this.#stillWanted(rt, epoch);
    await this.#checkHostPermission(config);
    const headers = await this.ports.headersFor(config);
    if (!stillWanted()) throw superseded();
    const connectionId = this.ports.newId();
    rt.candidate = connectionId;
    rt.candidateChanged.clear();
    rt.candidateLost = false;
    let opened = false;
    try {
      const info = await this.ports.request('offscreen:connect', this.#connectParams(config, connectionId, headers));
      opened = true;
      if (!stillWanted()) throw superseded();
      const generation = rt.catalog.begin();
      const results = await Promise.all(CATALOG_CATEGORIES.map((c) => rt.catalog.list(connectionId, c)));
      if (!stillWanted()) throw superseded();
      const refusal = listingRefusal(results, info.capabilities, rt.candidateLost);
      if (refusal) throw refusal;
      const next = transition(rt.state, { type: 'connected', connectionId });
      if (next === rt.state) throw superseded();
      rt.catalog.commit(generation, CATALOG_CATEGORIES, results);
      rt.protocolVersion = info.protocolVersion;
      this.#commitCandidate(rt, next);
    } catch (e) {
      if (rt.candidate === connectionId) rt.candidate = undefined;
      if (opened) await this.ports.request('offscreen:close', { connectionId }).catch(noop);
      throw e;
    }
  }

  /** Whether an attempt begun now may still commit later: same queue epoch, runtime, time slot and binding. */
  #stillWanted(rt: Runtime, epoch: number): () => boolean {
    const config = rt.config;
    const seq = rt.attemptSeq;
    return () =>
      this.#queue.isCurrent(config.id, epoch) &&
      this.#servers.get(config.id) === rt &&
      rt.attemptSeq === seq &&
      rt.config.enabled &&
      sameBinding(rt.config, config);
  }

  async #checkHostPermission(config: McpServerConfig): Promise<void> {
    if (await this.ports.hasHostPermission(config.url)) return;
    throw new RemoteError({
      code: 'permission',
      ...say('reasonNoHostPermission', { origin: new URL(config.url).origin }),
      action: 'grant-permission',
    });
  }

  #connectParams(config: McpServerConfig, connectionId: string, headers: Record<string, string>): OffscreenParams<'offscreen:connect'> {
    return {
      serverId: config.id,
      connectionId,
      url: config.url,
      headers,
      timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fingerprint: bindingFingerprint(config),
      ...(this.#appViews ? { appViews: true } : {}),
    };
  }

  /** The candidate becomes the live connection; list changes seen during its handshake are refreshed now. */
  #commitCandidate(rt: Runtime, next: ConnectionState) {
    rt.cachedSince = undefined;
    const changedMeanwhile = [...rt.candidateChanged];
    rt.candidate = undefined;
    this.#setState(rt, next);
    this.#changed();
    for (const c of changedMeanwhile) rt.catalog.markDirty(c);
  }

  /**
   * Bounded reconnect after a session loss (C7, N5, N7): backoff with a cap between attempts,
   * each attempt counted by the state machine, which gives up into `error` after the maximum.
   * Nothing that was in flight is replayed: only the session is rebuilt.
   */
  async #recover(rt: Runtime, epoch: number): Promise<void> {
    const id = rt.config.id;
    for (;;) {
      if (!this.#queue.isCurrent(id, epoch) || this.#servers.get(id) !== rt || rt.state.status !== 'connecting') throw superseded();
      await (this.ports.delay ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(recoveryDelay(rt.state.attempt));
      if (!this.#queue.isCurrent(id, epoch) || rt.state.status !== 'connecting') throw superseded();
      try {
        await this.#handshake(rt, epoch);
        return;
      } catch (e) {
        const w = toWireError(e);
        if (w.code === 'superseded' || !this.#queue.isCurrent(id, epoch)) throw new RemoteError(w);
        if (w.code === 'needs-auth') {
          this.#apply(rt, { type: 'auth-required', reason: reasonOf(w, rt.config.auth.kind) });
          throw new RemoteError(w);
        }
        this.#apply(rt, { type: 'session-lost', reason: reasonOf(w, rt.config.auth.kind) });
        if (rt.state.status !== 'connecting') throw new RemoteError(w);
      }
    }
  }

  /**
   * The live session's server now wants an authorization the worker cannot get alone (its PRM
   * names another authorization server, its grant was revoked): the card asks for it, with the
   * Authorize button, instead of staying "ready" while every call fails; the session is closed,
   * and the user's Authorize connects anew (registering with a new authorization server, E10).
   */
  #authLost(rt: Runtime, connectionId: string, reason: ErrorReason) {
    if (this.#live(rt) !== connectionId) return;
    this.#apply(rt, { type: 'auth-required', reason });
    void this.ports.request('offscreen:close', { connectionId }).catch(noop);
  }

  /** The current session died; rebuild it in the background unless it is already stale (C6). */
  #sessionLost(rt: Runtime, connectionId: string, reason: ErrorReason) {
    if (this.#live(rt) !== connectionId) return;
    this.#apply(rt, { type: 'session-lost', reason });
    void this.#queue.connect(rt.config.id, (epoch) => this.#attempt(rt, epoch)).catch(noop);
  }

  /** A barrier: no attempt started before it can commit, and later connects queue behind it (C4). */
  disconnect(serverId: string): Promise<void> {
    const rt = this.#servers.get(serverId);
    if (!rt) return Promise.resolve();
    rt.heldOff = true;
    return this.#disconnect(rt, { keepCatalog: true });
  }

  /**
   * `keepCatalog`: the binding is unchanged, so the last catalog stays known (marked stale) for
   * the agent and the runner, whose first use connects again (C2). Otherwise it is forgotten.
   */
  #disconnect(rt: Runtime, { keepCatalog = false } = {}): Promise<void> {
    const id = rt.config.id;
    const connectionId = this.#live(rt);
    const hadCatalog = rt.state.status === 'ready' || rt.state.status === 'connecting' || rt.cachedSince !== undefined;
    this.#apply(rt, { type: 'disconnect' });
    if (keepCatalog && hadCatalog) {
      rt.cachedSince ??= this.#now();
    } else {
      rt.catalog.forget();
      rt.cachedSince = undefined;
      this.#changed();
    }
    rt.catalog.clearDirty();
    const closing = connectionId ? this.ports.request('offscreen:close', { connectionId }).then(noop, noop) : Promise.resolve();
    const done = this.#queue.disconnect(id, () => closing);
    this.#disconnects.add(done);
    void done.finally(() => this.#disconnects.delete(done)).catch(noop);
    return done;
  }

  /**
   * The server's credentials were forgotten (E10): its session must not go on with the old token
   * and its catalog is no longer authorized. Closed as for a changed binding (credential writes
   * are not part of the binding, binding.ts), then connected again if it connects on its own.
   */
  credentialsForgotten(serverId: string): Promise<void> {
    const rt = this.#servers.get(serverId);
    if (!rt) return Promise.resolve();
    const closed = this.#disconnect(rt);
    if (rt.config.enabled && rt.config.connectOnStartup) void this.connect(serverId).catch(noop);
    return closed;
  }

  /** Resolves once every disconnect requested so far has finished (its session closed). */
  async disconnectsSettled(): Promise<void> {
    await Promise.allSettled([...this.#disconnects]);
  }

  /** Lazy connect on first use (SPEC C2). */
  async ensureReady(serverId: string): Promise<Runtime> {
    const rt = this.#require(serverId);
    if (rt.state.status !== 'ready') await this.connect(serverId);
    return rt;
  }

  #connectionOf(rt: Runtime): string {
    const connectionId = this.#live(rt);
    if (!connectionId) throw new RemoteError({ code: 'not-connected', ...say('reasonNotConnected', { name: rt.config.name }) });
    return connectionId;
  }

  /**
   * Runs a tool once. If the session dies while it runs, the call is reported failed and is
   * never sent again (H3, N7); the session itself is rebuilt in the background.
   */
  async callTool(serverId: string, tool: string, args: Record<string, unknown>, operationId: string): Promise<CallToolResult> {
    for (const o of this.#callObservers) o.started(operationId, { serverId, tool, arguments: args });
    this.#callsInFlight++;
    let error: unknown;
    try {
      return await this.#callTool(serverId, tool, args, operationId);
    } catch (e) {
      error = e;
      throw e;
    } finally {
      this.#callsInFlight--;
      for (const o of this.#callObservers) o.settled(operationId, error);
    }
  }

  async #callTool(serverId: string, tool: string, args: Record<string, unknown>, operationId: string): Promise<CallToolResult> {
    const rt = await this.#readyToCall(serverId, tool, operationId);
    const connectionId = this.#connectionOf(rt);
    // A tool offered under an alias is called by its own name (N8, catalog-limits.ts).
    const listed = this.#listedTool(rt, tool);
    try {
      return await this.ports.request('offscreen:call-tool', {
        connectionId,
        operationId,
        name: listed ? wireNameOf(listed) : tool,
        arguments: args,
        timeoutMs: rt.config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(listed && runsOnlyAsTask(listed) ? { asTask: true } : {}),
      });
    } catch (e) {
      const w = toWireError(e);
      // A 403 scope challenge is answered where the call was made (step-up, E7); the session stays.
      if (w.code === 'needs-auth' && w.httpStatus !== 403) this.#authLost(rt, connectionId, reasonOf(w, rt.config.auth.kind));
      // An answer about the call itself (timeout, server error, cancelled …) keeps its reason,
      // even if the connection changed meanwhile.
      if (!LOST_CODES.has(w.code)) throw new RemoteError(w);
      // Any loss code on the live connection means its session is gone: recover (C7).
      this.#sessionLost(rt, connectionId, reasonOf(w, rt.config.auth.kind));
      throw callLostError(w, rt.config.name, tool);
    }
  }

  /** The server's runtime once it is ready for `tool`. */
  async #readyToCall(serverId: string, tool: string, operationId: string): Promise<Runtime> {
    // Until it is sent, the call may wait for a lazy connect or a recovery; a cancel wins (H2).
    const unsent = this.#unsent.begin(operationId);
    let rt: Runtime;
    try {
      rt = await unlessAborted(this.ensureReady(serverId), unsent, () => cancelledBeforeSending(tool));
      if (unsent.aborted) throw cancelledBeforeSending(tool);
    } finally {
      this.#unsent.sent(operationId);
    }
    if (rt.config.disabledTools.includes(tool)) {
      throw new RemoteError({ code: 'tool-disabled', ...say('reasonToolDisabled', { tool }) });
    }
    if (!this.#listedTool(rt, tool)) {
      throw new RemoteError({ code: 'unknown-tool', ...say('reasonUnknownTool', { tool }) });
    }
    return rt;
  }

  /**
   * Cancels a call that has not been handed to the offscreen host yet; it is then never sent.
   * False when there is no such call (it was already sent, or never started).
   */
  cancelUnsent(operationId: string): boolean {
    return this.#unsent.cancel(operationId);
  }

  /**
   * First use of the catalog by an agent (C2): enabled lazy servers that are not connected start
   * connecting; their tools are announced through {@link onChange} once listed. A server that
   * failed or needs authorization is left to the user, and so is one the user disconnected.
   */
  wakeLazyServers(): void {
    for (const rt of this.#servers.values()) {
      if (rt.config.enabled && !rt.config.connectOnStartup && rt.state.status === 'disconnected' && !rt.heldOff)
        void this.connect(rt.config.id).catch(noop);
    }
  }

  async ping(serverId: string): Promise<number> {
    const rt = await this.ensureReady(serverId);
    return (await this.ports.request('offscreen:ping', { connectionId: this.#connectionOf(rt) })).latencyMs;
  }

  /**
   * An interactive authorization failed or was cancelled: a server waiting for authorization
   * keeps `needs-auth` with this newer reason, so the card says what happened (SPEC E9, K8).
   */
  authFailed(serverId: string, reason: Reason) {
    const rt = this.#servers.get(serverId);
    if (rt && rt.state.status !== 'ready') this.#apply(rt, { type: 'auth-required', reason });
  }

  /** Events from the offscreen host; those for a connection that is not current are ignored (SPEC C6). */
  handleEvent(event: OffscreenEvent) {
    if (event.type !== 'offscreen:list-changed' && event.type !== 'offscreen:session-lost') return;
    const servers = [...this.#servers.values()];
    const rt = servers.find((r) => this.#live(r) === event.connectionId);
    if (event.type === 'offscreen:session-lost') {
      if (rt) this.#sessionLost(rt, event.connectionId, reasonOf(event.error, rt.config.auth.kind));
      else {
        const candidate = servers.find((r) => r.candidate === event.connectionId);
        if (candidate) candidate.candidateLost = true;
      }
      return;
    }
    if (rt) {
      rt.catalog.markDirty(event.category);
      return;
    }
    // A change during the handshake would otherwise be lost between listing and commit.
    servers.find((r) => r.candidate === event.connectionId)?.candidateChanged.add(event.category);
  }

  /** The offscreen document is gone: every session died with it. Recover what was ready (SPEC C7, D3). */
  handleOffscreenLost() {
    for (const rt of this.#servers.values()) {
      const connectionId = this.#live(rt);
      if (connectionId)
        this.#sessionLost(rt, connectionId, {
          kind: 'offscreen-lost',
          ...say('reasonHostClosed'),
          action: 'connect',
        });
    }
  }

  /**
   * Once the tools are first known, an imported allow-list becomes disabled tools — before any
   * view or agent sees the list, so a tool left out is never offered, not even briefly.
   */
  #settleIncludeTools(rt: Runtime) {
    if (rt.config.includeTools === undefined) return;
    const tools = rt.catalog.get<Tool>('tools').items;
    if (tools === null) return;
    const names = tools.map((tool) => tool.name);
    rt.config = settleIncludeTools(rt.config, names);
    this.ports.saveIncludeTools?.(rt.config.id, names);
  }

  /**
   * Compares every committed list with the server's pins (S2) before any view or agent sees it:
   * a changed tool's grants are suspended from the moment its new definition is known.
   */
  #applyPins(rt: Runtime, categories: readonly CatalogCategory[]) {
    const now = this.#now();
    for (const category of categories) {
      const items = rt.catalog.get<Record<string, unknown>>(category).items;
      if (items === null) continue;
      const next = applyListing(rt.config, category, items, now);
      if (next === rt.config) continue;
      rt.config = next;
      this.ports.savePins?.(rt.config.id, category, items, now);
    }
  }

  /**
   * Hands the document what this worker made of the lists it just committed (their checks and
   * definition hashes), so that a later worker instance adopting the session takes them as they
   * are instead of checking and hashing them on its wake. Lost on the way, it costs only that.
   */
  #tellChecks(rt: Runtime, categories: readonly CatalogCategory[]) {
    for (const c of rt.catalog.untoldChecks(categories)) {
      const hashes = c.items.map((item) => definitionOf(c.category, item).hash);
      const checked = { listing: c.listing, items: [...c.items], warnings: c.warnings, hashes };
      void this.ports.request('offscreen:keep-checked', { connectionId: c.connectionId, category: c.category, checked }).catch(noop);
    }
  }

  /** Whether the tool's definition changed since it was pinned: its "always" grants do not apply (S2). */
  definitionChanged(serverId: string, tool: string): boolean {
    const rt = this.#servers.get(serverId);
    return rt !== undefined && definitionChanged(rt.config, tool);
  }

  #items<T>(rt: Runtime, category: CatalogCategory): T[] {
    return this.#shown(rt) ? [...(rt.catalog.get<T>(category).items ?? [])] : [];
  }

  /**
   * Items are hidden unless the server is ready, recovering a lost session, or disconnected with
   * a catalog kept from its last session that first use will refresh (C1, C2).
   */
  #shown(rt: Runtime): boolean {
    const cached = rt.state.status === 'disconnected' && rt.config.enabled && rt.cachedSince !== undefined;
    return rt.state.status === 'ready' || rt.state.status === 'connecting' || cached;
  }

  /** One tool as the server's view lists it, found without copying the list or building any view (every call looks one up). */
  #listedTool(rt: Runtime, name: string): Tool | undefined {
    return this.#shown(rt) ? rt.catalog.get<Tool>('tools').items?.find((t) => t.name === name) : undefined;
  }

  /** The tool `name` of a server as its view lists it (the runner's visibility check). */
  listedTool(serverId: string, name: string): Tool | undefined {
    const rt = this.#servers.get(serverId);
    return rt ? this.#listedTool(rt, name) : undefined;
  }

  /**
   * Since when what the server view shows may be out of date: the catalog is kept from an earlier
   * session, or a category could not be refreshed and keeps its last good list (D2).
   */
  #staleSince(rt: Runtime): number | undefined {
    const times = [rt.catalog.staleSince(), rt.cachedSince].filter((t) => t !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  #require(serverId: string): Runtime {
    const rt = this.#servers.get(serverId);
    if (!rt) throw new RemoteError({ code: 'unknown-server', ...say('reasonNoSuchServer', { id: serverId }) });
    return rt;
  }

  /** The connection state of one server (for the panel's detail view and tests). */
  state(serverId: string): ConnectionState | undefined {
    return this.#servers.get(serverId)?.state;
  }

  /** Catalog-limit warnings of the server's current lists (SPEC N8). */
  warnings(serverId: string): Said[] {
    const rt = this.#servers.get(serverId);
    if (!rt) return [];
    // A refresh failure is news only while the server is ready: otherwise the state says more.
    return [...(rt.state.status === 'ready' ? rt.catalog.refreshWarnings() : []), ...rt.catalog.limitWarnings()];
  }

  views(): ServerView[] {
    return [...this.#servers.values()].map((rt) => ({
      id: rt.config.id,
      name: rt.config.name,
      url: rt.config.url,
      authKind: rt.config.auth.kind,
      enabled: rt.config.enabled,
      connectOnStartup: rt.config.connectOnStartup,
      status: rt.state.status,
      ...('reason' in rt.state ? { reason: rt.state.reason } : {}),
      ...(rt.state.status === 'ready' && rt.protocolVersion ? { protocolVersion: rt.protocolVersion } : {}),
      ...(rt.state.status === 'connecting' && rt.connectingSince !== undefined ? { connectingSince: rt.connectingSince } : {}),
      tools: this.#items<Tool>(rt, 'tools'),
      prompts: this.#items<Prompt>(rt, 'prompts'),
      resources: this.#items<Resource>(rt, 'resources'),
      resourceTemplates: this.#items<ResourceTemplate>(rt, 'resourceTemplates'),
      disabledTools: rt.config.disabledTools,
      warnings: this.warnings(rt.config.id)
        .slice(0, MAX_SERVER_WARNINGS)
        .map((w) => (w.message.length > MAX_WARNING_LENGTH ? { ...w, message: `${w.message.slice(0, MAX_WARNING_LENGTH - 1)}…` } : w)),
      ...this.#staleView(rt),
      ...this.#pinView(rt),
    }));
  }

  #pinView(rt: Runtime): Pick<ServerView, 'changes' | 'reviewNewTools'> {
    const changes = changesOf(rt.config);
    return { reviewNewTools: reviewsNewTools(rt.config), ...(changes.length ? { changes } : {}) };
  }

  #staleView(rt: Runtime): { staleSince?: number } {
    const since = this.#staleSince(rt);
    return since !== undefined ? { staleSince: since } : {};
  }
}
