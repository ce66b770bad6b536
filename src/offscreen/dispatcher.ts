/**
 * Turns one request envelope from the worker into its answer: validates the envelope and the
 * method's parameters, fences senders that no longer own the document, runs the method's handler
 * and wraps what it returns or throws in a {@link Result}. The wire format is the worker's
 * (protocol/offscreen.ts): `{ kind: 'request', id, owner, method, params }` in,
 * `{ kind: 'response', id, result }` out.
 */
import {
  OffscreenRequestEnvelopeSchema,
  OffscreenRequestSchemas,
  type OffscreenMethod,
  type OffscreenParams,
} from '../protocol/offscreen.js';
import { isErrorAction, isWireErrorCode } from '../protocol/error-codes.js';
import { fail, ok, type Result } from '../protocol/result.js';
import { WordingSchema } from '../protocol/wording.js';
import { NOT_THE_OWNER, type OwnerFence } from './owner-fence.js';

export type Handler<M extends OffscreenMethod> = (p: OffscreenParams<M>) => Promise<unknown>;
export type Handlers = { [M in OffscreenMethod]: Handler<M> };

export interface Answer {
  id: number;
  result: Result<unknown>;
}

/** The answer to `raw`, or undefined for an envelope too malformed to answer (it has no usable id). */
export async function dispatch(raw: unknown, handlers: Handlers, fence: OwnerFence): Promise<Answer | undefined> {
  const env = OffscreenRequestEnvelopeSchema.safeParse(raw);
  if (!env.success) {
    console.warn('[offscreen] dropped a malformed request envelope');
    return undefined;
  }
  const { id, method } = env.data;
  const params = OffscreenRequestSchemas[method].safeParse(env.data.params);
  if (!params.success) return { id, result: fail('bad-request', `Invalid parameters for ${method}.`) };
  if (!fence.admit(method, env.data.owner)) return { id, result: fail('stale-connection', NOT_THE_OWNER) };
  try {
    const value = await (handlers[method] as Handler<typeof method>)(params.data);
    return { id, result: ok(value) };
  } catch (e) {
    return { id, result: failureOf(e) };
  }
}

/** What a handler threw, as the failed result the worker reads: its code, words, status, challenge and action. */
export function failureOf(e: unknown): Result<never> {
  const err = (typeof e === 'object' && e !== null ? e : {}) as {
    code?: unknown;
    message?: unknown;
    httpStatus?: unknown;
    wwwAuthenticate?: unknown;
    action?: unknown;
    wording?: unknown;
  };
  const code = isWireErrorCode(err.code) ? err.code : 'protocol';
  const message = typeof err.message === 'string' ? err.message : String(e);
  const result = fail(code, message, typeof err.httpStatus === 'number' ? err.httpStatus : undefined);
  if (!result.ok && typeof err.wwwAuthenticate === 'string') result.error.wwwAuthenticate = err.wwwAuthenticate;
  if (!result.ok && isErrorAction(err.action)) result.error.action = err.action;
  const wording = WordingSchema.safeParse(err.wording);
  if (!result.ok && wording.success && wording.data) result.error.wording = wording.data;
  return result;
}

/**
 * Answers on the link. Structured clone (the channel) throws on what JSON (the Port) silently
 * dropped, e.g. a function in a value: the request then fails instead of waiting forever.
 */
export function reply(link: { postMessage(message: unknown): void }, answer: Answer): void {
  try {
    link.postMessage({ kind: 'response', ...answer });
  } catch {
    link.postMessage({
      kind: 'response',
      id: answer.id,
      result: fail('protocol', 'The answer could not be passed to the service worker.'),
    });
  }
}
