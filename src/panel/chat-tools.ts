/**
 * Panel wiring of the chat's tool picker (T2): each selection the picker reports goes to the
 * worker (`panel:chat-tools`), which keeps it with the chat and measures what the next request
 * would offer; the answer to the latest ask is shown, an older one that arrives late is not.
 */
import type { ChatAction } from '../components/chat-events.js';
import type { McpChatViewElement } from '../components/mcp-chat-view.js';
import type { Call } from './call.js';

type Selection = Pick<Extract<ChatAction, { action: 'tools' }>, 'disabledTools' | 'disabledServers' | 'toolSearch'>;

/** The selection fields of a picker action, as the worker's requests take them. */
export function toolSelectionOf(d: Selection): Selection {
  return { disabledTools: d.disabledTools, disabledServers: d.disabledServers, toolSearch: d.toolSearch };
}

export function toolBudgetAsker(screen: { view: McpChatViewElement; call: Call }) {
  let latest = 0;
  return (d: Extract<ChatAction, { action: 'tools' }>) => {
    const ask = ++latest;
    void screen.call('panel:chat-tools', { ...(d.chatId ? { chatId: d.chatId } : {}), ...toolSelectionOf(d) }).then((r) => {
      if (ask === latest) screen.view.toolBudget = r.ok ? r.value : undefined;
    });
  };
}
