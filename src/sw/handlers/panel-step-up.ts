/**
 * The worker's one {@link StepUpTracker}, over the real AuthManager and the live-session token
 * handover, and the `panel:step-up` handler (SPEC E7). Kept apart from step-up.ts so that file
 * stays free of chrome.* and can be unit-tested with the real AuthManager.
 */
import { configStore } from '../chrome/config-access.js';
import { handTokenToLiveSessions } from '../offscreen-link/oauth-requests.js';
import { authConfigOf, authManager } from '../chrome/oauth-runtime.js';
import { StepUpTracker } from '../auth/step-up.js';

export const stepUps = new StepUpTracker({
  auth: authManager,
  configOf: async (id) => (await configStore.read()).servers.find((s) => s.id === id),
  authConfigOf,
  handOver: handTokenToLiveSessions,
});

/** Spread into the panel API next to the other OAuth handlers. */
export function stepUpPanelHandlers() {
  return {
    'panel:step-up': (p: { serverId: string; tool: string }) => stepUps.grant(p.serverId, p.tool),
  };
}
