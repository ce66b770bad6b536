/**
 * Persistent "always allow this tool" grants (SPEC G1, K3). A grant is only as good as what the
 * user saw when giving it: it records the server URL and a fingerprint of the tool as the user
 * and the model saw it (name, title, description, annotations, input and output schema), and is
 * discarded the moment either differs: a server that rewords a tool, drops `destructiveHint` or
 * changes what it accepts or returns, or a config that now points somewhere else, must ask again.
 * Annotations are fingerprinted, never trusted: they are claims of the server and never relax
 * approval.
 *
 * A grant stored by the previous storage version (only a hash of the input schema, V2) is carried
 * over once: when its URL and that hash still match the tool, it is rewritten with the tool's
 * fingerprint as it is now, so an upgrade keeps the user's grants and any later change re-asks.
 * One whose URL or schema no longer matches is deleted and the call asks again.
 *
 * Stored in `chrome.storage.local` under {@link APPROVALS_KEY}; the storage area is injected so
 * the store runs unchanged in Node tests.
 */
import type { Tool } from '../../protocol/mcp-shapes.js';
import { fnv1a32 } from './tool-names.js';
import { canonicalJson } from '../../common/canonical-json.js';
import { sha256Hex } from '../../common/sha256.js';

export const APPROVALS_KEY = 'mcp_tool_approvals';

/** The subset of `chrome.storage.StorageArea` the store uses. */
export interface StorageAreaLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface ApprovalGrant {
  url: string;
  /** {@link toolFingerprint} when granted; absent in a grant of the previous storage version. */
  fingerprint?: string;
  /** The previous storage version's grant: a hash of the input schema only ({@link legacySchemaHash}). */
  schemaHash?: string;
  grantedAt: number;
}

/** What a grant is given for: the tool as the catalog holds it. */
export type FingerprintedTool = Pick<Tool, 'name' | 'title' | 'description' | 'annotations' | 'inputSchema' | 'outputSchema'>;

/**
 * SHA-256 of the canonical JSON of what the user and the model are shown of a tool (G1). Keys
 * sorted, so equal tools fingerprint equally whatever their key order; no depth limit: a grant's
 * fingerprint never refuses a tool for its depth. `_meta` is left out: it is not shown.
 */
export function toolFingerprint(tool: FingerprintedTool): string {
  const { name, title, description, annotations, inputSchema, outputSchema } = tool;
  return sha256Hex(canonicalJson({ name, title, description, annotations, inputSchema, outputSchema }, Infinity));
}

/** The previous storage version's grant key: two FNV-1a hashes of the input schema's canonical JSON. */
export function legacySchemaHash(inputSchema: unknown): string {
  const text = canonicalJson(inputSchema, Infinity);
  return `${fnv1a32(text)}${fnv1a32(`\u0001${text}`)}`;
}

const keyOf = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

function isGrant(v: unknown): v is ApprovalGrant {
  const g = v as Partial<ApprovalGrant> | null;
  return !!g && typeof g.url === 'string' && typeof g.grantedAt === 'number';
}

export class ApprovalStore {
  /** Writes are serialized so two grants given in quick succession cannot overwrite each other. */
  #tail: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<() => void>();
  /**
   * The grants as last read or written. An agent call with an "always" grant asks on every call,
   * and a storage read costs it ~3 ms; {@link forget} drops the copy when the stored value changes
   * from anywhere else. `#generation` keeps a read that raced a `forget` from caching old data.
   */
  #cache: Record<string, ApprovalGrant> | undefined;
  #generation = 0;
  /** Fingerprints by tool object: catalog items are never mutated, only replaced. */
  readonly #fingerprints = new WeakMap<object, string>();

  constructor(
    private readonly area: StorageAreaLike,
    private readonly now: () => number = Date.now,
  ) {}

