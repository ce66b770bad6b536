/**
 * What a failed or refused interactive authorization leaves behind (SPEC E9, E11): the reason
 * the server's card shows in `needs-auth`, and the error the panel's "Authorize" answers with,
 * both in the same words. A closed window or a refusal reads as denied, a failed discovery as
 * such; every other failure keeps the AuthManager's own message.
 */
import { toWireError, type WireError } from '../../protocol/result.js';
import { say, type Said } from '../../protocol/wording.js';
import type { McpManager } from '../manager/mcp-manager.js';

type AuthFailedReason = Parameters<McpManager['authFailed']>[1];

export interface AuthorizeFailure {
  /** For `manager.authFailed`: the server stays in `needs-auth` with it. */
  reason: AuthFailedReason;
  /** What the panel's request fails with. */
  error: WireError;
}

function kindOf(w: WireError): AuthFailedReason['kind'] {
  if (w.code === 'auth-cancelled' || w.code === 'auth-denied') return 'auth-denied';
  return w.code === 'auth-discovery' ? 'auth-discovery' : 'auth';
}

/** A cancelled authorization says so; one cancelled by closing the window says that instead. */
function wordsOf(w: WireError): Said {
  if (w.code !== 'auth-cancelled') return { message: w.message, ...(w.wording ? { wording: w.wording } : {}) };
  return w.wording?.code === 'reasonAuthWindowClosed'
    ? say('reasonAuthCancelledWindow')
    : say('reasonAuthCancelled', { detail: w.message });
}

export function authorizeFailure(e: unknown): AuthorizeFailure {
  const w = toWireError(e, 'auth');
  const said = wordsOf(w);
  const action = w.action ?? 'authorize';
  return { reason: { kind: kindOf(w), ...said, action }, error: { code: w.code, ...said, action } };
}
