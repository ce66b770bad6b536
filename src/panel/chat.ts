/**
 * Panel wiring of the Chat view (section P): loads the provider settings and the latest chat,
 * turns the view's {@link ChatActionEvent}s into `panel:chat-*` requests, and feeds it the
 * worker's pushes (the chat, streamed text, the servers, this chat's approval cards). A panel
 * opened during a run re-attaches simply by opening the chat: the worker keeps it current.
 * The provider origin's host permission is requested inside the Save click (SPEC L1).
 */
import { ChatActionEvent, type ChatAction } from '../components/chat-events.js';
import { t } from '../components/i18n.js';
import type { McpChatViewElement } from '../components/mcp-chat-view.js';
import { originPattern } from '../common/url-rules.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { ServerView } from '../protocol/panel.js';
import type { ApprovalView } from '../protocol/panel-use.js';
import type { ChatView } from '../protocol/panel-chat.js';
import { approvalsForChat } from './chat-approvals.js';
import { toolBudgetAsker, toolSelectionOf } from './chat-tools.js';
import type { Call } from './call.js';

export interface ChatDeps {
  call: Call;
}

type Action<A extends ChatAction['action']> = Extract<ChatAction, { action: A }>;

/** The Chat view and what the panel keeps beside it: the approval cards of every chat. */
class ChatScreen {
  #approvals: ApprovalView[] = [];
  constructor(
    readonly view: McpChatViewElement,
    readonly call: Call,
  ) {}

  /** T2: keeps the tool picker's selection with the chat and shows what the next request would offer. */
  readonly measureTools = toolBudgetAsker(this);

  /** Shows `chat` (none: the empty view) with its own approval cards. */
  show(chat: ChatView | undefined) {
    this.view.chat = chat;
    this.showApprovals();
  }

  showApprovals(approvals = this.#approvals) {
    this.#approvals = approvals;
    const { own, otherChats } = approvalsForChat(approvals, this.view.chat?.id);
    this.view.approvals = own;
    this.view.waitingChats = otherChats;
  }

  refreshList() {
    void this.call('panel:chat-list', {}).then((r) => r.ok && (this.view.chats = r.value.chats));
  }

  /**
   * Opens `chatId`, or the latest chat. An answer that arrives after the user moved to another
   * chat (New, or another open) is dropped: a reconnect's re-read must not take the view back.
   */
  open(chatId?: string) {
    const shown = this.view.chat?.id;
    void this.call('panel:chat-open', chatId ? { chatId } : {}).then((r) => {
      if (r.ok && this.view.chat?.id === shown) this.show(r.value.chat);
    });
  }

  report(r: { ok: true } | { ok: false; message: string }) {
    if (!r.ok) this.view.showError(r.message);
  }
}

/** Save of the provider settings; the host permission for its origin is asked inside the click (SPEC L1). */
function saveProvider({ view, call }: ChatScreen, { provider }: Action<'save-provider'>) {
  if (provider.kind === 'builtin') {
    void call('panel:chat-save-provider', provider).then((r) => {
      if (!r.ok) return view.showError(r.message);
      view.provider = r.value;
      view.showSaved();
    });
    return;
  }
  let origin: string;
  try {
    origin = originPattern(provider.baseUrl);
  } catch {
    view.showError(t('chatProviderUrlInvalid', provider.baseUrl));
    return;
  }
  const permission = chrome.permissions.request({ origins: [origin] }).catch(() => false);
  void permission.then(async (granted) => {
    const r = await call('panel:chat-save-provider', provider);
    if (!r.ok) return view.showError(r.message);
    view.provider = r.value;
    view.showSaved();
    if (!granted) view.showError(`Chrome did not grant access to ${new URL(provider.baseUrl).origin}; the chat cannot reach it.`);
  });
}

/** Sends the user's message, first creating the chat if none is open. */
async function send(screen: ChatScreen, d: Action<'send'>) {
  let chatId = d.chatId;
  if (!chatId) {
    const created = await screen.call('panel:chat-new', {});
    if (!created.ok) return screen.view.showError(created.message);
    // The new chat keeps the tool choices made before it existed (T2).
    screen.show({ ...created.value, ...toolSelectionOf(d) });
    chatId = created.value.id;
  }
  // The history list is read again when the run ends, not while the answer starts streaming.
  screen.report(await screen.call('panel:chat-send', { chatId, text: d.text, blocks: d.blocks, ...toolSelectionOf(d) }));
}

