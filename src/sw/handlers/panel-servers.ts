/**
 * Handlers of the panel's own server requests (src/protocol/panel.ts): add and remove a server,
 * connect and disconnect it, enable it or one of its tools, run a tool from the panel's tool
 * runner, ping it.
 */
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import { toolUi } from '../../protocol/mcp-apps.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { ConfigStore } from '../../storage/config-store.js';
import type { RunnerCalls } from '../use/runner-calls.js';
import type { StepUpTracker } from '../auth/step-up.js';
import type { McpManager } from '../manager/mcp-manager.js';
import { truncateToolResult } from '../use/truncate.js';
import { addServer } from './new-server.js';
import { removeServer, type RemoveServerDeps } from './remove-server.js';
import { approveEnabled } from '../manager/pins.js';

type ServerMethod =
  | 'panel:add-server'
  | 'panel:remove-server'
  | 'panel:connect'
  | 'panel:disconnect'
  | 'panel:set-enabled'
  | 'panel:set-tool-enabled'
  | 'panel:call-tool'
  | 'panel:ping';
type ServerHandlers = { [M in ServerMethod]: (p: PanelParams<M>) => Promise<PanelValue<M>> };

export interface ServerHandlerDeps extends RemoveServerDeps {
  manager: Pick<McpManager, 'connect' | 'disconnect' | 'callTool' | 'ping' | 'listedTool'>;
  configStore: Pick<ConfigStore, 'read' | 'update' | 'updateServer' | 'removeServer'>;
  stepUps: Pick<StepUpTracker, 'track'>;
  newOperationId(): string;
  /** The runner's calls, whose progress is pushed to the panels (runner-calls.ts). */
  runnerCalls: Pick<RunnerCalls, 'track'>;
}

export function serverPanelHandlers(deps: ServerHandlerDeps): ServerHandlers {
  const { manager, configStore } = deps;
  return {
    'panel:add-server': (p) => addServer(configStore, p),
    'panel:remove-server': (p) => removeServer(deps, p.serverId),
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
      await configStore.update((servers) => withToolEnabled(servers, p));
      return { enabled: p.enabled };
    },
    'panel:call-tool': (p) => callFromRunner(deps, p),
    'panel:ping': async (p) => ({ latencyMs: await manager.ping(p.serverId) }),
  };
}

/**
 * The servers with one tool of one server enabled or disabled (it stays listed once at most).
 * Enabling a tool approves it as it is listed now: its pin follows (S2).
 */
export function withToolEnabled(servers: McpServerConfig[], p: PanelParams<'panel:set-tool-enabled'>): McpServerConfig[] {
  return servers.map((s) => {
    if (s.id !== p.serverId) return s;
    const rest = s.disabledTools.filter((t) => t !== p.tool);
    return p.enabled ? approveEnabled({ ...s, disabledTools: rest }, [p.tool]) : { ...s, disabledTools: [...rest, p.tool] };
  });
}

/**
 * A user-started call: a 403 insufficient_scope becomes an offer to grant more access (E7). The
 * panel gets the same size budget as an agent (SPEC H4), with the visible cut markers.
 */
async function callFromRunner(deps: ServerHandlerDeps, p: PanelParams<'panel:call-tool'>): Promise<PanelValue<'panel:call-tool'>> {
  const { manager } = deps;
  // One lookup, not every server's view (views() builds them all: measured per call in the bench).
  const tool = manager.listedTool(p.serverId, p.tool);
  // The runner never lists a tool only its view may call (MCP Apps visibility); refuse it here too.
  if (tool && !toolUi(tool).model) throw new RemoteError({ code: 'unknown-tool', message: `"${p.tool}" is callable only from its view.` });
  const operationId = p.operationId ?? deps.newOperationId();
  return truncateToolResult(
    await deps.runnerCalls.track(operationId, () =>
      deps.stepUps.track(p.serverId, p.tool, () => manager.callTool(p.serverId, p.tool, p.arguments, operationId)),
    ),
  ).result;
}
