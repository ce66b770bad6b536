/**
 * The server list in `chrome.storage.local` (SPEC B1, B5).
 *
 * Reads validate every entry on its own: one corrupt entry must not hide the others, and it
 * is reported, never dropped. Writes are read-modify-write through one {@link SerialQueue},
 * and they carry the raw invalid entries back untouched at their positions, so a user can
 * still repair or export them. The queue serializes writers of this store instance only;
 * the service worker owns the one instance that writes, other contexts ask it by message.
 */
import type { McpServerConfig } from './config-schema.js';
import { CURRENT_SCHEMA_VERSION, McpServerConfigSchema, SCHEMA_VERSION_KEY, SERVERS_KEY } from './config-schema.js';
import { type Opener, type Sealer, migrateV0toV1, migrateV1toV2 } from './config-migrations.js';
import type { KeyValueArea } from './ports.js';
import { open as realOpen, seal as realSeal } from './seal.js';
import { SerialQueue } from './serial-queue.js';
import { slugify } from './slug.js';

export { slugify } from './slug.js';

export interface InvalidEntry {
  index: number;
  id?: string;
  error: string;
}
export interface ConfigSnapshot {
  servers: McpServerConfig[];
  invalid: InvalidEntry[];
  /**
   * The stored `mcp_schema_version` when it is newer than (or unknown to) this code: a downgrade.
   * The entries are read as far as this code understands them and every write is refused, so
   * nothing the newer version stored is lost (B1).
   */
  newerVersion?: string;
}

/** Writes refused: the stored version is newer than this code, or the new list is invalid. */
export class ConfigStoreError extends Error {
  override readonly name = 'ConfigStoreError';
}

export type NewServer = Omit<McpServerConfig, 'id'>;
export type ServerPatch = Partial<Omit<McpServerConfig, 'id'>>;

interface UpdateContext {
  readonly invalid: readonly InvalidEntry[];
  /** Ids of valid and invalid entries; new ids must avoid all of them. */
  readonly takenIds: ReadonlySet<string>;
}
export type Updater = (servers: McpServerConfig[], ctx: UpdateContext) => McpServerConfig[] | Promise<McpServerConfig[]>;

interface ParsedList extends ConfigSnapshot {
  /** Raw invalid values by original index, to be written back verbatim. */
  rawInvalid: Map<number, unknown>;
}

/** Validates a stored `mcp_servers` value entry by entry. */
function parseServerList(stored: unknown): ParsedList {
  const out: ParsedList = { servers: [], invalid: [], rawInvalid: new Map() };
  if (stored === undefined) return out;
  const entries = Array.isArray(stored) ? stored : [stored];
  const seen = new Set<string>();
  entries.forEach((raw, index) => {
    const result = McpServerConfigSchema.safeParse(raw);
    let error: string | undefined;
    if (!Array.isArray(stored)) error = 'mcp_servers is not an array';
    else if (!result.success) error = summarize(result.error.issues);
    else if (seen.has(result.data.id)) error = `duplicate id "${result.data.id}"`;
    if (error === undefined && result.success) {
      seen.add(result.data.id);
      out.servers.push(result.data);
      return;
    }
    const rawId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
    out.invalid.push({ index, ...(typeof rawId === 'string' ? { id: rawId } : {}), error: error ?? 'invalid' });
    out.rawInvalid.set(index, raw);
  });
  return out;
}

function summarize(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(entry)'}: ${i.message}`)
    .join('; ');
}

export interface ConfigStoreOptions {
  /** Sealing used by migrations; the real AES-GCM one by default. */
  seal?: Sealer;
  /** Opening used by migrations that re-seal (v1→v2); the real AES-GCM one by default. */
  open?: Opener;
}

export class ConfigStore {
  readonly #area: KeyValueArea;
  readonly #seal: Sealer;
  readonly #open: Opener;
  readonly #queue = new SerialQueue();

  constructor(area: KeyValueArea, options: ConfigStoreOptions = {}) {
    this.#area = area;
    this.#seal = options.seal ?? realSeal;
    this.#open = options.open ?? realOpen;
  }

  /** Migrates (once, persisted) when the stored version is older. */
  async read(): Promise<ConfigSnapshot> {
    const stored = await this.#area.get([SERVERS_KEY, SCHEMA_VERSION_KEY]);
    if (needsMigration(stored)) return this.#queue.run(async () => snapshot(await this.#load()));
    const read = snapshot(parseServerList(stored[SERVERS_KEY]));
    return storedVersion(stored) === 'unsupported' ? { ...read, newerVersion: String(stored[SCHEMA_VERSION_KEY]) } : read;
  }

  /** The one way to write: `fn` gets the valid entries and returns the new list. */
  update(fn: Updater): Promise<ConfigSnapshot> {
    return this.#write(fn);
  }

