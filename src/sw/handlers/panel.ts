/**
 * Answers the side panel's requests (src/protocol/panel.ts). Each handler validates its
 * parameters by schema before it runs, and always answers with a Result envelope.
 */
import { say } from '../../protocol/wording.js';
import {
  PanelRequestEnvelopeSchema,
  PanelRequestSchemas,
  type PanelMethod,
  type PanelParams,
  type PanelState,
  type PanelValue,
} from '../../protocol/panel.js';
import type { UsePanelRequestSchemas } from '../../protocol/panel-use.js';
import type { AppsPanelRequestSchemas } from '../../protocol/panel-apps.js';
import type { ChatPanelRequestSchemas } from '../../protocol/panel-chat.js';
import { fail, ok, RemoteError, toWireError, type Result } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import { slugify, type ConfigStore } from '../../storage/config-store.js';
import { sealBearer } from '../chrome/credentials.js';
import type { StepUpTracker } from '../auth/step-up.js';
import { checkServerUrl } from '../../common/url-rules.js';
import { newOAuthAuth, oauthPanelHandlers, type OAuthHandlerDeps } from './panel-oauth.js';
import { stepUpPanelHandlers } from './panel-step-up.js';
import { managePanelHandlers, type ManageHandlerDeps } from './panel-manage.js';
import { editPanelHandlers, type EditHandlerDeps } from './panel-edit.js';
import { purposeFor, seal } from '../../storage/seal.js';
import { activityPanelHandlers } from './panel-activity.js';
import type { ApprovalStore } from '../use/approval-store.js';
import { authConfigOf } from '../chrome/oauth-runtime.js';
import { truncateToolResult } from '../use/truncate.js';
import { toolUi } from '../../protocol/mcp-apps.js';
import { clearRequestLog } from '../../storage/request-log.js';
import type { RequestLogBatch } from '../offscreen-link/request-log-batch.js';

/** Everything the panel's handlers use; main.ts builds each object and hands them in here. */
export interface PanelApiDeps extends OAuthHandlerDeps, ManageHandlerDeps, Omit<EditHandlerDeps, 'auth' | 'configStore'> {
  configStore: ConfigStore;
  stepUps: Pick<StepUpTracker, 'track' | 'grant'>;
  state(): PanelState;
  newOperationId(): string;
  /** Approval, cancellation and MCP App view handlers (src/sw/use/use-service.ts). */
  useHandlers: UseHandlers;
  /** The chat's handlers (src/sw/chat/chat-service.ts). */
  chatHandlers: ChatHandlers;
  /** "Always allow" grants, listed and revoked from the Activity view. */
  grants: Pick<ApprovalStore, 'list' | 'revoke' | 'revokeAll'>;
  /** The request-log rows not stored yet (request-log-batch.ts): stored before the log is read or cleared. */
  requestLog: Pick<RequestLogBatch, 'flush'>;
}

