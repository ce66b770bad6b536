/**
 * What the use service does with the offscreen document's events: a server's question goes to
 * the elicitations (I1), a runner call's progress is pushed to the panels (H1); other events are the
 * manager's.
 */
import type { OffscreenEvent } from '../../protocol/offscreen.js';
import type { UsePanelPush } from '../../protocol/panel-use.js';
import type { McpManager } from '../manager/mcp-manager.js';
import type { Elicitations } from './elicitations.js';

type ProgressEvent = Extract<OffscreenEvent, { type: 'offscreen:progress' }>;

/** `shownProgress`: whether a panel shows this operation's progress (the runner's calls only, runner-calls.ts). */
export function useEventListener(
  elicitations: Pick<Elicitations, 'onEvent'>,
  push: (message: UsePanelPush) => void,
  shownProgress: (operationId: string) => boolean,
) {
  return (event: OffscreenEvent): void => {
    if (event.type === 'offscreen:elicitation')
      void elicitations.onEvent(event).catch((e) => console.error('[use-service] elicitation failed', e));
    if (event.type === 'offscreen:progress' && shownProgress(event.operationId)) push(progressPush(event));
  };
}

/** The panels' progress push of a call: what the server said, without its connection. */
export function progressPush(event: ProgressEvent): UsePanelPush {
  return {
    type: 'panel:progress',
    operationId: event.operationId,
    progress: event.progress,
    ...(event.total !== undefined ? { total: event.total } : {}),
    ...(event.message !== undefined ? { message: event.message } : {}),
  };
}

/** The server whose ready connection has that id; undefined for a connection no server has now. */
export function serverOfConnection(
  manager: Pick<McpManager, 'views' | 'state'>,
  connectionId: string,
): { serverId: string; serverName: string } | undefined {
  for (const v of manager.views()) {
    const st = manager.state(v.id);
    if (st?.status === 'ready' && st.connectionId === connectionId) return { serverId: v.id, serverName: v.name };
  }
  return undefined;
}
