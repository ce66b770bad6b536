/**
 * `panel:chat-tools` (T2): the panel's tool picker sends the chat's selection whenever it changes;
 * the worker keeps it with the chat (so it survives a worker stop and a reopened panel even before
 * the next message) and answers with what the next request would offer, measured as sent.
 */
import type { ChatView, ProviderSettingsView, ToolBudget } from '../../protocol/panel-chat.js';
import type { PanelParams } from '../../protocol/panel.js';
import type { AgentToolRegistry } from '../use/tool-registry.js';
import { toolBudget } from './tool-offer.js';
import { applySelection } from './tool-selection.js';

export interface ToolHandlerDeps {
  registry: Pick<AgentToolRegistry, 'peek'>;
  provider(): Promise<ProviderSettingsView | undefined>;
  /** The chat that keeps the selection (a running chat's own copy), or undefined when there is none. */
  chat(chatId: string): Promise<ChatView | undefined>;
  save(chat: ChatView): Promise<void>;
}

export function toolHandlers(deps: ToolHandlerDeps) {
  return {
    'panel:chat-tools': async (p: PanelParams<'panel:chat-tools'>): Promise<ToolBudget> => {
      const chat = p.chatId ? await deps.chat(p.chatId) : undefined;
      if (chat) {
        applySelection(chat, p);
        await deps.save(chat);
      }
      // Not a first use: showing the chat view must not connect lazy servers (C2); sending does.
      return toolBudget(deps.registry.peek(), p, await deps.provider());
    },
  };
}
