/**
 * What the v2 client (2026-07-28 sessions, modern-session.ts) throws, in the same words as the
 * 2025 SDK's errors (SPEC C1, N10): an HTTP refusal keeps its status (a 401/403 goes on to
 * authorization), a JSON-RPC error is quoted once, the client's own timeout and closed connection
 * say so, and a server that keeps asking past the round limit is named.
 */
import {
  InsufficientScopeError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';

export function describeModernError(e: unknown, origin: string): WireError | undefined {
  if (e instanceof SdkHttpError) return httpRefusal(e.status, e.message, origin);
  // Without an OAuth provider of its own the transport throws these for a 401 and for a 403
  // insufficient_scope instead of an HTTP error: they keep their status, so the worker refreshes
  // or authorizes (E9) and offers step-up with the challenge's scope (E7).
  if (e instanceof UnauthorizedError) return httpRefusal(401, e.message, origin);
  if (e instanceof InsufficientScopeError) return httpRefusal(403, e.message, origin);
  if (e instanceof ProtocolError) {
    return { code: 'protocol', ...say('reasonMcpError', { origin, code: e.code, detail: e.message.slice(0, 500) }) };
  }
  if (!(e instanceof SdkError)) return undefined;
  if (e.code === SdkErrorCode.RequestTimeout) return { code: 'timeout', ...say('reasonNoAnswerInTime', { origin }) };
  if (e.code === SdkErrorCode.ConnectionClosed) return { code: 'network', ...say('reasonConnectionClosed', { origin }) };
  return { code: 'protocol', ...say('reasonServerSaid', { origin, detail: e.message.slice(0, 500) }) };
}

function httpRefusal(status: number, message: string, origin: string): WireError {
  if (status === 401 || status === 403) return { code: 'auth', ...say('reasonTokenRefused', { origin, status }), httpStatus: status };
  if (status === 404) return { code: 'http-status', ...say('reasonNotFound', { origin }), httpStatus: 404 };
  return { code: 'http-status', ...say('reasonHttpStatus', { origin, status, detail: message.slice(0, 300) }), httpStatus: status };
}
