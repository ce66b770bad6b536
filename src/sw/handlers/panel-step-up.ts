/**
 * The `panel:step-up` handler (SPEC E7): the user's "Grant more access" click runs the
 * interactive step-up the worker's {@link StepUpTracker} (built in main.ts) recorded for that
 * server and tool.
 */
import type { StepUpTracker } from '../auth/step-up.js';

/** Spread into the panel API next to the other OAuth handlers. */
export function stepUpPanelHandlers(deps: { stepUps: Pick<StepUpTracker, 'grant'> }) {
  return {
    'panel:step-up': (p: { serverId: string; tool: string }) => deps.stepUps.grant(p.serverId, p.tool),
  };
}
