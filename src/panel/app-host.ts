/**
 * The panel's host for MCP App views (section Q): answers each view's {@link AppHostRequestEvent}
 * with requests to the worker, which applies the checks (visibility, approval, result budget).
 * A view's `ui/message` is a suggestion shown beside the view; only the user's click on it
 * inserts its text into the chat's draft (U4), and the user decides to send it.
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
  // The user inserts a view's suggestion: added to the chat's draft, never replacing it, never sent by the view (U4).
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