  /** The grants; callers must not mutate the object (it may be the cached one). */
  async #read(): Promise<Readonly<Record<string, ApprovalGrant>>> {
    if (this.#cache) return this.#cache;
    const generation = this.#generation;
    const raw = (await this.area.get(APPROVALS_KEY))[APPROVALS_KEY];
    const out: Record<string, ApprovalGrant> = {};
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const [k, v] of Object.entries(raw)) if (isGrant(v)) out[k] = v;
    }
    if (generation === this.#generation) this.#cache = out;
    return out;
  }

  /** The stored grants changed (or may have): the next read goes to storage. */
  forget(): void {
    this.#cache = undefined;
    this.#generation++;
  }

  /** The tool's fingerprint, computed once per catalog object. */
  fingerprintOf(tool: FingerprintedTool): string {
    let fingerprint = this.#fingerprints.get(tool);
    if (fingerprint === undefined) this.#fingerprints.set(tool, (fingerprint = toolFingerprint(tool)));
    return fingerprint;
  }

  /** Called after every write that changed the grants (the Activity view lists them). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #mutate(change: (grants: Record<string, ApprovalGrant>) => boolean): Promise<boolean> {
    const run = this.#tail.then(async () => {
      const grants = { ...(await this.#read()) };
      if (!change(grants)) return false;
      this.forget();
      const generation = this.#generation;
      await this.area.set({ [APPROVALS_KEY]: grants });
      if (generation === this.#generation) this.#cache = grants;
      for (const l of this.#listeners) l();
      return true;
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Remembers "always allow" for this tool as it is now (URL and fingerprint). */
  async grant(serverId: string, tool: FingerprintedTool, url: string): Promise<void> {
    const fingerprint = this.fingerprintOf(tool);
    await this.#mutate((grants) => {
      grants[keyOf(serverId, tool.name)] = { url, fingerprint, grantedAt: this.now() };
      return true;
    });
  }

  /**
   * Whether a standing grant covers the tool as it is now. A grant recorded for another URL or
   * another fingerprint (or none: stored before fingerprints) is deleted here, so it cannot come
   * back if the old values return.
   */
  async isAlwaysAllowed(serverId: string, tool: FingerprintedTool, url: string): Promise<boolean> {
    await this.#tail;
    const grant = (await this.#read())[keyOf(serverId, tool.name)];
    if (!grant) return false;
    if (grant.url === url && grant.fingerprint === this.fingerprintOf(tool)) return true;
    if (grant.url === url && grant.fingerprint === undefined && grant.schemaHash === legacySchemaHash(tool.inputSchema)) {
      await this.grant(serverId, tool, url);
      return true;
    }
    await this.revoke(serverId, tool.name);
    return false;
  }

  /**
   * The user accepted the tool's new definition (S2): a grant suspended while it differed from its
   * pin is given back, for the tool as it is now. Resolves whether there was one to restore.
   */
  restore(serverId: string, tool: FingerprintedTool, url: string): Promise<boolean> {
    const fingerprint = this.fingerprintOf(tool);
    return this.#mutate((grants) => {
      const grant = grants[keyOf(serverId, tool.name)];
      if (!grant || grant.url !== url) return false;
      grants[keyOf(serverId, tool.name)] = { ...grant, fingerprint, grantedAt: this.now() };
      return true;
    });
  }

  /** Resolves whether there was such a grant. */
  revoke(serverId: string, tool: string): Promise<boolean> {
    return this.#mutate((grants) => keyOf(serverId, tool) in grants && delete grants[keyOf(serverId, tool)]);
  }

  /** Forgets every grant; resolves how many there were. */
  async revokeAll(): Promise<number> {
    let count = 0;
    await this.#mutate((grants) => {
      count = Object.keys(grants).length;
      for (const k of Object.keys(grants)) delete grants[k];
      return count > 0;
    });
    return count;
  }

  /** Drops every grant of servers whose URL changed or that no longer exist. */
  async pruneServers(servers: readonly { id: string; url: string }[]): Promise<void> {
    const urls = new Map(servers.map((s) => [s.id, s.url]));
    await this.#mutate((grants) => {
      let changed = false;
      for (const [k, g] of Object.entries(grants)) {
        const serverId = k.slice(0, k.indexOf('\u0000'));
        if (urls.get(serverId) !== g.url) {
          delete grants[k];
          changed = true;
        }
      }
      return changed;
    });
  }

  /** Every standing grant, for the Activity view's list. */
  async list(): Promise<Array<ApprovalGrant & { serverId: string; tool: string }>> {
    await this.#tail;
    return Object.entries(await this.#read()).map(([k, g]) => {
      const i = k.indexOf('\u0000');
      return { serverId: k.slice(0, i), tool: k.slice(i + 1), ...g };
    });
  }
}
