/**
 * The write-tool approval policy (SPEC G1, K3): every agent call of a remote tool waits here
 * until the user allows it once, allows it always (see {@link ApprovalStore}), or denies it.
 * Nothing relaxes this: not `readOnlyHint`, not `idempotentHint` — annotations are shown on the
 * card and that is all. A pending approval is an object that owns its resolver and settles
 * exactly once (answer, abort, or the worker going away with the caller).
 *
 * The cards are also recorded in {@link PendingApprovals}: when the worker goes away with the
 * caller, the next instance shows them again as `gone` (nothing was run) until dismissed.
 */
import type { Tool } from '../../protocol/mcp-shapes.js';
import type { ApprovalDecision, ApprovalView } from '../../protocol/panel-use.js';
import type { ApprovalStore } from './approval-store.js';
import type { PendingApprovals } from './pending-approvals.js';

const MAX_ARGUMENTS_DISPLAY = 16_000;

export interface ApprovalRequest {
  serverId: string;
  serverName: string;
  serverUrl: string;
  tool: Tool;
  agentName: string;
  /** The run that asks, if the caller has one; copied to the card. */
  runId?: string;
  arguments: Record<string, unknown>;
  /** Told when this call's card opens (true) and settles (false): a chat step says it waits for the user (T1). */
  onCard?: (open: boolean) => void;
}

interface Pending {
  view: ApprovalView;
  request: ApprovalRequest;
  settle(decision: ApprovalDecision): void;
}

/** Arguments as the user will read them: pretty JSON, cut with a visible marker. */
function argumentsForDisplay(args: unknown): string {
  const text = JSON.stringify(args, null, 2) ?? 'null';
  return text.length <= MAX_ARGUMENTS_DISPLAY
    ? text
    : `${text.slice(0, MAX_ARGUMENTS_DISPLAY)}\n[… ${text.length - MAX_ARGUMENTS_DISPLAY} more characters not shown]`;
}

export class ApprovalBroker {
  readonly #pending = new Map<string, Pending>();
  /** Cards of calls a previous worker instance was holding; shown until the user dismisses them. */
  readonly #gone = new Map<string, ApprovalView>();
  readonly #listeners = new Set<(approvals: ApprovalView[]) => void>();
  readonly #loaded: Promise<void>;

  constructor(
    private readonly store: ApprovalStore,
    private readonly newId: () => string,
    private readonly now: () => number = Date.now,
    private readonly kept?: PendingApprovals,
  ) {
    this.#loaded = (kept?.loadGone() ?? Promise.resolve([]))
      .then((gone) => {
        if (!gone.length) return;
        for (const v of gone) this.#gone.set(v.id, v);
        this.#changed();
      })
      .catch((e) => console.error('[approvals] could not load the cards of the previous worker', e));
  }

  /** Resolves once the cards of the previous worker instance are loaded. */
  loaded(): Promise<void> {
    return this.#loaded;
  }

  /** Called with the full list whenever an approval appears or settles. */
  onChange(listener: (approvals: ApprovalView[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every card to show: the calls waiting now, and the `gone` ones not dismissed yet, oldest first. */
  pending(): ApprovalView[] {
    return [...this.#gone.values(), ...[...this.#pending.values()].map((p) => p.view)].sort((a, b) => a.requestedAt - b.requestedAt);
  }

  /** How many calls wait for the user's decision now (the toolbar badge counts them). */
  waiting(): number {
    return this.#pending.size;
  }

  #changed() {
    const list = this.pending();
    for (const l of this.#listeners) l(list);
    // After the load, so the previous instance's cards are read before they are overwritten.
    if (this.kept) void this.#loaded.then(() => this.kept!.save(this.pending())).catch(() => undefined);
  }

  /** The user read a `gone` card; false when there is no such card (a waiting one is answered, not dismissed). */
  dismiss(approvalId: string): boolean {
    if (!this.#gone.delete(approvalId)) return false;
    this.#changed();
    return true;
  }

  /**
   * Resolves true when the call may go ahead. A standing "always" grant for this exact URL and
   * schema answers at once; otherwise the user is asked. An abort of `signal` denies.
   */
  async approve(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    const { serverId, serverUrl, tool } = request;
    // A schema too large to keep was replaced by a placeholder (catalog limits): its hash cannot
    // notice the server changing it, so "always" is neither honoured nor stored for such a tool.
    const hashable = (tool as { schemaTooLarge?: boolean }).schemaTooLarge !== true;
    if (hashable && (await this.store.isAlwaysAllowed(serverId, tool.name, serverUrl, tool.inputSchema))) return true;
    if (signal?.aborted) return false;
    const decision = await new Promise<ApprovalDecision>((resolve) => {
      const id = this.newId();
      const onAbort = () => pending.settle('deny');
      const pending: Pending = {
        request,
        view: {
          id,
          serverId,
          serverName: request.serverName,
          tool: tool.name,
          ...(tool.title ? { toolTitle: tool.title } : {}),
          agentName: request.agentName,
          ...(request.runId ? { runId: request.runId } : {}),
          argumentsJson: argumentsForDisplay(request.arguments),
          ...(tool.annotations ? { annotations: tool.annotations } : {}),
          requestedAt: this.now(),
          status: 'pending',
        },
        settle: (d) => {
          if (!this.#pending.delete(id)) return;
          signal?.removeEventListener('abort', onAbort);
          request.onCard?.(false);
          resolve(d);
          this.#changed();
        },
      };
      this.#pending.set(id, pending);
      signal?.addEventListener('abort', onAbort, { once: true });
      request.onCard?.(true);
      this.#changed();
    });
    if (decision === 'always' && hashable) await this.store.grant(serverId, tool.name, serverUrl, tool.inputSchema);
    return decision !== 'deny';
  }

  /** The user's answer from the panel; false when the approval is gone (answered or aborted). */
  answer(approvalId: string, decision: ApprovalDecision): boolean {
    const p = this.#pending.get(approvalId);
    if (!p) return false;
    p.settle(decision);
    return true;
  }
}
