/**
 * The panel's host for MCP App views (section Q): answers each view's {@link AppHostRequestEvent}
 * with requests to the worker, which applies the checks (visibility, approval, result budget).
 * A view's `ui/message` becomes a draft in the chat's composer; the user decides to send it.
 */
import { AppHostRequestEvent, type AppViewHost } from '../components/events.js';
import type { Call } from './call.js';

const panelAppHost = (call: Call): AppViewHost => ({
  loadView: (serverId, tool) => call('panel:app-view', { serverId, tool }),
  callTool: (serverId, viewTool, tool, args, operationId, viewSession) =>
    call('panel:app-call-tool', { serverId, viewTool, tool, arguments: args, operationId, ...(viewSession ? { viewSession } : {}) }),
  viewClosed: (viewSession) => void call('panel:app-view-closed', { viewSession }),
  cancel: (serverId, operationId) => void call('panel:cancel-call', { serverId, operationId }),
  readResource: (serverId, uri) => call('panel:app-read-resource', { serverId, uri }),
  // `ui/message`: a draft in the chat's composer, for the user to send (never sent by the view).
  message: async (text) => {
    const chat = document.querySelector('mcp-chat-view');
    if (!chat) return false;
    chat.draftMessage(text);
    return true;
  },
});

export function setUpAppHost(call: Call) {
  const host = panelAppHost(call);
  document.addEventListener(AppHostRequestEvent.type, (e) => {
    e.host ??= host;
  });
}
