/**
 * The Chat view's conversation: the user's messages with their context blocks, the assistant's
 * Markdown rendered by {@link renderMarkdown} (DOM only) and streamed by {@link MarkdownStream},
 * tool calls as collapsible steps (tool, server, arguments, result, duration) with a step's MCP
 * App view under it ({@link ChatStepViews}), provider errors in plain words, notices, tokens per
 * turn; each message with its actions (copy, edit and resend, regenerate: chat-message-actions.ts)
 * and, below the log, what the chat waits for (chat-phase.ts). Renders into its own children (no shadow root), so the Chat view's styles and selectors
 * reach it unchanged.
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t, tReason } from './i18n.js';
import { MarkdownStream, renderMarkdown } from './markdown.js';
import { ChatStepViews } from './chat-app-views.js';
import { unfence } from '../common/untrusted-fence.js';
import { chatErrorSaid, type ChatEntry, type ChatView } from '../protocol/panel-chat.js';
import type { ServerView } from '../protocol/panel.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { MessageKey } from '../i18n/en.js';
import { chatToolLinesCss, toolSearchLine } from './chat-tool-lines.js';
import { ChatActionEvent } from './chat-events.js';
import { ChatPhaseLine, chatPhaseCss } from './chat-phase.js';
import { chatMessageActionsCss, editForm, messageActions, regenerateRow } from './chat-message-actions.js';

export const chatLogCss = `
mcp-chat-log { display: contents; }
ol.log { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-2); }
ol.log > li { min-width: 0; }
li.user { justify-self: end; max-width: 90%; display: grid; gap: 2px; }
li.user.editing { justify-self: stretch; max-width: none; }
.user .bubble { justify-self: end; background: var(--bg-hover); border-radius: var(--radius); padding: 4px 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
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
.status-waiting-approval > summary { color: var(--accent); font-weight: 600; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
${chatPhaseCss}${chatMessageActionsCss}
.notice { color: var(--fg-muted); font-style: italic; margin: 0; }
${chatToolLinesCss}
details.thinking { margin: 0 0 var(--space-1, 4px); font-size: var(--text-small, 12px); }
details.thinking > summary { cursor: pointer; color: var(--muted, inherit); }
details.thinking > .reasoning { white-space: pre-wrap; overflow-wrap: anywhere; color: var(--muted, inherit); margin: var(--space-1, 4px) 0 0; }`;

const STEP_STATUS: Record<string, MessageKey> = {
  'waiting-approval': 'chatStepWaitingApproval',
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

type Entry<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A provider error as the person reads it: translated wording and what the provider said, else its message. */
function providerErrorText(e: Entry<'error'>): string {
  return [tReason(chatErrorSaid(e)), e.wording && e.detail ? ` ${t('chatProviderSaid', e.detail)}` : ''].join('');
}

/**
 * A step's result as the person reads it: the server's text without the untrusted-data fences
 * the model gets, and what the model received folded beneath it when that differs.
 */
