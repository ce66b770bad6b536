/**
 * The Chat view (section P): the conversation with the user's own model provider, which uses the
 * remote MCP tools. It lays out elements of one job each — the header ({@link McpChatHeaderElement}:
 * title, model, chat actions), the provider settings ({@link McpChatSettingsElement}), the tool
 * picker ({@link McpChatToolsElement}), the conversation ({@link McpChatLogElement}), this chat's
 * approvals ({@link McpChatApprovalsElement}) — then the status line and the composer with
 * Send/Stop, and feeds each what it shows. The parts render into their own children inside this
 * view's shadow root, so one stylesheet and the `mcp-chat-view >>> …` selectors reach them all.
 * It renders what it is given and asks through {@link ChatActionEvent}s; it talks to nobody.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { t } from './i18n.js';
import { ChatActionEvent, ComposerSendEvent } from './chat-events.js';
import { chatHeaderCss } from './mcp-chat-header.js';
import { chatSettingsCss } from './mcp-chat-settings.js';
import { chatToolsCss } from './mcp-chat-tools.js';
import { chatLogCss } from './mcp-chat-log.js';
import { chatApprovalsCss } from './mcp-chat-approvals.js';
import type { ChatSummary, ChatView, ProviderSettingsView, ToolBudget } from '../protocol/panel-chat.js';
import type { ServerView } from '../protocol/panel.js';
import type { ApprovalView } from '../protocol/panel-use.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';

const css = sheet(`
:host { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-2); }
.status:empty { display: none; }
.send-row { display: flex; gap: var(--space-2); justify-content: flex-end; }
${chatHeaderCss}${chatSettingsCss}${chatToolsCss}${chatLogCss}${chatApprovalsCss}`);

export class McpChatViewElement extends ElementBase {
  #provider: ProviderSettingsView | undefined | null = null;
  #chat: ChatView | undefined;
  #showSettings = false;
  readonly #header = document.createElement('mcp-chat-header');
  readonly #settings = document.createElement('mcp-chat-settings');
  readonly #tools = document.createElement('mcp-chat-tools');
  readonly #log = document.createElement('mcp-chat-log');
  readonly #approvals = document.createElement('mcp-chat-approvals');
  /** Where a failed request shows (the panel wiring's {@link showError}). */
  readonly #status = el('p', { class: 'status error', role: 'alert' });
  readonly #composer = document.createElement('mcp-composer');
  readonly #send = el('button', { type: 'button', class: 'send', 'data-role': 'primary' }, t('chatSend'));
  readonly #stop = el('button', { type: 'button', class: 'stop', 'data-role': 'danger' }, t('chatStop'));

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#header.onSettings = () => {
      this.#showSettings = !this.#showSettings;
      this.#settings.open = this.#showSettings;
    };
    this.#composer.setAttribute('chat', '');
    this.#composer.addEventListener(ComposerSendEvent.type, (e) => {
      e.stopPropagation();
      this.#sendNow();
    });
    this.#send.addEventListener('click', () => this.#sendNow());
    this.#stop.addEventListener('click', () => {
      if (this.#chat) this.dispatchEvent(new ChatActionEvent({ action: 'stop', chatId: this.#chat.id }));
    });
    root.append(
      this.#header,
      this.#settings,
      this.#tools,
      this.#log,
      this.#approvals,
      this.#status,
      this.#composer,
      el('div', { class: 'send-row' }, this.#stop, this.#send),
    );
    this.requestUpdate();
  }

  /** `null` while unknown; `undefined` when no provider is set. */
  set provider(value: ProviderSettingsView | undefined | null) {
    this.#provider = value;
    this.#header.provider = value;
    this.#settings.provider = value;
    this.#tools.provider = value;
    this.requestUpdate('provider');
  }
  /** Chrome's built-in model can be chosen (the worker detected it). */
  set builtinAvailable(value: boolean) {
    this.#settings.builtinAvailable = value;
  }
  set chat(value: ChatView | undefined) {
    if (value?.id !== this.#chat?.id) this.#tools.selection = value;
    this.#chat = value;
    this.#header.chat = value;
    this.#log.chat = value;
    this.requestUpdate('chat');
  }
  get chat(): ChatView | undefined {
    return this.#chat;
  }
  /** T2: what the next request would offer, as the worker measured it. */
  set toolBudget(value: ToolBudget | undefined) {
    this.#tools.budget = value;
  }
  set chats(value: ChatSummary[]) {
    this.#header.chats = value;
    this.#approvals.chats = value;
  }
  /** The chats the worker found for the history's search (T5). */
  set searchResults(value: { query: string; chats: ChatSummary[] }) {
    this.#header.searchResults = value;
  }
  set servers(value: ServerView[]) {
    this.#tools.servers = value;
    this.#log.servers = value;
    this.#composer.servers = value;
  }
  /** This chat's approval cards (matched by its run), shown inline after its steps. */
  set approvals(value: ApprovalView[]) {
    this.#approvals.approvals = value;
  }
  /** Other chats whose runs wait for an approval: each gets a line that opens it. */
  set waitingChats(value: string[]) {
    this.#approvals.waitingChats = value;
  }

  /** The growing text of an answer being streamed. */
  setText(chatId: string, entryId: string, text: string) {
    this.#log.setText(chatId, entryId, text);
  }

  /** A tool step's result for its MCP App view (not part of the stored chat). */
  toolResult(chatId: string, entryId: string, result: CallToolResult) {
    this.#log.toolResult(chatId, entryId, result);
  }

  /**
   * Text the user chose to insert from an MCP App view's suggestion (`ui/message`, U4): added
   * after what they typed, never replacing it; the user reads and sends it, or not.
   */
  draftMessage(text: string) {
    const typed = this.#composer.text.trimEnd();
    this.#composer.text = typed ? `${typed}\n\n${text}` : text;
  }

  addBlock(block: ContextBlockView) {
    this.#composer.addBlock(block);
  }

  showError(message: string) {
    this.#status.textContent = message;
  }

  showSaved() {
    this.#showSettings = false;
    this.#settings.open = false;
    this.#status.textContent = '';
  }

  protected override updateParts() {
    return [this.#header, this.#settings, this.#tools, this.#log, this.#approvals, this.#composer];
  }

  #sendNow() {
    if (this.#chat?.status === 'running' || !this.#provider) return;
    const text = this.#composer.text.trim();
    const blocks = [...this.#composer.blocks];
    if (!text && !blocks.length) return;
    this.#status.textContent = '';
    this.dispatchEvent(
      new ChatActionEvent({
        action: 'send',
        chatId: this.#chat?.id,
        text,
        blocks,
        disabledTools: this.#tools.disabledTools,
        disabledServers: this.#tools.disabledServers,
        toolSearch: this.#tools.toolSearch,
      }),
    );
    this.#composer.clear();
  }

  /** Send and Stop follow the run and whether a provider is set. */
  protected override update() {
    const running = this.#chat?.status === 'running';
    this.#stop.hidden = !running;
    this.#send.disabled = running || !this.#provider;
  }
}
