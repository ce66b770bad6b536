/**
 * The write-tool approval policy (SPEC G1, K3, U1): every agent call of a remote tool, and every
 * call an MCP App view makes, waits here until the user allows it once, allows it always (see
 * {@link ApprovalStore}), allows the view to call the tool while it is open (see
 * {@link ViewGrants}), or denies it. Nothing relaxes this: not `readOnlyHint`, not
 * `idempotentHint` — annotations are shown on the card and that is all. A pending approval is an
 * object that owns its resolvers and settles exactly once (answer, abort of its last caller, or
 * the worker going away with the caller).
 *
 * A view that repeats a call while its card is open (same view session, tool and arguments) does
 * not queue cards: the repeat waits on the open card, whose one answer settles every caller (U1).
 *
 * The cards are also recorded in {@link PendingApprovals}: when the worker goes away with the
 * caller, the next instance shows them again as `gone` (nothing was run) until dismissed.
 */
import type { Tool } from '../../protocol/mcp-shapes.js';
import type { Wording } from '../../protocol/wording.js';
import type { ApprovalDecision, ApprovalView } from '../../protocol/panel-use.js';
import { canonicalJson } from '../../common/canonical-json.js';
import type { ApprovalStore } from './approval-store.js';
import type { PendingApprovals } from './pending-approvals.js';
import type { ViewGrants } from './view-grants.js';

const MAX_ARGUMENTS_DISPLAY = 16_000;

export interface ApprovalRequest {
  serverId: string;
  serverName: string;
  serverUrl: string;
  tool: Tool;
  agentName: string;
  /** `agentName` in the user's language, for the extension's own callers (the chat, a view). */
  agentWording?: Wording;
  /** The run that asks, if the caller has one; copied to the card. */
  runId?: string;
  /** The mounted MCP App view that asks (an id the panel made for it): offers the per-view grant. */
  viewSession?: string;
  arguments: Record<string, unknown>;
  /** Told when this call's card opens (true) and settles (false): a chat step says it waits for the user (T1). */
  onCard?: (open: boolean) => void;
}

/**
 * Pinned definitions (S2): a tool whose listed definition differs from its pin has its "always"
 * and per-view grants suspended — its calls ask, and the card says the definition changed.
 * Choosing "always" on such a card approves the new definition (it is pinned again).
 */
export interface DefinitionPins {
  changed(serverId: string, tool: string): boolean;
  accept(serverId: string, tool: string): Promise<unknown>;
}

