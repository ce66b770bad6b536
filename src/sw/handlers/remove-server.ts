/**
 * Removing a server: its session is closed and its authorization forgotten first (tokens
 * revoked where the AS offers it, best effort), each given a bounded wait so that neither an
 * unresponsive server nor an unresponsive AS holds the delete hostage; then the entry and its
 * request log go.
 */
import type { ConfigStore } from '../../storage/config-store.js';
import { clearRequestLog } from '../../storage/request-log.js';
import type { AuthManager } from '../auth/auth-manager.js';
import { authConfigOf } from '../chrome/oauth-runtime.js';
import type { McpManager } from '../manager/mcp-manager.js';
import type { RequestLogBatch } from '../offscreen-link/request-log-batch.js';

/** How long the close and the forgetting may take before the delete goes on without them. */
const REMOVE_WAIT_MS = 5000;

export interface RemoveServerDeps {
  manager: Pick<McpManager, 'disconnect'>;
  configStore: Pick<ConfigStore, 'read' | 'removeServer'>;
  auth: Pick<AuthManager, 'forget'>;
  requestLog: Pick<RequestLogBatch, 'flush'>;
}

export async function removeServer(deps: RemoveServerDeps, serverId: string, waitMs = REMOVE_WAIT_MS): Promise<{ removed: boolean }> {
  const config = (await deps.configStore.read()).servers.find((s) => s.id === serverId);
  if (config) {
    await Promise.all([
      // Its session closes first, so that even the close is in the log cleared below.
      settledWithin(deps.manager.disconnect(serverId), waitMs),
      // Deleting a server also forgets its authorization: the access token leaves session
      // storage and the tokens are revoked where the AS offers it (best effort).
      config.auth.kind === 'oauth'
        ? settledWithin(
            authConfigOf(config).then((c) => deps.auth.forget(c)),
            waitMs,
          )
        : undefined,
    ]);
  }
  const removed = await deps.configStore.removeServer(serverId);
  // Its request log goes with it: ids come from names, and a server added later under the
  // same name must not inherit it.
  if (removed) {
    await deps.requestLog.flush();
    await clearRequestLog(serverId);
  }
  return { removed };
}

/** Resolves when `work` settles (its failure ignored) or after `ms`, whichever comes first. */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms))]);
}
