/**
 * The approval cards the panel shows, kept in `chrome.storage.session` so a worker restart does
 * not make them vanish (SPEC G1, K3). The agent call that asked lives only in the worker's memory:
 * after a restart it is gone, and nothing was run. A new worker instance therefore loads every
 * card recorded by the previous one as `gone`, and those stay listed until the user dismisses
 * them. The session area is cleared when the browser closes, like the calls themselves.
 */
import type { ApprovalView } from '../../protocol/panel-use.js';
import type { StorageAreaLike } from './approval-store.js';

export const PENDING_APPROVALS_KEY = 'mcp_pending_approvals';
/** More cards than this are not kept (the oldest "gone" ones go first); the push schema allows 100. */
export const MAX_KEPT_APPROVALS = 50;

function isView(v: unknown): v is ApprovalView {
  const a = v as Partial<ApprovalView> | null;
  return (
    !!a &&
    typeof a.id === 'string' &&
    typeof a.serverId === 'string' &&
    typeof a.serverName === 'string' &&
    typeof a.tool === 'string' &&
    typeof a.agentName === 'string' &&
    typeof a.argumentsJson === 'string' &&
    typeof a.requestedAt === 'number'
  );
}

export class PendingApprovals {
  /** Writes are serialized, so a quick answer after a request cannot be overwritten by it. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly area: StorageAreaLike) {}

  /** Every card a previous worker instance left, each now `gone`: its caller did not survive. */
  async loadGone(): Promise<ApprovalView[]> {
    const raw = (await this.area.get(PENDING_APPROVALS_KEY))[PENDING_APPROVALS_KEY];
    if (!Array.isArray(raw)) return [];
    return raw.filter(isView).map((v) => ({ ...v, status: 'gone' as const }));
  }

  /** Records the cards shown now; the newest are kept when there are too many. */
  save(views: readonly ApprovalView[]): Promise<void> {
    const kept = views.slice(-MAX_KEPT_APPROVALS);
    const run = this.#tail.then(() => this.area.set({ [PENDING_APPROVALS_KEY]: kept }));
    this.#tail = run.catch(() => undefined);
    return run;
  }
}
