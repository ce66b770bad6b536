/**
 * Worker starts in this browser session, for the diagnostics report (V3): Chrome stops an idle
 * worker and starts a new one on the next event, so every start after the first follows a stop.
 * Each start records when it ran and how many live sessions the offscreen document offered it to
 * adopt. Kept in `chrome.storage.session` (gone with the browser), bounded to the last starts.
 */
import type { KeyValueArea } from '../../storage/ports.js';

export const WORKER_STARTS_KEY = 'mcp_worker_starts';
const KEEP = 20;

export interface WorkerStart {
  at: number;
  /** Sessions the offscreen document still held for this instance (0 when there was no document). */
  held: number;
}

export interface WorkerStarts {
  /** Every start in this browser session, also those no longer in `recent`. */
  count: number;
  recent: WorkerStart[];
}

type Area = Pick<KeyValueArea, 'get' | 'set'>;

function parse(value: unknown): WorkerStarts {
  const v = value as Partial<WorkerStarts> | undefined;
  const recent = Array.isArray(v?.recent) ? v.recent.filter((s) => typeof s?.at === 'number' && typeof s.held === 'number') : [];
  return { count: typeof v?.count === 'number' ? v.count : recent.length, recent };
}

export async function readWorkerStarts(area: Area): Promise<WorkerStarts> {
  return parse((await area.get(WORKER_STARTS_KEY))[WORKER_STARTS_KEY]);
}

export async function recordWorkerStart(area: Area, start: WorkerStart): Promise<void> {
  const now = await readWorkerStarts(area);
  await area.set({ [WORKER_STARTS_KEY]: { count: now.count + 1, recent: [...now.recent, start].slice(-KEEP) } });
}
