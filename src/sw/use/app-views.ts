/**
 * The worker's half of MCP App views (Q1, Q2): it reads a tool's view resource, and it is the
 * one path by which a view reaches its server. A view's `tools/call` passes the same checks as an
 * agent's: the tool must be enabled, the server's, and visible to apps (`_meta.ui.visibility`
 * includes `app`, or is absent); every call waits for the user's approval on the same cards,
 * whatever the tool's annotations claim (G1, U1: a view's `readOnlyHint` never spares the card),
 * unless "always" or the per-view grant was given; the result is cut to the same budget (H4).
 * The per-view grant is keyed by the view session the panel made for the mounted view, and ends
 * when the panel says that view closed. The operationId is the panel's, so `panel:cancel-call` cancels it end to end.
 * Results go back to the view unfenced: the view is the server's own code, not a model.
 */
import { toolUi } from '../../protocol/mcp-apps.js';
import type { CallToolResult, Tool } from '../../protocol/mcp-shapes.js';
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { AppViewResource } from '../../protocol/panel-apps.js';
import type { PanelParams, PanelValue, ServerView } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import { say, type Wording } from '../../protocol/wording.js';
import type { ApprovalRequest } from './approval-broker.js';
import { truncateToolResult } from './truncate.js';
import { appViewOf } from './app-view-resource.js';

export interface AppViewsDeps {
  views(): ServerView[];
  /** The live connection of a ready server, connecting an enabled lazy one first (C2). */
  live(serverId: string): Promise<{ connectionId: string }>;
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
  callTool(serverId: string, tool: string, args: Record<string, unknown>, operationId: string): Promise<CallToolResult>;
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
  /** The view of that session closed: its per-view grants end (U1). */
  endViewSession(viewSession: string): Promise<void>;
}

function refused(message: string): RemoteError {
  return new RemoteError({ code: 'unknown-tool', message });
}

/** The enabled server of that id; a view of a disabled or removed server reaches nothing. */
function enabledServer(views: ServerView[], serverId: string): ServerView {
  const server = views.find((v) => v.id === serverId && v.enabled);
  if (!server) throw new RemoteError({ code: 'unknown-server', message: `No enabled server "${serverId}".` });
  return server;
}

function enabledTool(server: ServerView, name: string): Tool | undefined {
  return server.disabledTools.includes(name) ? undefined : server.tools.find((t) => t.name === name);
}

/**
 * The tools of a view's call: the view's own tool must have a view, and the called tool must be
 * enabled on the same server and visible to apps.
 */
export function viewCallTools(
  server: ServerView,
  p: Pick<PanelParams<'panel:app-call-tool'>, 'viewTool' | 'tool'>,
): { viewTool: Tool; tool: Tool } {
  const viewTool = enabledTool(server, p.viewTool);
  if (!viewTool || !toolUi(viewTool).resourceUri) throw refused(`"${p.viewTool}" on "${server.name}" has no view.`);
  const tool = enabledTool(server, p.tool);
  if (!tool) throw refused(`No enabled tool is called "${p.tool}" on "${server.name}".`);
  if (!toolUi(tool).app) throw refused(`"${p.tool}" on "${server.name}" is not callable from a view.`);
  return { viewTool, tool };
}

export function appViewHandlers(deps: AppViewsDeps) {
  /** Calls still waiting for the user's approval, by operationId: a cancel withdraws the card. */
  const waiting = new Map<string, AbortController>();

  const view = async (p: PanelParams<'panel:app-view'>): Promise<AppViewResource> => {
    const server = enabledServer(deps.views(), p.serverId);
    const tool = enabledTool(server, p.tool);
    const uri = tool && toolUi(tool).resourceUri;
    if (!uri) throw refused(`"${p.tool}" on "${server.name}" has no view.`);
    const { connectionId } = await deps.live(p.serverId);
    const { contents } = await deps.request('offscreen:read-resource', { connectionId, uri });
    return appViewOf(contents, uri, p.tool, server);
  };

  const callTool = async (p: PanelParams<'panel:app-call-tool'>): Promise<PanelValue<'panel:app-call-tool'>> => {
    const server = enabledServer(deps.views(), p.serverId);
    const { viewTool, tool } = viewCallTools(server, p);
    await approved(deps, waiting, p.operationId, server, viewCallApproval(server, viewTool, tool, p));
    return truncateToolResult(await deps.callTool(server.id, tool.name, p.arguments, p.operationId)).result;
  };

  const readResource = async (p: PanelParams<'panel:app-read-resource'>): Promise<PanelValue<'panel:app-read-resource'>> => {
    enabledServer(deps.views(), p.serverId);
    const { connectionId } = await deps.live(p.serverId);
    return await deps.request('offscreen:read-resource', { connectionId, uri: p.uri });
  };

  return {
    handlers: {
      'panel:app-view': view,
      'panel:app-call-tool': callTool,
      'panel:app-read-resource': readResource,
      'panel:app-view-closed': async (p: PanelParams<'panel:app-view-closed'>) => {
        await deps.endViewSession(p.viewSession);
        return {};
      },
    },
    /** Withdraws the approval a view's call waits for; false when no such call waits. */
    cancelWaiting(operationId: string): boolean {
      const abort = waiting.get(operationId);
      abort?.abort();
      return abort !== undefined;
    },
  };
}

/**
 * Resolves once the user allowed the view's call; throws `cancelled` or `denied`. Annotations are
 * the server's claims and never spare the card (G1, U1).
 */
async function approved(
  deps: AppViewsDeps,
  waiting: Map<string, AbortController>,
  operationId: string,
  server: ServerView,
  request: ApprovalRequest,
): Promise<void> {
  const abort = new AbortController();
  waiting.set(operationId, abort);
  const allowed = await deps.approve(request, abort.signal).finally(() => waiting.delete(operationId));
  const name = request.tool.name;
  if (abort.signal.aborted) throw new RemoteError({ code: 'cancelled', message: `The call of "${name}" was cancelled.` });
  if (!allowed) throw new RemoteError({ code: 'denied', message: `The user denied the call of "${name}" on "${server.name}".` });
}

/** A view as the one who asks, in the user's language; the title is the server's, cut to the field's bound. */
function agentOfView(title: string): { agentName: string; agentWording: Wording } {
  const { message, wording } = say('reasonAgentView', { tool: title.slice(0, 100) });
  return { agentName: message, agentWording: wording };
}

/** The approval card of a view's call: the view is named as the one who asks. */
function viewCallApproval(
  server: ServerView,
  viewTool: Tool,
  tool: Tool,
  p: Pick<PanelParams<'panel:app-call-tool'>, 'arguments' | 'viewSession'>,
): ApprovalRequest {
  return {
    serverId: server.id,
    serverName: server.name,
    serverUrl: server.url,
    tool,
    ...agentOfView(viewTool.title ?? viewTool.name),
    ...(p.viewSession !== undefined ? { viewSession: p.viewSession } : {}),
    arguments: p.arguments,
  };
}
