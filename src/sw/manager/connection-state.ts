/**
 * Per-server connection state machine (SPEC C1, C7, N5).
 *
 * The manager never mutates a status field from callbacks; it feeds events into
 * {@link transition} and stores what comes back. Because illegal transitions return the
 * *same object*, a caller can detect "this event did not apply" with `next === state`
 * and, for example, ignore a late `connected` from a candidate that was already
 * superseded (SPEC C6) without any special casing.
 */
import type { ErrorAction, WireErrorCode } from '../../protocol/error-codes.js';
import type { Wording } from '../../protocol/wording.js';

/** Why a server is not usable; every error the user sees is attributed to one kind. */
export const ERROR_KINDS = [
  'network',
  'http-status',
  'auth',
  'auth-discovery',
  'auth-denied',
  'protocol',
  'timeout',
  'offscreen-lost',
  'config-invalid',
  'permission',
] as const satisfies readonly WireErrorCode[];

export type ErrorKind = (typeof ERROR_KINDS)[number];

export function isErrorKind(code: WireErrorCode): code is ErrorKind {
  return (ERROR_KINDS as readonly WireErrorCode[]).includes(code);
}

export interface ErrorReason {
  kind: ErrorKind;
  /** Plain words, safe to show as text (never HTML). */
  message: string;
  httpStatus?: number;
  /** The button that helps, set where the reason is made; the panel never reads `message` for it. */
  action?: ErrorAction;
  /** `message` as a code + parameters, for the panel to say in the user's language. */
  wording?: Wording;
}

export type ConnectionState =
  | { status: 'disconnected' }
  | { status: 'connecting'; attempt: number }
  | { status: 'ready'; connectionId: string }
  | { status: 'needs-auth'; reason: ErrorReason }
  | { status: 'error'; reason: ErrorReason };

export type ConnectionEvent =
  | { type: 'connect' }
  | { type: 'connected'; connectionId: string }
  | { type: 'failed'; reason: ErrorReason }
  | { type: 'auth-required'; reason: ErrorReason }
  | { type: 'disconnect' }
  | { type: 'session-lost'; reason: ErrorReason };

/**
 * How many automatic reconnects a lost session gets before the server is put in `error`.
 * Bounded so a server that drops every session cannot keep us in a reconnect loop (N5);
 * the manager applies backoff between attempts.
 */
export const MAX_SESSION_RECOVERY_ATTEMPTS = 3;

export const DISCONNECTED: ConnectionState = Object.freeze({ status: 'disconnected' });

/**
 * Pure transition function.
 *
 * Legal transitions:
 * - `connect`: disconnected | needs-auth | error → connecting(1). While connecting or ready it
 *   is a no-op (concurrent connects share the attempt, SPEC C4).
 * - `connected(id)`: connecting → ready(id). Anywhere else it is a stale message (C6).
 * - `failed(reason)`: connecting | ready → error(reason).
 * - `auth-required(reason)`: connecting | ready | needs-auth → needs-auth(reason) (a
 *   needs-auth state takes the newer reason, e.g. after a refused authorization).
 * - `disconnect`: any state except disconnected → disconnected.
 * - `session-lost(reason)`: ready → connecting(1); connecting(n) → connecting(n+1) while
 *   n < {@link MAX_SESSION_RECOVERY_ATTEMPTS}, else error(reason). Recovery happens without
 *   the user (C7); the manager must not replay an in-flight tool call (H3).
 *
 * Every other (state, event) pair is illegal and returns `state` itself, unchanged.
 */
export function transition(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  switch (event.type) {
    case 'connect':
      if (state.status === 'disconnected' || state.status === 'needs-auth' || state.status === 'error') {
        return { status: 'connecting', attempt: 1 };
      }
      return state;
    case 'connected':
      if (state.status === 'connecting') return { status: 'ready', connectionId: event.connectionId };
      return state;
    case 'failed':
      if (state.status === 'connecting' || state.status === 'ready') {
        return { status: 'error', reason: event.reason };
      }
      return state;
    case 'auth-required':
      if (state.status === 'connecting' || state.status === 'ready' || state.status === 'needs-auth') {
        return { status: 'needs-auth', reason: event.reason };
      }
      return state;
    case 'disconnect':
      return state.status === 'disconnected' ? state : DISCONNECTED;
    case 'session-lost':
      if (state.status === 'ready') return { status: 'connecting', attempt: 1 };
      if (state.status === 'connecting') {
        return state.attempt < MAX_SESSION_RECOVERY_ATTEMPTS
          ? { status: 'connecting', attempt: state.attempt + 1 }
          : { status: 'error', reason: event.reason };
      }
      return state;
  }
}
