/**
 * The offscreen document's table of MCP sessions: which sessions it holds, which connection is
 * the current one of each server (an older one is stale and refused, SPEC C6), and the sessions
 * that ended while no worker listened, kept (bounded) for the next claim (SPEC C7).
 */
import type { CheckedListing, HeldSession } from '../protocol/offscreen.js';
import type { WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';
import { CancelRecords } from './cancel-records.js';
import { saidError } from './errors.js';

/** What the table needs of a session; the host holds `McpSession`s, unit tests a fake. */
export interface ClosableSession {
  close(): Promise<void>;
}

export interface Held<S extends ClosableSession> {
  serverId: string;
  url: string;
  fingerprint: string;
  /** The revision the session speaks (SPEC R1), told to a worker that adopts it. */
  protocolVersion?: string;
  session: S;
  cancels: CancelRecords;
  /** Calls in flight: cancelled when the worker that asked for them goes away. */
  calls: Set<string>;
  /** The last valid listing of each category, handed to a worker that adopts the session. */
  catalog: HeldSession['catalog'];
  stale: Set<HeldSession['stale'][number]>;
  catalogGeneration: number;
  /** Listings made on this session so far; each listing's number is the count after it. */
  listed: number;
  /** The number of the listing each category holds now. */
  listingOf: Partial<Record<CatalogCategory, number>>;
  /** What the worker made of the listing a category holds now (told after it committed it). */
  checked: NonNullable<HeldSession['checked']>;
}

type CatalogCategory = keyof HeldSession['catalog'];

/** Keeps a new listing of `category` in place of the last; returns its number. What a worker made of the last one goes with it. */
export function recordListing(h: Held<ClosableSession>, category: CatalogCategory, items: unknown[]): number {
  h.catalog[category] = items;
  h.catalogGeneration++;
  h.listingOf[category] = ++h.listed;
  delete h.checked[category];
  return h.listed;
}

/**
 * Keeps what a worker made of a listing, only while the category still holds that listing and
 * only whole (one hash per item); false otherwise, and nothing is kept.
 */
export function keepChecked(h: Held<ClosableSession>, category: CatalogCategory, checked: CheckedListing): boolean {
  if (h.listingOf[category] !== checked.listing || checked.items.length !== checked.hashes.length) return false;
  h.checked[category] = checked;
  return true;
}

export interface LostSession {
  serverId: string;
  connectionId: string;
  error: WireError;
}

/** Sessions that ended with no worker connected, kept (bounded) for the next claim. */
export const MAX_LOST_WHILE_AWAY = 64;

export class SessionTable<S extends ClosableSession> {
  readonly #sessions = new Map<string, Held<S>>();
  /** serverId → the connectionId the worker most recently opened for it; older ones are stale. */
  readonly #currentByServer = new Map<string, string>();
  readonly #lostWhileAway: LostSession[] = [];

  /** `onDrop` hears each connection the table forgets (its elicitation questions end with it). */
  constructor(private readonly onDrop: (connectionId: string) => void) {}

  /** Whether `connectionId` names a session the table holds, current or not. */
  has(connectionId: string): boolean {
    return this.#sessions.has(connectionId);
  }

  /** The session of `connectionId` while it is its server's current connection. */
  current(connectionId: string): Held<S> | undefined {
    const h = this.#sessions.get(connectionId);
    return h && this.#currentByServer.get(h.serverId) === connectionId ? h : undefined;
  }

  /** {@link current}, or the `stale-connection` refusal a request for any other connection gets. */
  held(connectionId: string): Held<S> {
    const h = this.current(connectionId);
    if (!h) throw saidError('stale-connection', say('reasonStaleConnection'));
    return h;
  }

  /** The entry of `connectionId` if it holds `session`: hooks of a superseded or uncommitted session find none. */
  entryOf(connectionId: string, session: S): Held<S> | undefined {
    const h = this.#sessions.get(connectionId);
    return h?.session === session ? h : undefined;
  }

  /** Whether `connectionId` is still the connection the worker most recently opened for `serverId`. */
  isCurrent(serverId: string, connectionId: string): boolean {
    return this.#currentByServer.get(serverId) === connectionId;
  }

  /** Makes `connectionId` the current connection of `serverId`; returns the one it supersedes. */
  open(serverId: string, connectionId: string): string | undefined {
    const previous = this.#currentByServer.get(serverId);
    this.#currentByServer.set(serverId, connectionId);
    return previous;
  }

  /** An opening that failed: `serverId` has no current connection, unless a newer one took over. */
  abandon(serverId: string, connectionId: string): void {
    if (this.isCurrent(serverId, connectionId)) this.#currentByServer.delete(serverId);
  }

  /** Records the session of a handshake that succeeded. */
  commit(connectionId: string, entry: { serverId: string; url: string; fingerprint: string; protocolVersion?: string; session: S }): void {
    this.#sessions.set(connectionId, {
      ...entry,
      cancels: new CancelRecords(),
      calls: new Set(),
      catalog: {},
      stale: new Set(),
      catalogGeneration: 0,
      listed: 0,
      listingOf: {},
      checked: {},
    });
  }

  /** Closes `connectionId` if it is current; false for a stale or unknown one. */
  async close(connectionId: string, reason: string): Promise<boolean> {
    const h = this.current(connectionId);
    if (!h) return false;
    this.#currentByServer.delete(h.serverId);
    await this.drop(connectionId, reason);
    return true;
  }

  /** Forgets a session, aborts its calls and closes it; safe to call twice. */
  async drop(connectionId: string, reason: string): Promise<void> {
    const h = this.#sessions.get(connectionId);
    if (!h) return;
    this.#sessions.delete(connectionId);
    this.onDrop(connectionId);
    h.cancels.close(reason);
    await h.session.close().catch(() => undefined);
  }

  /** A session that ended while no worker listened, reported at the next claim. */
  rememberLost(lost: LostSession): void {
    this.#lostWhileAway.push(lost);
    this.#lostWhileAway.splice(0, Math.max(0, this.#lostWhileAway.length - MAX_LOST_WHILE_AWAY));
  }

  /** What a claiming worker adopts: the current sessions, and the ones lost meanwhile (handed over once). */
  claim(): { sessions: HeldSession[]; lost: LostSession[] } {
    const sessions: HeldSession[] = [...this.#sessions.entries()]
      .filter(([connectionId, h]) => this.isCurrent(h.serverId, connectionId))
      .map(([connectionId, h]) => ({
        serverId: h.serverId,
        connectionId,
        fingerprint: h.fingerprint,
        ...(h.protocolVersion ? { protocolVersion: h.protocolVersion } : {}),
        catalogGeneration: h.catalogGeneration,
        catalog: h.catalog,
        stale: [...h.stale],
        listings: h.listingOf,
        ...(Object.keys(h.checked).length > 0 ? { checked: h.checked } : {}),
      }));
    return { sessions, lost: this.#lostWhileAway.splice(0) };
  }

  /**
   * The worker that asked for the calls in flight is gone and cannot receive their results: they
   * are cancelled (the server is told to stop) and never resent (SPEC H3). Sessions stay, and so
   * do the calls `keep` names: tasks, which the document follows to their end (SPEC R6).
   */
  cancelCalls(reason: string, keep: (operationId: string) => boolean = () => false): void {
    for (const h of this.#sessions.values()) for (const op of [...h.calls]) if (!keep(op)) h.cancels.cancel(op, reason);
  }
}