function stepResult(e: Entry<'tool'>): Array<HTMLElement | null> {
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

/**
 * A step named like the rest of the panel: the tool's title (else its name) and its server's name,
 * never the model-facing `mcp__server__tool` — also for a step whose tool was not found at call
 * time (a failed step), read back from that name and the servers known now.
 */
export function stepName(e: Entry<'tool'>, servers: readonly ServerView[]): { tool: string; server: string | undefined } {
  const parsed = /^mcp__(.+?)__(.+)$/.exec(e.name);
  const serverId = e.serverId ?? parsed?.[1];
  const server = servers.find((s) => (serverId ? s.id === serverId : s.name === e.serverName));
  const toolName = e.toolName ?? parsed?.[2] ?? e.name;
  const title = e.toolTitle ?? server?.tools.find((tool) => tool.name === toolName)?.title;
  return { tool: title || toolName, server: e.serverName ?? server?.name ?? serverId };
}

/** A tool step's collapsible details: summary line, arguments, result. */
function stepDetails(e: Entry<'tool'>, open: boolean, servers: readonly ServerView[]): HTMLDetailsElement {
  const name = stepName(e, servers);
  const summary = [name.tool, name.server, t(STEP_STATUS[e.status]!), e.durationMs !== undefined ? `${e.durationMs} ms` : '']
    .filter(Boolean)
    .join(' · ');
  return el(
    'details',
    { class: `step status-${e.status}`, 'data-id': e.id, 'data-status': e.status, open },
    el('summary', { title: summary }, summary),
    el('p', { class: 'muted' }, t('chatArguments')),
    el('pre', { class: 'arguments' }, prettyJson(e.arguments)),
    e.result !== undefined ? el('p', { class: 'muted' }, t('chatResult')) : null,
    ...stepResult(e),
  );
}

function userBubble(e: Entry<'user'>): HTMLElement {
  return el(
    'div',
    { class: 'bubble' },
    e.text,
    e.blocks.length ? el('div', { class: 'blocks' }, ...e.blocks.map((b) => el('div', {}, b.label))) : null,
  );
}

function usageLine(u: Entry<'assistant'>['usage']): HTMLElement | null {
  return u && (u.inputTokens !== undefined || u.outputTokens !== undefined)
    ? el('p', { class: 'usage' }, t('chatUsage', String(u.inputTokens ?? '?'), String(u.outputTokens ?? '?')))
    : null;
}

export class McpChatLogElement extends ElementBase {
  #chat: ChatView | undefined;
  #servers: ServerView[] = [];
  readonly #log = el('ol', { class: 'log', 'aria-live': 'polite' });
  /** Assistant entries being streamed, by id: what renders their growing text. */
  readonly #streaming = new Map<string, MarkdownStream>();
  readonly #views = new ChatStepViews();
  readonly #phase = new ChatPhaseLine();
  /** The user message being edited, with its form (kept across renders: the draft and focus stay). */
  #editing: { entryId: string; form: HTMLFormElement } | undefined;

  set chat(value: ChatView | undefined) {
    if (value?.id !== this.#chat?.id) {
      this.#views.reset();
      this.#editing = undefined;
    }
    this.#chat = value;
    this.requestUpdate('chat');
  }
  set servers(value: ServerView[]) {
    this.#servers = value;
    this.requestUpdate('servers');
  }

  connectedCallback() {
    if (this.#log.parentNode !== this) this.append(this.#log, this.#phase.element);
  }

  /** The growing text of an answer being streamed. */
  setText(chatId: string, entryId: string, text: string) {
    if (this.#chat?.id !== chatId) return;
    const entry = this.#chat.entries.find((e) => e.id === entryId);
    if (entry?.kind === 'assistant') entry.text = text;
    const node = this.#streaming.get(entryId);
    if (node) node.text = text;
    if (text) this.#showPhase();
  }

  /** A tool step's result for its MCP App view (not part of the stored chat). */
  toolResult(chatId: string, entryId: string, result: CallToolResult) {
    if (this.#chat?.id === chatId) this.#views.result(entryId, result);
  }

  protected override update() {
    this.#streaming.clear();
    const entries = this.#chat?.entries ?? [];
    // Steps the user opened stay open across pushes.
    const opened = new Set([...this.#log.querySelectorAll<HTMLDetailsElement>('details.step[open]')].map((d) => d.dataset.id));
    const items = entries.map((e) => this.#item(e, opened));
    // In place, not replaceChildren: a step with a live view keeps its item where it is.
    const keep = new Set<Element>(items);
    for (const child of [...this.#log.children]) if (!keep.has(child)) child.remove();
    items.forEach((item, i) => {
      const at = this.#log.children[i];
      if (at !== item) this.#log.insertBefore(item, at ?? null);
    });
    this.#showPhase();
  }

  /** T1: the waiting or retry line; "waiting" ends with the answer's first words. */
  #showPhase() {
    const chat = this.#chat;
    const answering = chat?.entries.some((e) => e.kind === 'assistant' && e.streaming && e.text !== '') ?? false;
    this.#phase.show(chat?.status === 'running' ? chat.phase : undefined, answering, () => {
      if (chat) this.dispatchEvent(new ChatActionEvent({ action: 'stop', chatId: chat.id }));
    });
  }

  /** Regenerate goes on the chat's last entry once it is idle and a user message was answered or failed. */
  #regenerate(e: ChatEntry): (() => void) | undefined {
    const chat = this.#chat;
    if (!chat || chat.status !== 'idle' || chat.entries.at(-1) !== e || e.kind === 'user') return undefined;
    if (!chat.entries.some((x) => x.kind === 'user')) return undefined;
    return () => this.dispatchEvent(new ChatActionEvent({ action: 'regenerate', chatId: chat.id }));
  }

  #userItem(e: Entry<'user'>): HTMLElement {
    const chat = this.#chat;
    if (this.#editing?.entryId === e.id && chat) return el('li', { class: 'user editing', 'data-id': e.id }, this.#editing.form);
    const idle = chat?.status === 'idle';
    const edit = idle ? () => this.#startEdit(e) : undefined;
    return el(
      'li',
      { class: 'user', 'data-id': e.id },
      userBubble(e),
      messageActions(e, edit ? { edit } : {}),
      e.edited ? el('span', { class: 'edited' }, t('chatEdited')) : null,
    );
  }

  #startEdit(e: Entry<'user'>) {
    const chatId = this.#chat?.id;
    if (!chatId) return;
    const done = () => {
      this.#editing = undefined;
      this.requestUpdate('chat');
    };
    const form = editForm(
      e.text,
      (text) => {
        this.dispatchEvent(new ChatActionEvent({ action: 'edit', chatId, entryId: e.id, text }));
        done();
      },
      done,
    );
    this.#editing = { entryId: e.id, form };
    this.requestUpdate('chat');
    void this.updateComplete.then(() => form.querySelector('textarea')?.focus());
  }

  #item(e: ChatEntry, opened: Set<string | undefined>): HTMLElement {
    switch (e.kind) {
      case 'user':
        return this.#userItem(e);
      case 'assistant':
        return this.#assistantItem(e);
      case 'tool':
        return this.#withRegenerate(e, this.#toolItem(e, opened.has(e.id)));
      case 'error':
        return this.#withRegenerate(
          e,
          el('li', { class: 'error provider-error', role: 'alert', 'data-kind': e.errorKind }, providerErrorText(e)),
        );
      case 'notice':
        return this.#withRegenerate(e, el('li', { class: 'notice', 'data-notice': e.notice }, t(NOTICE[e.notice]!)));
      case 'tool-search':
      case 'tools-loaded':
        return toolSearchLine(e);
    }
  }

  #withRegenerate(e: ChatEntry, item: HTMLElement): HTMLElement {
    const regenerate = this.#regenerate(e);
    if (regenerate) item.append(regenerateRow(regenerate));
    return item;
  }

  #assistantItem(e: Entry<'assistant'>): HTMLElement {
    const body = el('div', { class: 'markdown' });
    if (e.streaming) {
      const stream = new MarkdownStream(body);
      stream.text = e.text;
      this.#streaming.set(e.id, stream);
    } else body.append(...renderMarkdown(e.text));
    const regenerate = this.#regenerate(e);
    return el(
      'li',
      { class: 'assistant', 'data-id': e.id, 'aria-busy': e.streaming ? 'true' : false },
      thinking(e.reasoning),
      body,
      usageLine(e.usage),
      e.streaming || (!e.text && !regenerate) ? null : messageActions(e, regenerate ? { regenerate } : {}),
    );
  }

  #toolItem(e: Entry<'tool'>, open: boolean): HTMLElement {
    const details = stepDetails(e, open, this.#servers);
    const view = this.#viewTool(e);
    return view ? this.#views.item(e, view.tool, view.serverId, details) : el('li', {}, details);
  }

  /** The tool of a step, with its server, when it names an MCP App view. */
  #viewTool(e: Entry<'tool'>) {
    const server = this.#servers.find((s) => (e.serverId ? s.id === e.serverId : s.name === e.serverName));
    const tool = server?.tools.find((tool) => tool.name === e.toolName);
    return server && tool && toolUi(tool).resourceUri ? { serverId: server.id, tool } : undefined;
  }
}

/** The model's reasoning (T3): collapsed under "Thinking", as text, apart from the answer; never sent back to the model. */
function thinking(reasoning: string | undefined): HTMLDetailsElement | null {
  if (!reasoning) return null;
  return el('details', { class: 'thinking' }, el('summary', {}, t('chatThinking')), el('div', { class: 'reasoning' }, reasoning));
}