interface Waiter {
  resolve: (decision: ApprovalDecision) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface Pending {
  view: ApprovalView;
  request: ApprovalRequest;
  /** Set for a view's call: a repeat with the same key waits on this card. */
  coalesceKey: string | undefined;
  waiters: Set<Waiter>;
  settle(decision: ApprovalDecision): void;
}

/** Arguments as the user will read them: pretty JSON, cut with a visible marker. */
function argumentsForDisplay(args: unknown): string {
  const text = JSON.stringify(args, null, 2) ?? 'null';
  return text.length <= MAX_ARGUMENTS_DISPLAY
    ? text
    : `${text.slice(0, MAX_ARGUMENTS_DISPLAY)}\n[… ${text.length - MAX_ARGUMENTS_DISPLAY} more characters not shown]`;
}

/** Identical requests of one view session: same server, tool (as it is now) and arguments. */
function coalesceKeyOf(request: ApprovalRequest, fingerprint: string): string | undefined {
  if (request.viewSession === undefined) return undefined;
  return canonicalJson([request.viewSession, request.serverId, request.tool.name, fingerprint, request.arguments], Infinity);
}

function cardOf(id: string, request: ApprovalRequest, requestedAt: number, changed: boolean): ApprovalView {
  const { tool } = request;
  return {
    id,
    serverId: request.serverId,
    serverName: request.serverName,
    tool: tool.name,
    ...(tool.title ? { toolTitle: tool.title } : {}),
    agentName: request.agentName,
    ...(request.agentWording ? { agentWording: request.agentWording } : {}),
    ...(request.runId ? { runId: request.runId } : {}),
    argumentsJson: argumentsForDisplay(request.arguments),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(request.viewSession !== undefined ? { viewGrant: true as const } : {}),
    ...(changed ? { definitionChanged: true as const } : {}),
    requestedAt,
    status: 'pending',
  };
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
    private readonly viewGrants?: ViewGrants,
    private readonly pins?: DefinitionPins,
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
   * tool, or a grant of the asking view for this tool, answers at once; otherwise the user is
   * asked. An abort of `signal` denies this caller.
   */
  async approve(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    const { serverId, serverUrl, tool, viewSession } = request;
    // A schema too large to keep was replaced by a placeholder (catalog limits): its fingerprint
    // cannot notice the server changing it, so no grant is honoured or stored for such a tool.
    const grantable = (tool as { schemaTooLarge?: boolean }).schemaTooLarge !== true;
    // A suspended grant is not consulted at all: consulting would delete it for its old fingerprint.
    const changed = this.pins?.changed(serverId, tool.name) === true;
    if (!changed && grantable && (await this.store.isAlwaysAllowed(serverId, tool, serverUrl))) return true;
    // Only a view's call has a session: an agent's call needs no fingerprint here.
    const fingerprint = viewSession === undefined ? '' : this.store.fingerprintOf(tool);
    if (
      !changed &&
      grantable &&
      viewSession !== undefined &&
      (await this.viewGrants?.allows(viewSession, serverId, tool.name, fingerprint))
    )
      return true;
    if (signal?.aborted) return false;
    const decision = await this.#ask(request, coalesceKeyOf(request, fingerprint), signal, changed);
    if (decision === 'always' && changed) await this.pins?.accept(serverId, tool.name);
    if (decision === 'always' && grantable) await this.store.grant(serverId, tool, serverUrl);
    if (decision === 'view' && grantable && viewSession !== undefined)
      await this.viewGrants?.grant(viewSession, serverId, tool.name, fingerprint);
    return decision !== 'deny';
  }

  /** Waits on the open card with the same key, or opens one; an abort takes this caller off it. */
  #ask(
    request: ApprovalRequest,
    coalesceKey: string | undefined,
    signal: AbortSignal | undefined,
    changed: boolean,
  ): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      const same = coalesceKey === undefined ? undefined : [...this.#pending.values()].find((p) => p.coalesceKey === coalesceKey);
      const pending = same ?? this.#open(request, coalesceKey, changed);
      // Each caller hears when its card opens and closes, also on a coalesced card (the chat's step state, T1).
      request.onCard?.(true);
      const done = (d: ApprovalDecision) => {
        request.onCard?.(false);
        resolve(d);
      };
      const waiter: Waiter = {
        resolve: done,
        signal,
        onAbort: () => {
          if (!pending.waiters.delete(waiter)) return;
          done('deny');
          if (pending.waiters.size === 0) pending.settle('deny');
        },
      };
      pending.waiters.add(waiter);
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      if (same) {
        same.view = { ...same.view, repeats: (same.view.repeats ?? 1) + 1 };
        this.#changed();
      }
    });
  }

  #open(request: ApprovalRequest, coalesceKey: string | undefined, changed: boolean): Pending {
    const id = this.newId();
    const pending: Pending = {
      request,
      coalesceKey,
      waiters: new Set(),
      view: cardOf(id, request, this.now(), changed),
      settle: (d) => {
        if (!this.#pending.delete(id)) return;
        for (const w of pending.waiters) {
          w.signal?.removeEventListener('abort', w.onAbort);
          w.resolve(d);
        }
        pending.waiters.clear();
        this.#changed();
      },
    };
    this.#pending.set(id, pending);
    this.#changed();
    return pending;
  }

  /** The view closed (the panel says so): its per-view grants end. */
  async endViewSession(viewSession: string): Promise<void> {
    await this.viewGrants?.end(viewSession);
  }

  /** The user's answer from the panel; false when the approval is gone (answered or aborted). */
  answer(approvalId: string, decision: ApprovalDecision): boolean {
    const p = this.#pending.get(approvalId);
    if (!p) return false;
    p.settle(decision);
    if (decision === 'view' && p.request.viewSession !== undefined) this.#settleSameViewTool(p.request);
    return true;
  }

  /** "While this view is open" also answers the view's other cards for that tool, as the user saw it. */
  #settleSameViewTool(granted: ApprovalRequest): void {
    const fingerprint = this.store.fingerprintOf(granted.tool);
    for (const other of [...this.#pending.values()]) {
      const r = other.request;
      if (r.viewSession !== granted.viewSession || r.serverId !== granted.serverId || r.tool.name !== granted.tool.name) continue;
      if (this.store.fingerprintOf(r.tool) === fingerprint) other.settle('view');
    }
  }
}
