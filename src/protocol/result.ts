/**
 * The one result envelope every request across a context boundary answers with, so that an
 * error keeps its attributed code all the way to the panel instead of becoming a bare string.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import {
  ErrorActionSchema,
  WireErrorCodeSchema,
  isErrorAction,
  isWireErrorCode,
  type ErrorAction,
  type WireErrorCode,
} from './error-codes.js';
import { WordingSchema, type Wording } from './wording.js';

export interface WireError {
  /** Stable machine code from {@link WireErrorCode} (e.g. `network`, `http-status`, `timeout`). */
  code: WireErrorCode;
  /** Plain words for the user, naming what failed and, where possible, what to do next. */
  message: string;
  httpStatus?: number;
  /** The `WWW-Authenticate` challenge of a 401/403, so the worker's AuthManager can act on it (SPEC E3, E7). */
  wwwAuthenticate?: string;
  /** What the user can do about it; the panel shows it as a button, never by reading `message`. */
  action?: ErrorAction;
  /** `message` as a code + parameters, so the panel can say it in the user's language. */
  wording?: Wording;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: WireError };

export const WireErrorSchema = lazySchema(() =>
  z.object({
    code: WireErrorCodeSchema,
    message: z.string().check(z.maxLength(4096)),
    httpStatus: z.optional(z.number().check(z.int())),
    wwwAuthenticate: z.optional(z.string().check(z.maxLength(4096))),
    action: z.optional(ErrorActionSchema),
    wording: WordingSchema,
  }),
);

/** Validates an envelope whose `value` is checked by `value` schema. */
export function resultSchema<T extends z.ZodMiniType>(value: T) {
  return z.union([z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: WireErrorSchema })]);
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: WireErrorCode, message: string, httpStatus?: number): Result<never> => ({
  ok: false,
  error: httpStatus === undefined ? { code, message } : { code, message, httpStatus },
});

/** An Error that carries a {@link WireError}, thrown by clients of the protocol. */
export class RemoteError extends Error {
  readonly code: WireErrorCode;
  readonly httpStatus: number | undefined;
  readonly wwwAuthenticate: string | undefined;
  readonly action: ErrorAction | undefined;
  readonly wording: Wording | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'RemoteError';
    this.code = error.code;
    this.httpStatus = error.httpStatus;
    this.wwwAuthenticate = error.wwwAuthenticate;
    this.action = error.action;
    this.wording = error.wording;
  }
}

/**
 * Turns any thrown value into a WireError without losing an existing code or action. A `code`
 * that is not a wire code (e.g. Node's `ECONNRESET`) gives way to `fallbackCode`.
 */
export function toWireError(e: unknown, fallbackCode: WireErrorCode = 'internal'): WireError {
  if (e instanceof RemoteError) {
    const w: WireError =
      e.httpStatus === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, httpStatus: e.httpStatus };
    if (e.wwwAuthenticate !== undefined) w.wwwAuthenticate = e.wwwAuthenticate;
    if (e.action !== undefined) w.action = e.action;
    if (e.wording !== undefined) w.wording = e.wording;
    return w;
  }
  const fields = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; action?: unknown; wording?: unknown };
  const code = isWireErrorCode(fields.code) ? fields.code : fallbackCode;
  const message = e instanceof Error ? e.message : String(e);
  const w: WireError = { code, message: message.slice(0, 4096) };
  if (isErrorAction(fields.action)) w.action = fields.action;
  const wording = WordingSchema.safeParse(fields.wording);
  if (wording.success && wording.data) w.wording = wording.data;
  return w;
}
