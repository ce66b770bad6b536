/**
 * The parts of a request log entry (SPEC J2) that do not depend on when they are written: the
 * outcome of a request (its answer's size, or its failure's status and words), the question a
 * server asked with the user's answer, and a server's list change. Sizes are UTF-8 bytes of the
 * JSON; what cannot be measured counts as 0.
 */
import type { OffscreenEvent } from '../../protocol/offscreen.js';
import type { Wording } from '../../protocol/wording.js';
import type { RequestLogEntry } from '../../storage/request-log.js';

export function byteSize(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : new TextEncoder().encode(text).length;
  } catch {
    return 0;
  }
}

/** How a request ended, as logged. */
export type Outcome = Pick<RequestLogEntry, 'status' | 'responseBytes' | 'response' | 'error' | 'errorWording'>;

/** Response bodies are fresh objects validated by the worker client; nothing mutates them later. */
export function succeeded(value: unknown): Outcome {
  return { status: 'ok', responseBytes: byteSize(value), response: value };
}

/** A failure: its HTTP status where it had one, its message and, when it has one, its wording. */
export function failed(e: unknown): Outcome {
  const status = typeof (e as { httpStatus?: unknown }).httpStatus === 'number' ? (e as { httpStatus: number }).httpStatus : 'error';
  const error = e instanceof Error ? e.message : String(e);
  const errorWording = (e as { wording?: Wording }).wording;
  return { status, responseBytes: 0, error, ...(errorWording ? { errorWording } : {}) };
}

type ElicitationEvent = Extract<OffscreenEvent, { type: 'offscreen:elicitation' }>;

/** A server's question waiting for the user's answer. */
export interface AskedQuestion {
  serverId: string;
  at: number;
  params: unknown;
}

export function askedQuestion(event: ElicitationEvent, serverId: string, at: number): AskedQuestion {
  return { serverId, at, params: { message: event.message, requestedSchema: event.requestedSchema } };
}

/** The user's answer as logged: the action, and the content when there is some. */
export function answerOf(p: Record<string, unknown>): unknown {
  return { action: p['action'], ...(p['content'] ? { content: p['content'] } : {}) };
}

/** One entry for a server's `elicitation/create` and the user's answer, timed from the question. */
export function answeredQuestionEntry(question: AskedQuestion, response: unknown, durationMs: number): RequestLogEntry {
  return {
    at: question.at,
    method: 'elicitation/create',
    direction: 'in',
    durationMs,
    status: 'ok',
    requestBytes: byteSize(question.params),
    responseBytes: byteSize(response),
    request: question.params,
    response,
  };
}

/** A server's `notifications/<category>/list_changed`. */
export function listChangedEntry(category: string, at: number): RequestLogEntry {
  return {
    at,
    method: `notifications/${category}/list_changed`,
    direction: 'in',
    notification: true,
    durationMs: 0,
    status: 'ok',
    requestBytes: 0,
    responseBytes: 0,
  };
}
