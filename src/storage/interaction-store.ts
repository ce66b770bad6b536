/**
 * Elicitation interactions (SPEC I1, I3), persisted in IndexedDB so that a card survives
 * a panel reload and a worker eviction. The worker cannot keep the server's request open
 * across its own restart, so on startup every interaction still pending is marked failed
 * with a reason: the answer is never pretended to be delivered.
 *
 * Status moves only out of `pending`, once, inside one transaction, so two answers racing
 * (a click and a timeout) cannot both win.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';
import { STORE_INTERACTIONS, idbDone, idbRequest, openStorageDb } from './idb.js';

const INTERACTION_KIND = 'mcp_elicitation';

type InteractionStatus = 'pending' | 'answered' | 'expired' | 'failed';
export type SettledStatus = Exclude<InteractionStatus, 'pending'>;

const InteractionSchema = lazySchema(() =>
  z.object({
    id: z.string().check(z.minLength(1), z.maxLength(128)),
    kind: z.literal(INTERACTION_KIND),
    serverId: z.string().check(z.minLength(1), z.maxLength(32)),
    connectionId: z.string().check(z.minLength(1), z.maxLength(128)),
    operationId: z.string().check(z.minLength(1), z.maxLength(128)),
    /** The server's `elicitation/create` params, as received. */
    request: z.unknown(),
    status: z.enum(['pending', 'answered', 'expired', 'failed']),
    reason: z.optional(z.string().check(z.maxLength(2048))),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
);
export type Interaction = z.infer<typeof InteractionSchema>;
export type NewInteraction = Omit<Interaction, 'kind' | 'status' | 'reason' | 'createdAt' | 'updatedAt'>;

/** The interaction is not pending (already settled) or does not exist. */
export class InteractionStateError extends Error {
  override readonly name = 'InteractionStateError';
}

export class InteractionStore {
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Creates a pending interaction; an existing id is refused rather than replaced. */
  async put(input: NewInteraction): Promise<Interaction> {
    const at = this.#now();
    const record = InteractionSchema.parse({ ...input, kind: INTERACTION_KIND, status: 'pending', createdAt: at, updatedAt: at });
    const tx = (await openStorageDb()).transaction(STORE_INTERACTIONS, 'readwrite');
    tx.objectStore(STORE_INTERACTIONS).add(record);
    try {
      await idbDone(tx);
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name !== 'ConstraintError') throw error;
      throw new InteractionStateError(`Interaction "${input.id}" already exists`, { cause: error });
    }
    return record;
  }

  async get(id: string): Promise<Interaction | undefined> {
    const tx = (await openStorageDb()).transaction(STORE_INTERACTIONS, 'readonly');
    return parsed(await idbRequest(tx.objectStore(STORE_INTERACTIONS).get(id)));
  }

  /** Oldest first. */
  async listPending(serverId?: string): Promise<Interaction[]> {
    const tx = (await openStorageDb()).transaction(STORE_INTERACTIONS, 'readonly');
    const rows = await idbRequest(tx.objectStore(STORE_INTERACTIONS).index('status').getAll('pending'));
    return rows
      .flatMap((row) => parsed(row) ?? [])
      .filter((i) => serverId === undefined || i.serverId === serverId)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Settles a pending interaction; any other transition throws {@link InteractionStateError}. */
  async setStatus(id: string, status: SettledStatus, reason?: string): Promise<Interaction> {
    const tx = (await openStorageDb()).transaction(STORE_INTERACTIONS, 'readwrite');
    const store = tx.objectStore(STORE_INTERACTIONS);
    let outcome: Interaction | InteractionStateError | undefined;
    const probe = store.get(id);
    probe.onsuccess = () => {
      const current = parsed(probe.result);
      if (!current) outcome = new InteractionStateError(`No interaction "${id}"`);
      else if (current.status !== 'pending') outcome = new InteractionStateError(`Interaction "${id}" is already ${current.status}`);
      else {
        outcome = settle(current, status, reason, this.#now());
        store.put(outcome);
      }
    };
    await idbDone(tx);
    if (!outcome) throw new InteractionStateError(`Interaction "${id}" could not be read`);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /** Run once when the worker starts: nothing pending can still be answered. Returns those failed. */
  async failPendingOnStartup(reason: string): Promise<Interaction[]> {
    const tx = (await openStorageDb()).transaction(STORE_INTERACTIONS, 'readwrite');
    const store = tx.objectStore(STORE_INTERACTIONS);
    const failed: Interaction[] = [];
    const at = this.#now();
    const cursorRequest = store.index('status').openCursor('pending');
    cursorRequest.onsuccess = () => {
      const cursor = cursorRequest.result;
      if (!cursor) return;
      const current = parsed(cursor.value);
      if (current) {
        const next = settle(current, 'failed', reason, at);
        cursor.update(next);
        failed.push(next);
      } else {
        // A row that no longer validates cannot be shown as a card; mark it failed all the same.
        cursor.update({ ...(cursor.value as Record<string, unknown>), status: 'failed', reason, updatedAt: at });
      }
      cursor.continue();
    };
    await idbDone(tx);
    return failed;
  }
}

function settle(current: Interaction, status: SettledStatus, reason: string | undefined, at: number): Interaction {
  const next: Interaction = { ...current, status, updatedAt: at };
  if (reason !== undefined) next.reason = reason.slice(0, 2048);
  return next;
}

function parsed(row: unknown): Interaction | undefined {
  const result = InteractionSchema.safeParse(row);
  return result.success ? result.data : undefined;
}
