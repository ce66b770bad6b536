/**
 * Elicitation interactions in the worker (SPEC I1–I3, R5). A server's question (a form, or a page to open) arrives as
 * `offscreen:elicitation`; it is stored as a persistent `mcp_elicitation` interaction before the
 * panel sees it, and the user's answer is recorded (exactly once, by the store's transaction)
 * before it is sent back, so a double click or two panels cannot answer twice.
 *
 * The worker cannot hold a server's request across its own restart: on start, every interaction
 * still pending is marked failed with the reason, and those stay listed (in `storage.session`)
 * until the user dismisses them or re-runs the tool call — which needs the explicit "retry is
 * safe" confirmation (H3). The original call (tool and arguments) is stored with the interaction
 * for that purpose.
 */
import { say } from '../../protocol/wording.js';
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { ElicitationView } from '../../protocol/panel-use.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import type { Interaction, InteractionStore } from '../../storage/interaction-store.js';

export const RESTART_REASON =
  'the extension restarted while this question was open, so the answer could not be delivered and the tool call failed.';
export const FAILED_KEY = 'mcp_failed_interactions';
/**
 * Stored for a question whose call the server ended while the question was open: the server
 * stopped waiting (its own time limit, e.g. the SDKs' 60 s request timeout). The card says so in
 * plain words, with the seconds it waited, instead of the raw error the server sent.
 */
export const SERVER_STOPPED_REASON = 'The server stopped waiting for the answer, and the tool call ended.';
/** A call that ended for one of these was stopped here or lost its connection: the server did not give up. */
const NOT_THE_SERVER = new Set(['cancelled', 'timeout', 'network', 'session-lost', 'offscreen-lost', 'stale-connection', 'superseded']);
/** Stored for a question whose call the offscreen host could not name. */
const UNKNOWN_OPERATION = 'unknown';

export interface CallInfo {
  tool: string;
  arguments: Record<string, unknown>;
}

/** What is stored in the interaction's `request`. */
interface StoredRequest {
  message: string;
  requestedSchema: Record<string, unknown>;
  /** A URL-mode question's page (R5). */
  url?: string;
  call?: CallInfo;
}

export interface ElicitationDeps {
  store: Pick<InteractionStore, 'put' | 'get' | 'listPending' | 'setStatus' | 'failPendingOnStartup'>;
  /** Ids of failed interactions still shown; `chrome.storage.session` in the extension. */
  session: { get(key: string): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> };
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
  /** The server behind a live connection, if it is still current. */
  serverOf(connectionId: string): { serverId: string; serverName: string } | undefined;
  serverName(serverId: string): string;
  callOf(operationId: string): CallInfo | undefined;
  callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    operationId: string,
  ): Promise<PanelValue<'panel:rerun-interaction'>>;
  push(views: ElicitationView[]): void;
  newId(): string;
  /**
   * Settles once the worker's start-up adopted the document's sessions: a question the document
   * hands a new worker right after its claim names a connection only known from then on (R6).
   */
  started?: Promise<unknown>;
}

export class Elicitations {
  readonly #ready: Promise<void>;
  /**
   * Calls a question was stored for by this worker instance. Start-up fails every question left
   * pending by an earlier instance, so only these can still be open when a call ends; the others
   * skip the store read (~0.4 ms of IndexedDB per call).
   */
  readonly #asked = new Set<string>();

  constructor(private readonly deps: ElicitationDeps) {
    this.#ready = deps.store
      .failPendingOnStartup(RESTART_REASON)
      .then(async (failed) => {
        if (failed.length) await this.#setFailed([...(await this.#failedIds()), ...failed.map((f) => f.id)]);
      })
      .catch((e) => console.error('[elicitations] could not fail pending interactions', e));
  }

