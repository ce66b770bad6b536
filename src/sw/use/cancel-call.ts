/**
 * Cancels a tool call wherever it is (H2): a view's call still waiting for the user's approval
 * loses its card and is never sent; a call still waiting for a connect, a recovery or the queue
 * is never sent; a sent call gets `offscreen:cancel` on the server's live connection (the
 * offscreen side also records a cancel that arrives before its call).
 */
import type { OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { McpManager } from '../manager/mcp-manager.js';

export interface CancelCallDeps {
  manager: Pick<McpManager, 'cancelUnsent' | 'state'>;
  /** Withdraws the approval card of a view's call; false when no such call waits. */
  cancelWaiting(operationId: string): boolean;
  request(method: 'offscreen:cancel', params: OffscreenParams<'offscreen:cancel'>): Promise<OffscreenValue<'offscreen:cancel'>>;
}

/** True when the call was stopped here or the server's side was told. */
export async function cancelCall(deps: CancelCallDeps, serverId: string, operationId: string): Promise<boolean> {
  if (deps.cancelWaiting(operationId)) return true;
  if (deps.manager.cancelUnsent(operationId)) return true;
  const state = deps.manager.state(serverId);
  if (state?.status !== 'ready') return false;
  return (await deps.request('offscreen:cancel', { connectionId: state.connectionId, operationId })).cancelled;
}
