/**
 * What the manager settled in memory (pins of a listing, an imported tool selection), written to
 * the stored configuration in the background: every settle that arrives within
 * {@link SETTLED_WRITE_WINDOW_MS} goes into one write, and a window whose settles changed nothing
 * writes nothing. Twenty servers connecting at start-up list four categories each: eighty writes of
 * the whole configuration, each with every server's pins, were what a start-up's CPU went to.
 */
import type { McpServerConfig } from '../storage/config-schema.js';

/** As the request log's batch: short enough that a worker stopped right after still wrote it (its ~30 s idle). */
export const SETTLED_WRITE_WINDOW_MS = 100;

type Settle = (entry: McpServerConfig) => McpServerConfig;

export interface SettledWritesDeps {
  /** ConfigStore.updateIfChanged: `fn` answering undefined writes nothing. */
  update(fn: (servers: McpServerConfig[]) => McpServerConfig[] | undefined): Promise<unknown>;
  /** A write that failed: the manager already uses the result, so it is only told. */
  failed(what: string, error: unknown): void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

export class SettledWrites {
  #pending: { serverId: string; settle: Settle; what: string }[] = [];
  #scheduled = false;

  constructor(private readonly deps: SettledWritesDeps) {}

  /** Queues `settle` for the entry `serverId`; it is written with the others of its window. */
  add(serverId: string, settle: Settle, what: string): void {
    this.#pending.push({ serverId, settle, what });
    if (this.#scheduled) return;
    this.#scheduled = true;
    (this.deps.setTimeout ?? setTimeout)(() => void this.flush(), SETTLED_WRITE_WINDOW_MS);
  }

  /** Writes what is queued now (the timer's end, or a test). */
  async flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    await this.deps
      .update((servers) => {
        let changed = false;
        const next = servers.map((entry) => {
          let settled = entry;
          for (const s of batch) if (s.serverId === entry.id) settled = s.settle(settled);
          if (settled !== entry) changed = true;
          return settled;
        });
        return changed ? next : undefined;
      })
      .catch((e: unknown) => this.deps.failed([...new Set(batch.map((s) => s.what))].join(', '), e));
  }
}
