/**
 * The Chat view (issue 17): the conversation with the user's own model provider, which uses the
 * remote MCP tools. Header: the chat's title, model and provider, chat actions (new, history,
 * rename, delete, export); the tools the model can see with a per-chat switch; the messages —
 * the assistant's Markdown rendered by {@link renderMarkdown} (DOM only), tool calls as
 * collapsible steps (tool, server, arguments, result, duration), approval cards of this chat's
 * calls inline, a step's MCP App view under it ({@link ChatStepViews}), provider errors in
 * plain words, tokens per turn; then the composer as input
 * with Send/Stop. Without a provider: one sentence on how to add one and the settings form.
 * It renders what it is given and asks through {@link ChatActionEvent}s; it talks to nobody.
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { t, tReason } from './i18n.js';
import { MarkdownStream, renderMarkdown } from './markdown.js';
import { ChatActionEvent, ComposerSendEvent } from './chat-events.js';
import { downloadText } from './download.js';
import { chatErrorSaid, type ChatEntry, type ChatSummary, type ChatView, type ProviderSettingsView } from '../protocol/panel-chat.js';
import type { ServerView } from '../protocol/panel.js';
import type { ApprovalView } from '../protocol/panel-use.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';
import type { MessageKey } from '../i18n/en.js';
import { chatAsMarkdown } from './chat-export.js';
import { ChatStepViews } from './chat-app-views.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { Wording } from '../protocol/wording.js';
import { unfence } from '../common/untrusted-fence.js';

const css = sheet(`
:host { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-2); }
.approvals:empty, .status:empty { display: none; }
.waiting-elsewhere { margin: 0; color: var(--fg-muted); }
header { display: grid; grid-template-columns: minmax(0, 1fr); gap: 2px; }
.title-row { display: flex; gap: var(--space-2); align-items: center; }
h2 { flex: 1; min-width: 0; margin: 0; font-size: 1em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.model { color: var(--fg-muted); font-size: 0.9em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.actions { display: flex; flex-wrap: wrap; gap: 4px; }
.actions select { max-width: 12em; }
.more > summary { cursor: pointer; color: var(--accent); padding: 2px var(--space-1); border-radius: var(--radius); }
.more[open] .menu { display: flex; flex-wrap: wrap; gap: 4px; flex-basis: 100%; }
form.provider { display: grid; gap: 4px; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-2); }
form.provider label { display: grid; gap: 2px; }
ol.log { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-2); }
.user { justify-self: end; max-width: 90%; background: var(--bg-hover); border-radius: var(--radius); padding: 4px 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.blocks { font-size: 0.85em; color: var(--fg-muted); }
.assistant { overflow-wrap: anywhere; }
.assistant p { margin: 0.3em 0; }
.assistant pre { white-space: pre-wrap; margin: 0; font-size: 12px; }
.assistant .code { position: relative; border: 1px solid var(--border); border-radius: var(--radius); padding: 4px 6px; }
.assistant .code .copy { float: right; padding: 0 6px; }
.assistant .table { overflow-x: auto; }
.assistant table { border-collapse: collapse; } .assistant td, .assistant th { border: 1px solid var(--border); padding: 2px 4px; }
.assistant .inert-link { text-decoration: underline dotted; }
.usage { color: var(--fg-muted); font-size: 0.8em; }
details.step { border: 1px solid var(--border); border-radius: var(--radius); padding: 2px 6px; }
li.step-with-app { display: grid; gap: var(--space-1); }
.app-slot:empty { display: none; }
.app-slot .show-app { justify-self: start; }
details.step summary { cursor: pointer; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
details.step pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow: auto; font-size: 12px; margin: 2px 0; }
.status-denied, .status-error, .status-cancelled { color: var(--danger); }
.notice { color: var(--fg-muted); font-style: italic; margin: 0; }
details.tools ul { list-style: none; margin: 0; padding: 0; max-height: 12em; overflow: auto; }
details.tools label { display: flex; gap: 4px; align-items: center; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.send-row { display: flex; gap: var(--space-2); justify-content: flex-end; }
`);

const STEP_STATUS: Record<string, MessageKey> = {
  running: 'chatStepRunning',
  done: 'chatStepDone',
  error: 'chatStepError',
  denied: 'chatStepDenied',
  cancelled: 'chatStepCancelled',
};
const NOTICE: Record<string, MessageKey> = {
  stopped: 'chatNoticeStopped',
  interrupted: 'chatNoticeInterrupted',
  'step-limit': 'chatNoticeStepLimit',
  'no-tools': 'chatNoticeNoTools',
};
const KIND: Record<string, MessageKey> = { openai: 'chatKindOpenai', anthropic: 'chatKindAnthropic', builtin: 'chatKindBuiltin' };

const toolKey = (serverId: string, tool: string) => `${serverId}:${tool}`;

export class McpChatViewElement extends ElementBase {
  #provider: ProviderSettingsView | undefined | null = null;
  #chat: ChatView | undefined;
  #chats: ChatSummary[] = [];
  #servers: ServerView[] = [];
  #approvals: ApprovalView[] = [];
  #waitingChats: string[] = [];
  #disabledTools = new Set<string>();
  #showSettings = false;
  /** What the tools checklist last showed, to skip rebuilding it when nothing changed. */
  #toolsShape = '';
  #builtinAvailable = false;
  readonly #header = el('header');
  #moreOpen = false;
  readonly #settings = el('div', { class: 'settings' });
  readonly #tools = el('details', { class: 'tools' });
  readonly #log = el('ol', { class: 'log', 'aria-live': 'polite' });
  readonly #approvalsEl = el('div', { class: 'approvals' });
  readonly #status = el('p', { class: 'status error', role: 'alert' });
  readonly #composer = document.createElement('mcp-composer');
  readonly #send = el('button', { type: 'button', class: 'send', 'data-role': 'primary' }, t('chatSend'));
  readonly #stop = el('button', { type: 'button', class: 'stop', 'data-role': 'danger' }, t('chatStop'));
  /** Assistant entries being streamed, by id: what renders their growing text. */
  readonly #streaming = new Map<string, MarkdownStream>();
  readonly #views = new ChatStepViews();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
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
      this.#approvalsEl,
      this.#status,
      this.#composer,
      el('div', { class: 'send-row' }, this.#stop, this.#send),
    );
    this.requestUpdate();
  }

  /** `null` while unknown; `undefined` when no provider is set. */
  set provider(value: ProviderSettingsView | undefined | null) {
    this.#provider = value;
    this.requestUpdate();
  }
  /** Chrome's built-in model can be chosen (the worker detected it). */
  set builtinAvailable(value: boolean) {
    this.#builtinAvailable = value;
    this.requestUpdate();
  }
  set chat(value: ChatView | undefined) {
    const changedChat = value?.id !== this.#chat?.id;
    this.#chat = value;
    if (changedChat) {
      this.#disabledTools = new Set(value?.disabledTools ?? []);
      this.#views.reset();
    }
    this.requestUpdate();
  }
  get chat(): ChatView | undefined {
    return this.#chat;
  }
  set chats(value: ChatSummary[]) {
    this.#chats = value;
    this.requestUpdate();
  }
  set servers(value: ServerView[]) {
    this.#servers = value;
    this.#composer.servers = value;
    this.requestUpdate();
  }
  /** This chat's approval cards (matched by its run), shown inline after its steps. */
  set approvals(value: ApprovalView[]) {
    this.#approvals = value;
    this.#renderApprovals();
  }
  /** Other chats whose runs wait for an approval: each gets a line that opens it. */
  set waitingChats(value: string[]) {
    this.#waitingChats = value;
    this.#renderApprovals();
  }

  /** The growing text of an answer being streamed. */
  setText(chatId: string, entryId: string, text: string) {
    if (this.#chat?.id !== chatId) return;
    const entry = this.#chat.entries.find((e) => e.id === entryId);
    if (entry?.kind === 'assistant') entry.text = text;
    const node = this.#streaming.get(entryId);
    if (node) node.text = text;
  }

  /**
   * A step's result as the person reads it: the server's text without the untrusted-data fences
   * the model gets, and what the model received folded beneath it when that differs.
   */
  #stepResult(e: { result?: string; resultWording?: Wording }): Array<HTMLElement | null> {
    if (e.result === undefined) return [];
    const shown = tReason({ message: e.result, ...(e.resultWording ? { wording: e.resultWording } : {}) });
    const plain = e.resultWording ? shown : unfence(shown);
    return [
      el('pre', { class: 'result' }, plain),
      plain === shown
        ? null
        : el('details', { class: 'as-sent' }, el('summary', {}, t('chatResultAsSent')), el('pre', { class: 'result-sent' }, shown)),
    ];
  }

  /** A tool step's result for its MCP App view (not part of the stored chat). */
  toolResult(chatId: string, entryId: string, result: CallToolResult) {
    if (this.#chat?.id === chatId) this.#views.result(entryId, result);
  }

  /**
   * Text an MCP App view asked to send (`ui/message`): it becomes the composer's draft, which
   * the user reads and sends, or not; a view never talks to the model by itself.
   */
  draftMessage(text: string) {
    this.#composer.text = text;
  }

  addBlock(block: ContextBlockView) {
    this.#composer.addBlock(block);
  }

  showError(message: string) {
    this.#status.textContent = message;
  }

  showSaved() {
    this.#showSettings = false;
    this.#status.textContent = '';
    this.requestUpdate();
  }

  #sendNow() {
    if (this.#chat?.status === 'running' || !this.#provider) return;
    const text = this.#composer.text.trim();
    const blocks = [...this.#composer.blocks];
    if (!text && !blocks.length) return;
    this.#status.textContent = '';
    this.dispatchEvent(
      new ChatActionEvent({ action: 'send', chatId: this.#chat?.id, text, blocks, disabledTools: [...this.#disabledTools] }),
    );
    this.#composer.clear();
  }

  protected override update() {
    this.#renderHeader();
    this.#renderSettings();
    this.#renderTools();
    this.#renderLog();
    this.#renderApprovals();
    const running = this.#chat?.status === 'running';
    this.#stop.hidden = !running;
    this.#send.disabled = running || !this.#provider;
  }

  #renderHeader() {
    const chat = this.#chat;
    const title = el('h2', {}, chat?.title || t('chatUntitled'));
    title.title = chat?.title || t('chatUntitled');
    const p =
      chat?.provider ??
      (this.#provider
        ? {
            kind: this.#provider.kind,
            model: this.#provider.model,
            host: this.#provider.baseUrl ? new URL(this.#provider.baseUrl).host : '',
          }
        : undefined);
    const model = el('p', { class: 'model' }, p ? [p.model, t(KIND[p.kind]!), p.host].filter(Boolean).join(' · ') : '');
    const button = (label: string, cls: string, onClick: () => void, disabled = false) => {
      const b = el('button', { type: 'button', class: cls, 'data-role': 'quiet', disabled }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    const history = el('select', { class: 'history', 'aria-label': t('chatHistory') });
    history.append(
      el('option', { value: '' }, t('chatHistory')),
      ...this.#chats.map((c) => el('option', { value: c.id, selected: c.id === chat?.id }, c.title || t('chatUntitled'))),
    );
    history.addEventListener('change', () => {
      if (history.value) this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId: history.value }));
    });
    const none = !chat;
    // The chat's own actions fold under "More" so the row fits 320 px: New, history and Settings stay.
    const more = el(
      'details',
      { class: 'more', open: this.#moreOpen },
      el('summary', {}, t('chatMore')),
      el(
        'div',
        { class: 'menu' },
        button(t('chatRename'), 'rename', () => this.#rename(), none),
        button(
          t('chatDelete'),
          'delete',
          () => chat && this.dispatchEvent(new ChatActionEvent({ action: 'delete', chatId: chat.id })),
          none,
        ),
        button(
          t('chatExportMarkdown'),
          'export-md',
          () => chat && downloadText(`chat-${chat.id}.md`, chatAsMarkdown(chat), 'text/markdown'),
          none,
        ),
        button(t('chatExportJson'), 'export-json', () => chat && downloadText(`chat-${chat.id}.json`, JSON.stringify(chat, null, 2)), none),
      ),
    );
    // The header is rebuilt on every update: the menu stays as the user left it.
    more.addEventListener('toggle', () => (this.#moreOpen = more.open));
    const actions = el(
      'div',
      { class: 'actions' },
      button(t('chatNew'), 'new', () => this.dispatchEvent(new ChatActionEvent({ action: 'new' }))),
      history,
      button(t('chatSettings'), 'settings', () => {
        this.#showSettings = !this.#showSettings;
        this.requestUpdate();
      }),
      more,
    );
    this.#header.replaceChildren(el('div', { class: 'title-row' }, title), model, actions);
  }

  #rename() {
    const chat = this.#chat;
    if (!chat) return;
    const input = el('input', { name: 'title', 'aria-label': t('chatRenamePrompt') });
    input.value = chat.title;
    const ok = el('button', { type: 'submit', 'data-role': 'primary' }, t('chatRename'));
    const form = el('form', { class: 'rename' }, input, ok);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const title = input.value.trim();
      if (title) this.dispatchEvent(new ChatActionEvent({ action: 'rename', chatId: chat.id, title }));
      form.remove();
    });
    this.#header.append(form);
    input.focus();
  }

  #renderSettings() {
    if (this.#provider === null || (this.#provider && !this.#showSettings)) {
      this.#settings.replaceChildren();
      return;
    }
    if (this.#settings.querySelector('form')) return; // keep what the user is typing
    const p = this.#provider;
    const field = (label: string, input: HTMLElement) => el('label', {}, label, input);
    const kind = el(
      'select',
      { name: 'kind' },
      el('option', { value: 'openai' }, t('chatKindOpenai')),
      el('option', { value: 'anthropic' }, t('chatKindAnthropic')),
      // Offered only where the worker found Chrome's model (Prompt API): no URL, key or tools.
      this.#builtinAvailable || p?.kind === 'builtin' ? el('option', { value: 'builtin' }, t('chatKindBuiltin')) : null,
    );
    kind.value = p?.kind ?? 'openai';
    const baseUrl = el('input', { name: 'base-url', type: 'url', required: true, placeholder: 'http://127.0.0.1:11434/v1' });
    baseUrl.value = p?.baseUrl ?? '';
    const model = el('input', { name: 'model', required: true, placeholder: 'llama3.1' });
    model.value = p?.model ?? '';
    const apiKey = el('input', { name: 'api-key', type: 'password', autocomplete: 'off' });
    const steps = el('input', { name: 'max-steps', type: 'number', min: '1', max: '100' });
    steps.value = String(p?.maxSteps ?? 20);
    const remote = [
      field(t('chatBaseUrl'), baseUrl),
      field(t('chatModel'), model),
      field(t('chatApiKey'), apiKey),
      ...(p?.hasKey ? [el('p', { class: 'muted' }, t('chatApiKeyKept'))] : []),
    ];
    const showRemote = () => {
      const builtin = kind.value === 'builtin';
      for (const node of remote) node.hidden = builtin;
      baseUrl.required = model.required = !builtin;
    };
    kind.addEventListener('change', () => {
      if (!baseUrl.value) baseUrl.placeholder = kind.value === 'anthropic' ? 'https://api.anthropic.com' : 'http://127.0.0.1:11434/v1';
      showRemote();
    });
    const form = el(
      'form',
      { class: 'provider' },
      field(t('chatProviderKind'), kind),
      ...remote,
      field(t('chatMaxSteps'), steps),
      el('button', { type: 'submit', 'data-role': 'primary' }, t('chatSave')),
    );
    // Submitted in the click: the wiring asks Chrome for the provider origin before awaiting anything (SPEC L1).
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const provider = {
        kind: kind.value === 'anthropic' ? ('anthropic' as const) : kind.value === 'builtin' ? ('builtin' as const) : ('openai' as const),
        baseUrl: baseUrl.value.trim(),
        model: model.value.trim(),
        maxSteps: Math.min(100, Math.max(1, Number(steps.value) || 20)),
        ...(apiKey.value.trim() ? { apiKey: apiKey.value.trim() } : {}),
      };
      this.dispatchEvent(new ChatActionEvent({ action: 'save-provider', provider }));
    });
    showRemote();
    this.#settings.replaceChildren(...(p ? [] : [el('p', { class: 'no-provider' }, t('chatNoProvider'))]), form);
  }

  #renderTools() {
    const tools = this.#servers
      .filter((s) => s.enabled && s.status === 'ready')
      .flatMap((s) =>
        s.tools.filter((tool) => !s.disabledTools.includes(tool.name) && toolUi(tool).model).map((tool) => ({ server: s, tool })),
      );
    const on = tools.filter(({ server, tool }) => !this.#disabledTools.has(toolKey(server.id, tool.name))).length;
    // A push that changes none of these leaves the (possibly 1,000) checkboxes as they are.
    const shape = JSON.stringify([
      [...this.#disabledTools],
      tools.map(({ server, tool }) => [server.id, server.name, tool.name, tool.title]),
    ]);
    if (shape === this.#toolsShape) return;
    this.#toolsShape = shape;
    const open = this.#tools.open;
    this.#tools.replaceChildren(
      el('summary', {}, `${t('chatTools')} (${on}/${tools.length})`),
      tools.length
        ? el(
            'ul',
            {},
            ...tools.map(({ server, tool }) => {
              const key = toolKey(server.id, tool.name);
              const box = el('input', { type: 'checkbox', checked: !this.#disabledTools.has(key), 'data-tool': key });
              box.addEventListener('change', () => {
                if (box.checked) this.#disabledTools.delete(key);
                else this.#disabledTools.add(key);
                this.requestUpdate();
              });
              const name = `${tool.title ?? tool.name} · ${server.name}`;
              const label = el('label', { title: name }, box, name);
              return el('li', {}, label);
            }),
          )
        : el('p', { class: 'muted' }, t('chatNoTools')),
    );
    this.#tools.open = open;
  }

  #renderLog() {
    this.#streaming.clear();
    const entries = this.#chat?.entries ?? [];
    // Steps the user opened stay open across pushes.
    const opened = new Set([...this.#log.querySelectorAll<HTMLDetailsElement>('details.step[open]')].map((d) => d.dataset.id));
    const items = entries.map((e) => this.#entry(e, opened));
    // In place, not replaceChildren: a step with a live view keeps its item where it is.
    const keep = new Set<Element>(items);
    for (const child of [...this.#log.children]) if (!keep.has(child)) child.remove();
    items.forEach((item, i) => {
      const at = this.#log.children[i];
      if (at !== item) this.#log.insertBefore(item, at ?? null);
    });
  }

  /** The tool of a step, with its server, when it names an MCP App view. */
  #viewTool(e: Extract<ChatEntry, { kind: 'tool' }>) {
    const server = this.#servers.find((s) => (e.serverId ? s.id === e.serverId : s.name === e.serverName));
    const tool = server?.tools.find((tool) => tool.name === e.toolName);
    return server && tool && toolUi(tool).resourceUri ? { serverId: server.id, tool } : undefined;
  }

  #entry(e: ChatEntry, opened: Set<string | undefined>): HTMLElement {
    switch (e.kind) {
      case 'user':
        return el(
          'li',
          { class: 'user', 'data-id': e.id },
          e.text,
          e.blocks.length ? el('div', { class: 'blocks' }, ...e.blocks.map((b) => el('div', {}, b.label))) : null,
        );
      case 'assistant': {
        const body = el('div', { class: 'markdown' });
        if (e.streaming) {
          const stream = new MarkdownStream(body);
          stream.text = e.text;
          this.#streaming.set(e.id, stream);
        } else body.append(...renderMarkdown(e.text));
        const u = e.usage;
        const usage =
          u && (u.inputTokens !== undefined || u.outputTokens !== undefined)
            ? el('p', { class: 'usage' }, t('chatUsage', String(u.inputTokens ?? '?'), String(u.outputTokens ?? '?')))
            : null;
        return el('li', { class: 'assistant', 'data-id': e.id, 'aria-busy': e.streaming ? 'true' : false }, body, usage);
      }
      case 'tool': {
        const summary = [
          e.toolName ?? e.name,
          e.serverName,
          t(STEP_STATUS[e.status]!),
          e.durationMs !== undefined ? `${e.durationMs} ms` : '',
        ]
          .filter(Boolean)
          .join(' · ');
        const details = el(
          'details',
          { class: `step status-${e.status}`, 'data-id': e.id, 'data-status': e.status, open: opened.has(e.id) },
          el('summary', { title: summary }, summary),
          el('p', { class: 'muted' }, t('chatArguments')),
          el('pre', { class: 'arguments' }, prettyJson(e.arguments)),
          e.result !== undefined ? el('p', { class: 'muted' }, t('chatResult')) : null,
          ...this.#stepResult(e),
        );
        const view = this.#viewTool(e);
        return view ? this.#views.item(e, view.tool, view.serverId, details) : el('li', {}, details);
      }
      case 'error':
        return el(
          'li',
          { class: 'error provider-error', role: 'alert', 'data-kind': e.errorKind },
          [tReason(chatErrorSaid(e)), e.wording && e.detail ? ` ${t('chatProviderSaid', e.detail)}` : ''].join(''),
        );
      case 'notice':
        return el('li', { class: 'notice', 'data-notice': e.notice }, t(NOTICE[e.notice]!));
    }
  }

  #renderApprovals() {
    const existing = new Map([...this.#approvalsEl.querySelectorAll('mcp-approval-card')].map((c) => [c.approval?.id, c]));
    this.#approvalsEl.replaceChildren(
      ...this.#approvals.map((a) => {
        const card = existing.get(a.id) ?? document.createElement('mcp-approval-card');
        if (card.approval?.id !== a.id || card.approval.status !== a.status) card.approval = a;
        return card;
      }),
      ...this.#waitingChats.map((chatId) => {
        const title = this.#chats.find((c) => c.id === chatId)?.title || t('chatUntitled');
        const open = el('button', { type: 'button', 'data-role': 'quiet', 'data-chat': chatId }, t('chatOpenWaiting'));
        open.addEventListener('click', () => this.dispatchEvent(new ChatActionEvent({ action: 'open', chatId })));
        return el('p', { class: 'waiting-elsewhere' }, t('chatOtherWaiting', title), ' ', open);
      }),
    );
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
