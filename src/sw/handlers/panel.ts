/**
 * Answers the side panel's requests (src/protocol/panel.ts). Each handler validates its
 * parameters by schema before it runs, and always answers with a Result envelope.
 */
import type { PanelParams, PanelState, PanelValue } from '../../protocol/panel.js';
import type { UsePanelRequestSchemas } from '../../protocol/panel-use.js';
import type { AppsPanelRequestSchemas } from '../../protocol/panel-apps.js';
import type { ChatPanelRequestSchemas } from '../../protocol/panel-chat.js';
import type { ConfigStore } from '../../storage/config-store.js';
import type { StepUpTracker } from '../auth/step-up.js';
import { oauthPanelHandlers, type OAuthHandlerDeps } from './panel-oauth.js';
import { stepUpPanelHandlers } from './panel-step-up.js';
import { managePanelHandlers, type ManageHandlerDeps } from './panel-manage.js';
import { editPanelHandlers, type EditHandlerDeps } from './panel-edit.js';
import { activityPanelHandlers } from './panel-activity.js';
import type { DiagnosticsHandlers } from './panel-diagnostics.js';
import type { DirectoryHandlers } from './panel-directory.js';
import type { ApprovalStore } from '../use/approval-store.js';
import type { RequestLogBatch } from '../offscreen-link/request-log-batch.js';
import type { RunnerCalls } from '../use/runner-calls.js';
import { serverPanelHandlers } from './panel-servers.js';
import { panelDispatcher } from './panel-dispatch.js';
import { pinsPanelHandlers } from './panel-pins.js';

/** Everything the panel's handlers use; main.ts builds each object and hands them in here. */
export interface PanelApiDeps extends OAuthHandlerDeps, ManageHandlerDeps, Omit<EditHandlerDeps, 'auth' | 'configStore'> {
  configStore: ConfigStore;
  stepUps: Pick<StepUpTracker, 'track' | 'grant'>;
  state(): PanelState;
  newOperationId(): string;
  /** The runner's calls, whose progress is pushed to the panels (src/sw/use/runner-calls.ts). */
  runnerCalls: Pick<RunnerCalls, 'track'>;
  /** Approval, cancellation and MCP App view handlers (src/sw/use/use-service.ts). */
  useHandlers: UseHandlers;
  /** The chat's handlers (src/sw/chat/chat-service.ts). */
  chatHandlers: ChatHandlers;
  /** "Always allow" grants, listed and revoked from the Activity view. */
  grants: Pick<ApprovalStore, 'list' | 'revoke' | 'revokeAll'>;
  /** Grants are listed for the edit form and restored when a changed definition is accepted (S2). */
  approvals: Pick<ApprovalStore, 'list' | 'restore'>;
  /** The request-log rows not stored yet (request-log-batch.ts): stored before the log is read or cleared. */
  requestLog: Pick<RequestLogBatch, 'flush'>;
  /** "Copy diagnostics" (V3, panel-diagnostics.ts). */
  diagnosticsHandlers: DiagnosticsHandlers;
  /** The server directory (S1, panel-directory.ts). */
  directoryHandlers: DirectoryHandlers;
}

type UseHandlers = {
  [M in keyof typeof UsePanelRequestSchemas | keyof typeof AppsPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>>;
};

type ChatHandlers = { [M in keyof typeof ChatPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

/** Every panel request by its handler, each validated and answered by {@link panelDispatcher}. */
export function createPanelApi(deps: PanelApiDeps) {
  return panelDispatcher({
    'panel:get-state': async () => deps.state(),
    ...serverPanelHandlers(deps),
    ...deps.useHandlers,
    ...deps.chatHandlers,
    ...oauthPanelHandlers(deps),
    ...stepUpPanelHandlers(deps),
    ...managePanelHandlers(deps),
    ...editPanelHandlers(deps),
    ...pinsPanelHandlers(deps),
    ...activityPanelHandlers({ grants: deps.grants, views: () => deps.manager.views(), requestLog: deps.requestLog }),
    ...deps.diagnosticsHandlers,
    ...deps.directoryHandlers,
  });
}
