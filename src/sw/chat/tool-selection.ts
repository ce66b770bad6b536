/**
 * A chat's choice of tools (T2): which servers and which tools of the enabled catalog the model
 * may see in this chat, and whether it finds them through tool search. Kept with the chat
 * (`disabledServers`, `disabledTools`, `toolSearch`), so it holds after a worker stop and in a
 * reopened panel; the default is every enabled tool.
 */
import type { ChatView } from '../../protocol/panel-chat.js';
import type { AgentTool } from '../use/tool-registry.js';

export interface ToolSelection {
  /** `serverId:toolName` keys switched off in this chat. */
  disabledTools: readonly string[];
  /** Server ids whose every tool is switched off in this chat. */
  disabledServers?: readonly string[] | undefined;
  toolSearch?: boolean | undefined;
}

export const toolKey = (serverId: string, toolName: string): string => `${serverId}:${toolName}`;

/** The tools of `all` (the registry's enabled tools) that the chat's selection keeps, in catalog order. */
export function selectedTools(all: readonly AgentTool[], selection: ToolSelection): AgentTool[] {
  const servers = new Set(selection.disabledServers ?? []);
  const tools = new Set(selection.disabledTools);
  return all.filter((t) => !servers.has(t.serverId) && !tools.has(toolKey(t.serverId, t.toolName)));
}

/** Stores the selection on the chat; a field the panel did not send keeps what the chat has. */
export function applySelection(chat: ChatView, selection: ToolSelection): void {
  chat.disabledTools = [...selection.disabledTools];
  if (selection.disabledServers !== undefined) chat.disabledServers = [...selection.disabledServers];
  if (selection.toolSearch !== undefined) {
    if (selection.toolSearch) chat.toolSearch = true;
    else delete chat.toolSearch;
  }
}
