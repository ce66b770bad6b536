/**
 * Carries a server's `elicitation/create` (form mode, and URL mode: R5) to the worker and back (SPEC I1). Each
 * question is a pending object that owns its resolver and settles exactly once: by the user's
 * answer, by the server cancelling its request (abort signal), or by its connection closing.
 * A question is attributed to the tool call in flight on its connection when there is exactly
 * one; the SDK does not tell the client which request an elicitation belongs to.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { OffscreenEvent, OffscreenParams, OffscreenValue } from '../protocol/offscreen.js';
import { MAX_ELICITATION_MESSAGE } from '../protocol/offscreen-elicitation.js';
import { randomId } from '../common/random-id.js';
import { openableElicitationUrl } from '../common/elicitation-url.js';

/** A schema bigger than this is declined rather than shipped to the panel (SPEC N8). */
export const MAX_SCHEMA_JSON = 64 * 1024;
/** Open questions one connection may have at once; more are declined (SPEC N5: no flood of cards). */
export const MAX_PENDING_PER_CONNECTION = 4;

interface Question {
  connectionId: string;
  /** A URL-mode question (R5). */
  url: boolean;
  /** What the worker is told. */
  event: OffscreenEvent;
  /** Whether a worker heard it; one asked while none listened is told to the next that claims the document. */
  told: boolean;
  settle(result: ElicitResult | Error): void;
}

/**
 * What the panel gets of a question, or undefined when it is declined at once: a form needs a
 * schema of bounded size (N8); a URL-mode page must be one the card may open (R5).
 */
function questionOf(params: ElicitRequest['params']): { requestedSchema: Record<string, unknown>; url?: string } | undefined {
  if ((params as { mode?: unknown }).mode === 'url') {
    const url = openableElicitationUrl((params as { url?: unknown }).url);
    return url ? { requestedSchema: {}, url: url.href } : undefined;
  }
  const requestedSchema = (params as { requestedSchema?: unknown }).requestedSchema;
  if (!requestedSchema || typeof requestedSchema !== 'object' || JSON.stringify(requestedSchema).length > MAX_SCHEMA_JSON) return undefined;
  return { requestedSchema: requestedSchema as Record<string, unknown> };
}

export class ElicitationRelay {
  readonly #questions = new Map<string, Question>();
  readonly #calls = new Map<string, Set<string>>();

  /** `emit` says whether a worker was there to hear the question. */
  constructor(private readonly emit: (event: OffscreenEvent) => boolean) {}

  callStarted(connectionId: string, operationId: string) {
    let set = this.#calls.get(connectionId);
    if (!set) this.#calls.set(connectionId, (set = new Set()));
    set.add(operationId);
  }

  callEnded(connectionId: string, operationId: string) {
    const set = this.#calls.get(connectionId);
    set?.delete(operationId);
    if (set?.size === 0) this.#calls.delete(connectionId);
  }

  /** The session's `onElicitation`: resolves when the user answers in the panel. */
  ask(connectionId: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const question = questionOf(params);
    if (!question) return Promise.resolve({ action: 'decline' });
    // Questions belong to a tool call the user started (SPEC I1); a server cannot raise cards
    // out of the blue, nor stack more than a few on one connection.
    if (!this.#calls.get(connectionId)?.size || this.pendingOn(connectionId) >= MAX_PENDING_PER_CONNECTION) {
      return Promise.resolve({ action: 'decline' });
    }
    const elicitationId = randomId();
    const calls = this.#calls.get(connectionId);
    const operationId = calls?.size === 1 ? [...calls][0] : undefined;
    const event: OffscreenEvent = {
      type: 'offscreen:elicitation',
      connectionId,
      ...(operationId ? { operationId } : {}),
      elicitationId,
      message: String(params.message ?? '').slice(0, MAX_ELICITATION_MESSAGE),
      ...question,
    };
    return new Promise<ElicitResult>((resolve, reject) => {
      const onAbort = () => q.settle(new Error('The server withdrew its question.'));
      const q: Question = {
        connectionId,
        url: question.url !== undefined,
        event,
        told: false,
        settle: (result) => {
          if (!this.#questions.delete(elicitationId)) return;
          signal.removeEventListener('abort', onAbort);
          if (result instanceof Error) reject(result);
          else resolve(result);
        },
      };
      this.#questions.set(elicitationId, q);
      signal.addEventListener('abort', onAbort, { once: true });
      q.told = this.emit(event);
    });
  }

  answer(p: OffscreenParams<'offscreen:answer-elicitation'>): OffscreenValue<'offscreen:answer-elicitation'> {
    const q = this.#questions.get(p.elicitationId);
    if (!q) return { delivered: false };
    // A URL-mode "accept" carries no content: the user opened the page (R5).
    const accepted: ElicitResult = q.url
      ? { action: 'accept' }
      : { action: 'accept', content: (p.content ?? {}) as ElicitResult['content'] };
    q.settle(p.action === 'accept' ? accepted : { action: p.action });
    return { delivered: true };
  }

  /**
   * The open questions no worker heard, marked heard now. Only a task's question can be asked while
   * no worker listens (a plain call is cancelled with its worker): the next worker that claims the
   * document is told it (SPEC R6). A question a worker did hear is not told again: the next worker
   * shows it as failed with the restart (I3).
   */
  untold(): OffscreenEvent[] {
    const untold = [...this.#questions.values()].filter((q) => !q.told);
    for (const q of untold) q.told = true;
    return untold.map((q) => q.event);
  }

  pendingOn(connectionId: string): number {
    let n = 0;
    for (const q of this.#questions.values()) if (q.connectionId === connectionId) n++;
    return n;
  }

  /** A closed connection can no longer deliver answers: its questions fail at once. */
  dropConnection(connectionId: string) {
    this.#calls.delete(connectionId);
    for (const q of [...this.#questions.values()]) if (q.connectionId === connectionId) q.settle(new Error('The connection was closed.'));
  }
}
