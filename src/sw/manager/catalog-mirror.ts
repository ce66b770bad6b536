/**
 * The worker's mirror of one server's catalog (SPEC D1, D2, N5, N8): lists categories on a
 * connection, commits them through the shared {@link CatalogGenerations} (newest wins, a failing
 * category keeps its last valid list) after {@link checkCatalogItems} checked them item by item,
 * keeps each category's catalog-limit warnings, and refreshes what a `list_changed` marked dirty
 * at most once per interval per category. Which connection is live, and whether the catalog is
 * shown at all, is the manager's business: the mirror asks.
 */
import type { WireErrorCode } from '../../protocol/error-codes.js';
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import { RemoteError, toWireError, type WireError } from '../../protocol/result.js';
import { say, type ReasonCode, type Said } from '../../protocol/wording.js';
import {
  CATALOG_CATEGORIES,
  coalesce,
  type CatalogCategory,
  type CatalogGenerations,
  type CategoryState,
  type Coalesced,
  type ListResult,
} from './catalog-generations.js';
import { checkCatalogItems } from './catalog-items.js';

/** Codes that mean "the session the call ran on is gone", whatever layer noticed it. */
export const LOST_CODES = new Set<WireErrorCode>(['session-lost', 'offscreen-lost', 'stale-connection']);

/**
 * A listing's outcome, remembering whether it failed because the session was gone, or because
 * the server wants an authorization only the user can give (a scope it challenged for, E7).
 */
/** Which of the document's listings a list is: its connection and the number the document gave it. */
export interface DocumentListing {
  connectionId: string;
  listing: number;
}

export type Listed = ListResult<unknown> & { lost?: boolean; needsAuth?: WireError; listing?: DocumentListing };

/**
 * A list to commit: what the document listed (checked item by item first), or, adopting a
 * session, what an earlier worker instance checked and the document kept (`checked`: its warnings).
 */
export type ToCommit = Listed & { checked?: { warnings: Said[] } };

/** The document's listing a committed list came from, and whether the document already holds our checks of it. */
interface CommittedListing extends DocumentListing {
  told: boolean;
}

const REFRESH_FAILED: Record<CatalogCategory, ReasonCode & `reasonRefresh${string}`> = {
  tools: 'reasonRefreshToolsFailed',
  prompts: 'reasonRefreshPromptsFailed',
  resources: 'reasonRefreshResourcesFailed',
  resourceTemplates: 'reasonRefreshTemplatesFailed',
};

const noop = () => undefined;

/** The categories a server declared in its capabilities (templates come with `resources`). */
function declaredCategories(capabilities: Record<string, unknown> | undefined): CatalogCategory[] {
  const caps = capabilities ?? {};
  return CATALOG_CATEGORIES.filter((c) => Boolean(caps[c === 'resourceTemplates' ? 'resources' : c]));
}

/**
 * Why a handshake's listing (one result per category, in {@link CATALOG_CATEGORIES} order) must
 * not commit, or undefined when it may. A session that died while listing is never committed: its
 * "empty" lists mean nothing (C7). Undeclared categories are empty by definition; they cannot
 * make a failed listing a success (D1).
 */
export function listingRefusal(results: readonly Listed[], capabilities: Record<string, unknown> | undefined, lost: boolean) {
  if (lost || results.some((r) => r.lost)) return new RemoteError({ code: 'session-lost', ...say('reasonSessionLostListing') });
  // A list the server refuses without more authorization: the card asks for it (Authorize), not "error".
  const needsAuth = results.find((r) => r.needsAuth)?.needsAuth;
  if (needsAuth) return new RemoteError(needsAuth);
  const failed = results.find((r): r is { ok: false; error: string } => !r.ok);
  const declared = declaredCategories(capabilities);
  const declaredFailed = declared.length > 0 && declared.every((c) => !results[CATALOG_CATEGORIES.indexOf(c)]!.ok);
  if (failed && (declaredFailed || results.every((r) => !r.ok))) {
    return new RemoteError({ code: 'protocol', ...say('reasonCatalogUnlisted', { detail: failed.error }) });
  }
  return undefined;
}

export interface MirrorPorts {
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
  /** The server's committed connection, if it is ready: a refresh lists only on it. */
  live(): string | undefined;
  /** A refresh committed something the views show. */
  changed(): void;
  /** A refresh on `connectionId` was refused for an authorization only the user can give. */
  authLost(connectionId: string, error: WireError): void;
  /** A listing of the tools committed (an imported allow-list is settled against it). */
  toolsCommitted(): void;
  /** Listings of these categories were committed (after {@link toolsCommitted}): pins compare them (S2). */
  committed?(categories: readonly CatalogCategory[]): void;
}

export interface MirrorOptions {
  /** Least time between two refreshes of one category after `list_changed` (N5). */
  refreshIntervalMs: number;
  now: () => number;
}

export class CatalogMirror {
  /** Categories a list_changed asked to refresh and no refresh has picked up yet. */
  readonly #dirty = new Set<CatalogCategory>();
  /** One paced refresher per category: one refresh in flight, one trailing (N5). */
  readonly #refreshers = new Map<CatalogCategory, Coalesced>();
  /** Catalog-limit warnings of the last committed list of each category (SPEC N8). */
  readonly #warnings = new Map<CatalogCategory, Said[]>();
  /** Which document listing each committed list came from (absent: an older document numbered none). */
  readonly #listings = new Map<CatalogCategory, CommittedListing>();

