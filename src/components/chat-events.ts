/** What the chat view asks of the panel wiring (src/panel/chat.ts); bubbling and composed like every panel event. */
import type { ContextBlockView } from '../protocol/panel-composer.js';
import type { ProviderSettingsView } from '../protocol/panel-chat.js';

/** T2: the chat's choice of servers, tools and tool search, as the tool picker holds it. */
interface ToolSelectionAction {
  disabledTools: string[];
  disabledServers: string[];
  toolSearch: boolean;
}

export type ChatAction =
  | ({ action: 'send'; chatId: string | undefined; text: string; blocks: ContextBlockView[] } & ToolSelectionAction)
  /** T2: the tool picker's selection changed (or its catalog did): keep it with the chat and measure it. */
  | ({ action: 'tools'; chatId: string | undefined } & ToolSelectionAction)
  | { action: 'stop'; chatId: string }
  | { action: 'new' }
  | { action: 'open'; chatId: string }
  | { action: 'rename'; chatId: string; title: string }
  /** T5: the chat's own system prompt ('' = the provider's); `answer` gets the worker's refusal in words, if any. */
  | { action: 'system-prompt'; chatId: string; systemPrompt: string; answer(refusal: string | undefined): void }
  | { action: 'delete'; chatId: string }
  | { action: 'regenerate'; chatId: string }
  | { action: 'edit'; chatId: string; entryId: string; text: string }
  /** The history's search (T5): the panel asks the worker for the chats whose title or messages contain `query`. */
  | { action: 'search'; query: string }
  | { action: 'save-provider'; provider: Omit<ProviderSettingsView, 'hasKey'> & { apiKey?: string } }
  /** The saved provider's model list for the picker (T5); `answer` gets the list or the error in plain words. */
  | { action: 'list-models'; answer(r: { models: string[] } | { error: string }): void };

export class ChatActionEvent extends Event {
  static readonly type = 'mcp-chat-action';
  constructor(readonly detail: ChatAction) {
    super(ChatActionEvent.type, { bubbles: true, composed: true });
  }
}

/** The composer's Enter in chat mode. */
export class ComposerSendEvent extends Event {
  static readonly type = 'mcp-composer-send';
  constructor() {
    super(ComposerSendEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface DocumentEventMap {
    [ChatActionEvent.type]: ChatActionEvent;
  }
}