type UseHandlers = {
  [M in keyof typeof UsePanelRequestSchemas | keyof typeof AppsPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>>;
};

type ChatHandlers = { [M in keyof typeof ChatPanelRequestSchemas]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

type Handlers = { [M in PanelMethod]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

export function createPanelApi(deps: PanelApiDeps) {
  const { manager, configStore } = deps;
  const handlers: Handlers = {
    'panel:get-state': async () => deps.state(),
    'panel:add-server': async (p) => {
      const checked = checkServerUrl(p.url);
      if (!checked.ok)
        throw new RemoteError({ code: 'invalid-url', message: checked.message, ...(checked.wording ? { wording: checked.wording } : {}) });
      const auth = p.auth;
      let serverId = '';
      await configStore.update(async (servers, { takenIds }) => {
        if (servers.some((s) => s.url === checked.url)) {
          throw new RemoteError({ code: 'duplicate', ...say('reasonDuplicateUrl') });
        }
        serverId = slugify(p.name, takenIds);
        const config: McpServerConfig = {
          id: serverId,
          name: p.name.trim(),
          url: checked.url,
          auth:
            auth.kind === 'oauth'
              ? await newOAuthAuth(serverId, auth)
              : auth.kind === 'bearer'
                ? { kind: 'bearer', token: await sealBearer(serverId, auth.token) }
                : { kind: 'none' },
          enabled: true,
          disabledTools: [],
          connectOnStartup: true,
          ...(p.connectTimeoutMs !== undefined ? { connectTimeoutMs: p.connectTimeoutMs } : {}),
        };
        if (p.headers?.length) {
          config.headers = await Promise.all(
            p.headers.map(async (h) => ({
              name: h.name,
              value: await seal(h.value, purposeFor('header', { serverId, headerName: h.name })),
            })),
          );
        }
        return [...servers, config];
      });
      return { serverId };
    },
    'panel:remove-server': async (p) => {
      const config = (await configStore.read()).servers.find((s) => s.id === p.serverId);
      // Neither an unresponsive server nor an unresponsive AS may hold the delete hostage.
      const bounded = (work: Promise<unknown>) =>
        Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (config) {
        await Promise.all([
          // Its session closes first, so that even the close is in the log cleared below.
          bounded(manager.disconnect(p.serverId)),
          // Deleting a server also forgets its authorization: the access token leaves session
          // storage and the tokens are revoked where the AS offers it (best effort).
          config.auth.kind === 'oauth' ? bounded(authConfigOf(config).then((c) => deps.auth.forget(c))) : undefined,
        ]);
      }
      const removed = await configStore.removeServer(p.serverId);
      // Its request log goes with it: ids come from names, and a server added later under the
      // same name must not inherit it.
      if (removed) {
        await deps.requestLog.flush();
        await clearRequestLog(p.serverId);
      }
      return { removed };
    },
    'panel:connect': async (p) => {
      await manager.connect(p.serverId);
      return { status: 'ready' as const };
    },
    'panel:disconnect': async (p) => {
      await manager.disconnect(p.serverId);
      return { status: 'disconnected' as const };
    },
    'panel:set-enabled': async (p) => {
      await configStore.updateServer(p.serverId, { enabled: p.enabled });
      return { enabled: p.enabled };
    },
    'panel:set-tool-enabled': async (p) => {
      await configStore.update((servers) =>
        servers.map((s) => {
          if (s.id !== p.serverId) return s;
          const rest = s.disabledTools.filter((t) => t !== p.tool);
          return { ...s, disabledTools: p.enabled ? rest : [...rest, p.tool] };
        }),
      );
      return { enabled: p.enabled };
    },
    // A user-started call: a 403 insufficient_scope becomes an offer to grant more access (E7).
    // The panel gets the same size budget as an agent (SPEC H4), with the visible cut markers.
    'panel:call-tool': async (p) => {
      const tool = manager
        .views()
        .find((v) => v.id === p.serverId)
        ?.tools.find((t) => t.name === p.tool);
      // The runner never lists a tool only its view may call (MCP Apps visibility); refuse it here too.
      if (tool && !toolUi(tool).model)
        throw new RemoteError({ code: 'unknown-tool', message: `"${p.tool}" is callable only from its view.` });
      return truncateToolResult(
        await deps.stepUps.track(p.serverId, p.tool, () =>
          manager.callTool(p.serverId, p.tool, p.arguments, p.operationId ?? deps.newOperationId()),
        ),
      ).result;
    },
    'panel:ping': async (p) => ({ latencyMs: await manager.ping(p.serverId) }),
    ...deps.useHandlers,
    ...deps.chatHandlers,
    ...oauthPanelHandlers(deps),
    ...stepUpPanelHandlers(deps),
    ...managePanelHandlers(deps),
    ...editPanelHandlers(deps),
    ...activityPanelHandlers({ grants: deps.grants, views: () => manager.views(), requestLog: deps.requestLog }),
  };

  return async function handle(message: unknown): Promise<Result<unknown>> {
    const env = PanelRequestEnvelopeSchema.safeParse(message);
    if (!env.success) return fail('bad-request', 'Unknown or malformed request.');
    const method = env.data.type;
    const params = PanelRequestSchemas[method].safeParse(env.data.params);
    if (!params.success) return fail('bad-request', `Invalid parameters for ${method}: ${params.error.issues[0]?.message ?? ''}`);
    try {
      return ok(await (handlers[method] as (p: unknown) => Promise<unknown>)(params.data));
    } catch (e) {
      return { ok: false, error: toWireError(e) };
    }
  };
}
