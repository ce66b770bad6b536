/**
 * Per-server connection state machine (SPEC C1, C7, N5).
 *
 * The manager never mutates a status field from callbacks; it feeds events into
 * {@link transition} and stores what comes back. Because illegal transitions return the
 * *same object*, a caller can detect "this event did not apply" with `next === state`
 * and, for example, ignore a late `connected` from a candidate that was already
 * superseded (SPEC C6) without any special casing.
 */
import type { ErrorAction, WireErrorCodeOf } from '../../protocol/error-codes.js';

/** Why a server is not usable; every error the user sees is attributed to one kind. */
export type ErrorKind = WireErrorCodeOf<
  | 'network'
  | 'http-status'
  | 'auth'
  | 'auth-discovery'
  | 'auth-denied'
  | 'protocol'
  | 'timeout'
  | 'offscreen-lost'
  | 'config-invalid'
  | 'permission'
>;

export interface ErrorReason {
  kind: ErrorKind;
  /** Plain words, safe to show as text (never HTML). */
  message: string;
  httpStatus?: number;
  /** The button that helps, set where the reason is made; the panel never reads `message` for it. */
  action?: ErrorAction;
}

export type ConnectionState =
  | { status: 'disconnected' }
  | { status: 'connecting'; attempt: number }
  | { status: 'ready'; connectionId: string }
  | { status: 'needs-auth'; reason: ErrorReason }
  | { status: 'error'; reason: ErrorReason };

export type ConnectionStatus = ConnectionState['status'];

export type ConnectionEvent =
  | { type: 'connect' }
  | { type: 'connected'; connectionId: string }
  | { type: 'failed'; reason: ErrorReason }
  | { type: 'auth-required'; reason: ErrorReason }
  | { type: 'disconnect' }
  | { type: 'session-lost'; reason: ErrorReason };

export type ConnectionEventType = ConnectionEvent['type'];

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

/** A state in words for the panel card and the badge tooltip (SPEC J1, K8). */
export interface StateDescription {
  /** Short label, e.g. "Connected". */
  label: string;
  /** One sentence about what is going on. */
  summary: string;
  /** What the user can do next; null when nothing is needed. */
  hint: string | null;
  /** True when the badge should count this server (SPEC K7). */
  needsAttention: boolean;
}

const HINTS: Record<ErrorKind, string> = {
  network: 'Check that the server address is right and reachable, then reconnect.',
  'http-status': 'The server answered with an error. Check the URL (including its path) and try again later.',
  auth: 'Update the token or re-authorize this server.',
  'auth-discovery': 'The server did not describe its authorization correctly. Check the URL or contact the server operator.',
  'auth-denied': 'Authorization was refused or cancelled. Click Authorize to try again.',
  protocol: 'The server did not answer like an MCP server. Check that the URL points at its Streamable HTTP endpoint.',
  timeout: 'The server took too long to answer. Try again, or raise the timeout for this server.',
  'offscreen-lost': 'The extension lost its connection worker. Reconnect; it will be restarted.',
  'config-invalid': 'This server\u2019s saved settings are invalid. Edit or re-add the server.',
  permission: 'Grant the extension access to this server\u2019s site, then reconnect.',
};

/** The "what to do next" sentence for a reason kind. */
export function hintFor(kind: ErrorKind): string {
  return HINTS[kind];
}

function reasonText(reason: ErrorReason): string {
  return reason.httpStatus !== undefined ? `${reason.message} (HTTP ${reason.httpStatus})` : reason.message;
}

/** Plain-words summary plus a next step, so every error says what to do (SPEC K8). */
export function describeState(state: ConnectionState): StateDescription {
  switch (state.status) {
    case 'disconnected':
      return { label: 'Disconnected', summary: 'Not connected.', hint: null, needsAttention: false };
    case 'connecting':
      return {
        label: 'Connecting',
        summary: state.attempt > 1 ? `Reconnecting (attempt ${state.attempt})\u2026` : 'Connecting\u2026',
        hint: null,
        needsAttention: false,
      };
    case 'ready':
      return { label: 'Connected', summary: 'Connected and ready.', hint: null, needsAttention: false };
    case 'needs-auth':
      return {
        label: 'Needs authorization',
        summary: reasonText(state.reason),
        hint:
          state.reason.kind === 'permission'
            ? hintFor('permission')
            : 'Click Authorize to sign in to this server; its tools stay hidden until then.',
        needsAttention: true,
      };
    case 'error':
      return { label: 'Error', summary: reasonText(state.reason), hint: hintFor(state.reason.kind), needsAttention: true };
  }
}