/** Turns one of the view's actions into its `panel:chat-*` request. */
function act(screen: ChatScreen, d: ChatAction) {
  const { call } = screen;
  switch (d.action) {
    case 'save-provider':
      return saveProvider(screen, d);
    case 'list-models':
      return void call('panel:chat-models', {}).then((r) => d.answer(r.ok ? r.value : { error: r.message }));
    case 'send':
      return void send(screen, d);
    case 'stop':
      return void call('panel:chat-stop', { chatId: d.chatId });
    case 'tools':
      return screen.measureTools(d);
    case 'new':
      return void call('panel:chat-new', {}).then((r) => {
        if (r.ok) screen.show(r.value);
        screen.refreshList();
      });
    case 'open':
      return screen.open(d.chatId);
    case 'rename':
      return void call('panel:chat-rename', { chatId: d.chatId, title: d.title }).then((r) => {
        screen.report(r);
        screen.refreshList();
      });
    case 'system-prompt':
      return void call('panel:chat-system-prompt', { chatId: d.chatId, systemPrompt: d.systemPrompt }).then((r) =>
        d.answer(r.ok ? undefined : r.message),
      );
    case 'delete':
      return void call('panel:chat-delete', { chatId: d.chatId }).then((r) => {
        screen.report(r);
        screen.show(undefined);
        screen.refreshList();
      });
    case 'regenerate':
    case 'edit':
    case 'search':
      return rewindOrSearch(screen, d);
  }
}

/** T5: regenerate, edit and resend (the worker answers again; its pushes show it), the history's search. */
function rewindOrSearch(screen: ChatScreen, d: Action<'regenerate' | 'edit' | 'search'>) {
  const { call, view } = screen;
  if (d.action === 'search') {
    void call('panel:chat-list', { query: d.query }).then((r) => {
      if (r.ok) view.searchResults = { query: d.query, chats: r.value.chats };
    });
    return;
  }
  view.showError('');
  const asked =
    d.action === 'regenerate'
      ? call('panel:chat-regenerate', { chatId: d.chatId })
      : call('panel:chat-edit', { chatId: d.chatId, entryId: d.entryId, text: d.text });
  void asked.then((r) => screen.report(r));
}

/** What `main.ts` keeps of the chat: its link to the worker's life, and its push handlers (push-router.ts). */
export interface ChatPanel {
  /** The open chat is answering: the panel keeps its link to the worker up while it does. */
  running(): boolean;
  /** The worker was stopped and woken again: a run it had may have ended as "interrupted" meanwhile. */
  reattach(): void;
  /** `panel:chat`: a chat changed; shown if it is the open one (or none is open). */
  showChat(chat: ChatView): void;
  /** `panel:chat-text`: an entry's streamed text so far. */
  showText(push: { chatId: string; entryId: string; text: string }): void;
  /** `panel:chat-tool-result`: a step's result for its MCP App view. */
  showToolResult(push: { chatId: string; entryId: string; result: CallToolResult }): void;
  /** `panel:chat-deleted`. */
  deleted(chatId: string): void;
  /** `panel:approvals`: every pending card; the chat shows its own. */
  showApprovals(approvals: ApprovalView[]): void;
  /** `panel:state`: the servers, for the tool picker. */
  showServers(servers: ServerView[]): void;
}

function chatPanel(screen: ChatScreen): ChatPanel {
  const { view } = screen;
  return {
    running: () => view.chat?.status === 'running',
    reattach() {
      screen.open(view.chat?.id);
      screen.refreshList();
    },
    showChat(chat) {
      if (view.chat && view.chat.id !== chat.id) return;
      const ended = view.chat?.status === 'running' && chat.status === 'idle';
      screen.show(chat);
      if (ended) screen.refreshList();
    },
    showText: ({ chatId, entryId, text }) => view.setText(chatId, entryId, text),
    showToolResult: ({ chatId, entryId, result }) => view.toolResult(chatId, entryId, result),
    deleted(chatId) {
      if (view.chat?.id === chatId) screen.show(undefined);
    },
    showApprovals: (approvals) => screen.showApprovals(approvals),
    showServers: (servers) => (view.servers = servers),
  };
}

export function wireChatPanel({ call }: ChatDeps): ChatPanel {
  const screen = new ChatScreen(document.querySelector('mcp-chat-view')!, call);
  void call('panel:chat-provider', {}).then((r) => {
    screen.view.builtinAvailable = r.ok && r.value.builtinAvailable;
    screen.view.provider = r.ok ? r.value.provider : undefined;
  });
  screen.open();
  screen.refreshList();
  document.addEventListener(ChatActionEvent.type, (e) => act(screen, e.detail));
  return chatPanel(screen);
}