  /**
   * As {@link update}, but `fn` may answer `undefined`: nothing to change, and nothing is written. A
   * write rewrites the whole configuration (with every server's pinned definitions), which costs the
   * worker's CPU each time: a listing that changed no pin must not cost one.
   */
  updateIfChanged(fn: (...args: Parameters<Updater>) => McpServerConfig[] | undefined): Promise<ConfigSnapshot> {
    return this.#write(fn);
  }

  #write(fn: (...args: Parameters<Updater>) => ReturnType<Updater> | undefined): Promise<ConfigSnapshot> {
    return this.#queue.run(async () => {
      const current = await this.#load();
      const takenIds = new Set([...current.servers.map((s) => s.id), ...current.invalid.flatMap((i) => i.id ?? [])]);
      const next = await fn(structuredClone(current.servers), { invalid: current.invalid, takenIds });
      if (next === undefined) return snapshot(current);
      const written = mergeInvalid(validateForWrite(next), current.rawInvalid);
      await this.#area.set({ [SERVERS_KEY]: written, [SCHEMA_VERSION_KEY]: CURRENT_SCHEMA_VERSION });
      return snapshot(parseServerList(written));
    });
  }

  /** Assigns a fresh slug id from the name (B5). */
  async addServer(input: NewServer): Promise<McpServerConfig> {
    let added: McpServerConfig | undefined;
    await this.update((servers, { takenIds }) => {
      added = { ...input, id: slugify(input.name, takenIds) };
      return [...servers, added];
    });
    return added!;
  }

  /** The id never changes, even on rename: tool names embed it. */
  async updateServer(id: string, patch: ServerPatch): Promise<McpServerConfig> {
    let updated: McpServerConfig | undefined;
    await this.update((servers) => {
      const at = servers.findIndex((s) => s.id === id);
      if (at < 0) throw new ConfigStoreError(`No server with id "${id}"`);
      updated = { ...servers[at]!, ...patch, id };
      servers[at] = updated;
      return servers;
    });
    return updated!;
  }

  /** Returns false when no valid entry has this id; invalid entries are not touched. */
  async removeServer(id: string): Promise<boolean> {
    let removed = false;
    await this.update((servers) => {
      const kept = servers.filter((s) => s.id !== id);
      removed = kept.length !== servers.length;
      return kept;
    });
    return removed;
  }

  /** Runs inside the queue; migrates and persists when needed. */
  async #load(): Promise<ParsedList> {
    const stored = await this.#area.get([SERVERS_KEY, SCHEMA_VERSION_KEY]);
    const version = storedVersion(stored);
    if (version === 'unsupported') {
      throw new ConfigStoreError(
        `Stored configuration has an unsupported version (${String(stored[SCHEMA_VERSION_KEY])}); not writing over it`,
      );
    }
    if (version < CURRENT_SCHEMA_VERSION) {
      const raw = stored[SERVERS_KEY];
      let migrated: unknown[] = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
      if (version < 1) migrated = await migrateV0toV1(migrated, this.#seal);
      if (version < 2) migrated = await migrateV1toV2(migrated, { seal: this.#seal, open: this.#open });
      await this.#area.set({ [SERVERS_KEY]: migrated, [SCHEMA_VERSION_KEY]: CURRENT_SCHEMA_VERSION });
      return parseServerList(migrated);
    }
    return parseServerList(stored[SERVERS_KEY]);
  }
}

function storedVersion(stored: Record<string, unknown>): number | 'unsupported' {
  const v = stored[SCHEMA_VERSION_KEY];
  if (v === undefined) return stored[SERVERS_KEY] === undefined ? CURRENT_SCHEMA_VERSION : 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > CURRENT_SCHEMA_VERSION) return 'unsupported';
  return v;
}

function needsMigration(stored: Record<string, unknown>): boolean {
  const version = storedVersion(stored);
  return version !== 'unsupported' && version < CURRENT_SCHEMA_VERSION;
}

function snapshot(list: ParsedList): ConfigSnapshot {
  return { servers: list.servers, invalid: list.invalid };
}

function validateForWrite(servers: readonly McpServerConfig[]): McpServerConfig[] {
  const ids = new Set<string>();
  return servers.map((server, i) => {
    const result = McpServerConfigSchema.safeParse(server);
    if (!result.success) throw new ConfigStoreError(`Server ${i} (${String(server?.id)}) is invalid: ${summarize(result.error.issues)}`);
    if (ids.has(result.data.id)) throw new ConfigStoreError(`Duplicate server id "${result.data.id}"`);
    ids.add(result.data.id);
    return result.data;
  });
}

/** Puts each invalid raw entry back at its original index (or the end, if the list shrank). */
function mergeInvalid(servers: readonly unknown[], rawInvalid: ReadonlyMap<number, unknown>): unknown[] {
  const out: unknown[] = [...servers];
  for (const [index, raw] of [...rawInvalid].sort(([a], [b]) => a - b)) out.splice(Math.min(index, out.length), 0, raw);
  return out;
}
