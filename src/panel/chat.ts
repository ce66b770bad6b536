/**
 * Panel wiring of the Chat view (issue 17): loads the provider settings and the latest chat,
 * turns the view's {@link ChatActionEvent}s into `panel:chat-*` requests, and feeds it the
 * worker's pushes (the chat, streamed text, the servers, this chat's approval cards). A panel
 * opened during a run re-attaches simply by opening the chat: the worker keeps it current.
 * The provider origin's host permission is requested inside the Save click (SPEC L1).
 */
import { ChatActionEvent } from '../components/chat-events.js';
import { t } from '../components/i18n.js';
import type { McpChatViewElement } from '../components/mcp-chat-view.js';
import { originPattern } from '../common/url-rules.js';
import { ChatPanelPushSchema } from '../protocol/panel-chat.js';
import { PanelPushSchema } from '../protocol/panel.js';
import { UsePanelPushSchema, type ApprovalView } from '../protocol/panel-use.js';
import type { ChatView } from '../protocol/panel-chat.js';
import { approvalsForChat } from './chat-approvals.js';
import type { Call } from './call.js';

export interface ChatDeps {
  call: Call;
}

export function setUpChat(deps: ChatDeps): {
  view: McpChatViewElement;
  onPush: (message: unknown) => void;
  reattach: () => void;
  running: () => boolean;
} {
  const view = document.querySelector('mcp-chat-view')!;
  const { call } = deps;
  let approvals: ApprovalView[] = [];
  const showApprovals = () => {
    const { own, otherChats } = approvalsForChat(approvals, view.chat?.id);
    view.approvals = own;
    view.waitingChats = otherChats;
  };
  const show = (chat: ChatView | undefined) => {
    view.chat = chat;
    showApprovals();
  };

  const refreshList = () => void call('panel:chat-list', {}).then((r) => r.ok && (view.chats = r.value.chats));
  const open = (chatId?: string) =>
    void call('panel:chat-open', chatId ? { chatId } : {}).then((r) => {
      if (r.ok) show(r.value.chat);
    });
  void call('panel:chat-provider', {}).then((r) => {
    view.builtinAvailable = r.ok && r.value.builtinAvailable;
    view.provider = r.ok ? r.value.provider : undefined;
  });
  open();
  refreshList();

  const report = (r: { ok: true } | { ok: false; message: string }) => {
    if (!r.ok) view.showError(r.message);
  };

  document.addEventListener(ChatActionEvent.type, (e) => {
    const d = e.detail;
    switch (d.action) {
      case 'save-provider': {
        if (d.provider.kind === 'builtin') {
          void call('panel:chat-save-provider', d.provider).then((r) => {
            if (!r.ok) return view.showError(r.message);
            view.provider = r.value;
            view.showSaved();
          });
          return;
        }
        let origin: string;
        try {
          origin = originPattern(d.provider.baseUrl);
        } catch {
          view.showError(t('chatProviderUrlInvalid', d.provider.baseUrl));
          return;
        }
        const permission = chrome.permissions.request({ origins: [origin] }).catch(() => false);
        void permission.then(async (granted) => {
          const r = await call('panel:chat-save-provider', d.provider);
          if (!r.ok) return view.showError(r.message);
          view.provider = r.value;
          view.showSaved();
          if (!granted) view.showError(`Chrome did not grant access to ${new URL(d.provider.baseUrl).origin}; the chat cannot reach it.`);
        });
        return;
      }
      case 'send':
        void (async () => {
          let chatId = d.chatId;
          if (!chatId) {
            const created = await call('panel:chat-new', {});
            if (!created.ok) return view.showError(created.message);
            show(created.value);
            chatId = created.value.id;
          }
          // The history list is read again when the run ends, not while the answer starts streaming.
          report(await call('panel:chat-send', { chatId, text: d.text, blocks: d.blocks, disabledTools: d.disabledTools }));
        })();
        return;
      case 'stop':
        void call('panel:chat-stop', { chatId: d.chatId });
        return;
      case 'new':
        void call('panel:chat-new', {}).then((r) => {
          if (r.ok) show(r.value);
          refreshList();
        });
        return;
      case 'open':
        open(d.chatId);
        return;
      case 'rename':
        void call('panel:chat-rename', { chatId: d.chatId, title: d.title }).then((r) => {
          report(r);
          refreshList();
        });
        return;
      case 'delete':
        void call('panel:chat-delete', { chatId: d.chatId }).then((r) => {
          report(r);
          show(undefined);
          refreshList();
        });
    }
  });

  return {
    view,
    /** The open chat is answering: the panel keeps its link to the worker up while it does. */
    running: () => view.chat?.status === 'running',
    /** The worker was stopped and woken again: a run it had may have ended as "interrupted" meanwhile. */
    reattach: () => {
      open(view.chat?.id);
      refreshList();
    },
    onPush(message) {
      const chat = ChatPanelPushSchema.safeParse(message);
      if (chat.success) {
        const m = chat.data;
        if (m.type === 'panel:chat') {
          if (!view.chat || view.chat.id === m.chat.id) {
            const ended = view.chat?.status === 'running' && m.chat.status === 'idle';
            show(m.chat);
            if (ended) refreshList();
          }
        } else if (m.type === 'panel:chat-text') view.setText(m.chatId, m.entryId, m.text);
        else if (m.type === 'panel:chat-tool-result') view.toolResult(m.chatId, m.entryId, m.result);
        else if (view.chat?.id === m.chatId) show(undefined);
        return;
      }
      const use = UsePanelPushSchema.safeParse(message);
      if (use.success && use.data.type === 'panel:approvals') {
        approvals = use.data.approvals;
        showApprovals();
        return;
      }
      const state = PanelPushSchema.safeParse(message);
      if (state.success) view.servers = state.data.state.servers;
    },
  };
}
