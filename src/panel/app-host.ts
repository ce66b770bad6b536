/**
 * The panel's host for MCP App views (issue 18): answers each view's {@link AppHostRequestEvent}
 * with requests to the worker, which applies the checks (visibility, approval, result budget).
 * A view's `ui/message` becomes a draft in the chat's composer; the user decides to send it.
 */
import { AppHostRequestEvent, type AppViewHost } from '../components/events.js';
import { call } from './use-servers.js';

export const panelAppHost: AppViewHost = {
  loadView: (serverId, tool) => call('panel:app-view', { serverId, tool }),
  callTool: (serverId, viewTool, tool, args, operationId) =>
    call('panel:app-call-tool', { serverId, viewTool, tool, arguments: args, operationId }),
  cancel: (serverId, operationId) =>
    void chrome.runtime.sendMessage({ type: 'panel:cancel-call', params: { serverId, operationId } }).catch(() => undefined),
  readResource: (serverId, uri) => call('panel:app-read-resource', { serverId, uri }),
  // `ui/message`: a draft in the chat's composer, for the user to send (never sent by the view).
  message: async (text) => {
    const chat = document.querySelector('mcp-chat-view');
    if (!chat) return false;
    chat.draftMessage(text);
    return true;
  },
};

export function setUpAppHost() {
  document.addEventListener(AppHostRequestEvent.type, (e) => {
    e.host ??= panelAppHost;
  });
}