  constructor(
    private readonly serverId: string,
    private readonly generations: CatalogGenerations,
    private readonly ports: MirrorPorts,
    options: MirrorOptions,
  ) {
    for (const category of CATALOG_CATEGORIES) {
      this.#refreshers.set(
        category,
        coalesce(() => this.#refresh(category), { minIntervalMs: options.refreshIntervalMs, now: options.now }),
      );
    }
  }

  /** Starts a listing whose commits only a newer one can overrule. */
  begin(): number {
    return this.generations.begin(this.serverId);
  }

  async list(connectionId: string, category: CatalogCategory): Promise<Listed> {
    try {
      const answer = await this.ports.request('offscreen:list-category', { connectionId, category });
      if (answer.category !== category) return { ok: false, error: `The answer listed ${answer.category}, not ${category}.` };
      return {
        ok: true,
        items: answer.items,
        ...(answer.listing !== undefined ? { listing: { connectionId, listing: answer.listing } } : {}),
      };
    } catch (e) {
      const w = toWireError(e);
      return {
        ok: false,
        error: w.message,
        ...(LOST_CODES.has(w.code) ? { lost: true } : {}),
        ...(w.code === 'needs-auth' ? { needsAuth: w } : {}),
      };
    }
  }

  /**
   * Commits the results of `generation`, one per category, each checked item by item first unless
   * it is a list this extension already checked (`checked`, adopting a session).
   */
  commit(generation: number, categories: readonly CatalogCategory[], results: readonly ToCommit[]) {
    categories.forEach((category, i) => {
      const given = results[i]!;
      let result: ListResult<unknown> = given;
      let warnings: Said[] | undefined;
      if (given.ok) {
        const checked = given.checked ? { items: given.items, warnings: given.checked.warnings } : checkCatalogItems(category, given.items);
        result = { ok: true, items: checked.items };
        warnings = checked.warnings;
      }
      if (this.generations.commit(this.serverId, generation, category, result) !== 'committed') return;
      if (warnings) this.#warnings.set(category, warnings);
      if (given.ok && given.listing) this.#listings.set(category, { ...given.listing, told: given.checked !== undefined });
      else if (given.ok) this.#listings.delete(category);
    });
    if (categories.includes('tools')) this.ports.toolsCommitted();
    this.ports.committed?.(categories);
  }

  /** A list_changed: the category (with its templates, for resources) is refreshed, paced (D2, N5). */
  markDirty(category: 'tools' | 'prompts' | 'resources' | CatalogCategory) {
    const categories: CatalogCategory[] = category === 'resources' ? ['resources', 'resourceTemplates'] : [category];
    for (const c of categories) {
      this.#dirty.add(c);
      void this.#refreshers.get(c)!.trigger().catch(noop);
    }
  }

  /** No refresh is owed any more (the server was disconnected). */
  clearDirty() {
    this.#dirty.clear();
  }

  /** Forgets every list and warning (the binding changed, or the server went away). */
  forget() {
    this.generations.forget(this.serverId);
    this.#warnings.clear();
    this.#listings.clear();
  }

  /**
   * The committed lists of `categories` whose checks the document does not hold yet, each once:
   * the items as committed, their warnings, and the listing and connection they came from.
   */
  untoldChecks(categories: readonly CatalogCategory[]) {
    return categories.flatMap((category) => {
      const from = this.#listings.get(category);
      const items = this.get<Record<string, unknown>>(category).items;
      if (!from || from.told || items === null) return [];
      from.told = true;
      return [{ category, items, warnings: this.#warnings.get(category) ?? [], connectionId: from.connectionId, listing: from.listing }];
    });
  }

  /** The category's state: its last valid list (null when none yet), error and stale time. */
  get<T>(category: CatalogCategory): CategoryState<T> {
    return this.generations.get<T>(this.serverId, category);
  }

  /** Since when some category shows a last good list because its latest listing failed (D2). */
  staleSince(): number | undefined {
    const times = CATALOG_CATEGORIES.map((c) => this.get(c))
      .filter((state) => state.items !== null && state.staleSince !== null)
      .map((state) => state.staleSince!);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Warnings for categories whose latest listing failed: the list shown is the last good one. */
  refreshWarnings(): Said[] {
    return CATALOG_CATEGORIES.flatMap((c) => {
      const state = this.get(c);
      return state.error !== null && state.items !== null ? [say(REFRESH_FAILED[c], { detail: state.error })] : [];
    });
  }

  /** Catalog-limit warnings of the current lists (SPEC N8). */
  limitWarnings(): Said[] {
    return [...this.#warnings.values()].flat();
  }

  /**
   * One paced refresh of one dirty category on the current connection (D2, N5). A failed listing
   * keeps the last good list, marked stale, so a storm of changes cannot empty the catalog.
   */
  async #refresh(category: CatalogCategory): Promise<void> {
    const connectionId = this.ports.live();
    if (!this.#dirty.delete(category) || !connectionId) return;
    const generation = this.begin();
    const result = await this.list(connectionId, category);
    if (this.ports.live() !== connectionId) return;
    this.commit(generation, [category], [result]);
    this.ports.changed();
    if (!result.ok && result.needsAuth) this.ports.authLost(connectionId, result.needsAuth);
  }
}