  async #failedIds(): Promise<string[]> {
    const v = (await this.deps.session.get(FAILED_KEY))[FAILED_KEY];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  async #setFailed(ids: string[]) {
    await this.deps.session.set({ [FAILED_KEY]: [...new Set(ids)].slice(-50) });
  }

  /** Pending questions and failed ones still listed, oldest first. */
  async views(): Promise<ElicitationView[]> {
    await this.#ready;
    const pending = await this.deps.store.listPending();
    const failed = (await Promise.all((await this.#failedIds()).map((id) => this.deps.store.get(id)))).filter(
      (i): i is Interaction => i?.status === 'failed',
    );
    return [...pending, ...failed].map((i) => this.#view(i));
  }

  #view(i: Interaction): ElicitationView {
    const r = (i.request ?? {}) as Partial<StoredRequest>;
    return {
      id: i.id,
      serverId: i.serverId,
      serverName: this.deps.serverName(i.serverId).slice(0, 256),
      ...(r.call ? { tool: r.call.tool } : {}),
      ...(i.operationId && i.operationId !== UNKNOWN_OPERATION ? { operationId: i.operationId.slice(0, 128) } : {}),
      message: String(r.message ?? '').slice(0, 4096),
      requestedSchema: r.requestedSchema ?? {},
      ...(typeof r.url === 'string' ? { url: r.url.slice(0, 2048) } : {}),
      status: i.status === 'pending' ? 'pending' : 'failed',
      ...(i.reason && i.status !== 'pending' ? { reason: i.reason } : {}),
      canRerun: !!r.call,
      askedAt: i.createdAt,
      ...(i.reason === SERVER_STOPPED_REASON ? { stoppedAfterSec: Math.max(0, Math.round((i.updatedAt - i.createdAt) / 1000)) } : {}),
    };
  }

  async #push() {
    this.deps.push(await this.views());
  }

  /** A question from the offscreen host: stored first, then shown. */
  async onEvent(event: OffscreenEvent) {
    if (event.type !== 'offscreen:elicitation') return;
    await this.#ready;
    await this.deps.started?.catch(() => undefined);
    const server = this.deps.serverOf(event.connectionId);
    if (!server) {
      await this.deps
        .request('offscreen:answer-elicitation', { elicitationId: event.elicitationId, action: 'decline' })
        .catch(() => undefined);
      return;
    }
    if (event.operationId) this.#asked.add(event.operationId);
    const call = event.operationId ? this.deps.callOf(event.operationId) : undefined;
    const request: StoredRequest = {
      message: event.message,
      requestedSchema: event.requestedSchema,
      ...(event.url !== undefined ? { url: event.url } : {}),
      ...(call ? { call } : {}),
    };
    await this.deps.store.put({
      id: event.elicitationId,
      serverId: server.serverId,
      connectionId: event.connectionId,
      operationId: event.operationId ?? UNKNOWN_OPERATION,
      request,
    });
    await this.#push();
  }

  /** Whether a question was stored for this call (only then has `callEnded` anything to do). */
  asked(operationId: string): boolean {
    return this.#asked.has(operationId);
  }

  /**
   * A tool call ended: a question of it still open can no longer be answered. When the server
   * ended the call (a result, or its own error) the server stopped waiting: that card stays, saying
   * so (I1); a call cancelled here, past the question's limit or on a lost connection just ends it.
   */
  async callEnded(operationId: string, error?: unknown) {
    if (!this.#asked.delete(operationId)) return;
    await this.#ready;
    const open = (await this.deps.store.listPending()).filter((i) => i.operationId === operationId);
    if (!open.length) return;
    const code = (error as { code?: unknown } | undefined)?.code;
    const serverStopped = error === undefined || typeof code !== 'string' || !NOT_THE_SERVER.has(code);
    const stopped: string[] = [];
    for (const i of open) {
      const settled = serverStopped
        ? await this.deps.store.setStatus(i.id, 'failed', SERVER_STOPPED_REASON).catch(() => undefined)
        : await this.deps.store.setStatus(i.id, 'expired', 'The tool call ended before the question was answered.').catch(() => undefined);
      if (settled && serverStopped) stopped.push(i.id);
    }
    if (stopped.length) await this.#setFailed([...(await this.#failedIds()), ...stopped]);
    await this.#push();
  }

  async answer(p: PanelParams<'panel:answer-elicitation'>): Promise<PanelValue<'panel:answer-elicitation'>> {
    await this.#ready;
    try {
      await this.deps.store.setStatus(p.interactionId, 'answered', p.action);
    } catch {
      return { delivered: false };
    }
    const sent = await this.deps
      .request('offscreen:answer-elicitation', {
        elicitationId: p.interactionId,
        action: p.action,
        ...(p.action === 'accept' ? { content: p.content ?? {} } : {}),
      })
      .catch(() => ({ delivered: false }));
    await this.#push();
    return sent;
  }

  /** Re-sends the original call of a failed interaction, once; the schema demands `confirmSafe: true`. */
  async rerun(p: PanelParams<'panel:rerun-interaction'>): Promise<PanelValue<'panel:rerun-interaction'>> {
    await this.#ready;
    const ids = await this.#failedIds();
    const i = ids.includes(p.interactionId) ? await this.deps.store.get(p.interactionId) : undefined;
    const call = (i?.request as Partial<StoredRequest> | undefined)?.call;
    if (!i || i.status !== 'failed' || !call)
      throw new RemoteError({
        code: 'not-found',
        ...say('reasonCannotRerun'),
      });
    await this.#setFailed(ids.filter((id) => id !== p.interactionId));
    await this.#push();
    return this.deps.callTool(i.serverId, call.tool, call.arguments, this.deps.newId());
  }

  async dismiss(p: PanelParams<'panel:dismiss-interaction'>): Promise<PanelValue<'panel:dismiss-interaction'>> {
    await this.#ready;
    const ids = await this.#failedIds();
    if (!ids.includes(p.interactionId)) return { dismissed: false };
    await this.#setFailed(ids.filter((id) => id !== p.interactionId));
    await this.#push();
    return { dismissed: true };
  }
}
