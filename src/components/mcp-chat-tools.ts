/**
 * The Chat view's tool picker (T2): the tools of the ready servers the model may call, grouped by
 * server, each server with an "all tools of X" switch and each tool with its own, kept with the
 * chat; whether the chat uses tool search; and what the next request would offer — the tool count
 * and its size in tokens, with the method — as the worker measured it on the definitions as sent.
 * Above the provider's tool limit it says so before anything is sent and offers the two ways out.
 * Every change asks the worker (a `tools` {@link ChatActionEvent}) to keep the selection and
 * measure it again. Renders into its own children (no shadow root), so the Chat view's styles and
 * selectors reach it unchanged.
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t, uiLocale } from './i18n.js';
import { ChatActionEvent } from './chat-events.js';
import type { ServerView } from '../protocol/panel.js';
import type { ChatView, ProviderSettingsView, ToolBudget } from '../protocol/panel-chat.js';

export const chatToolsCss = `
mcp-chat-tools { display: contents; }
details.tools summary { cursor: pointer; }
details.tools .tool-budget { display: block; font-size: 0.85em; color: var(--fg-muted); overflow-wrap: anywhere; }
details.tools ul { list-style: none; margin: 0; padding: 0; }
details.tools ul.servers { max-height: 14em; overflow: auto; }
details.tools ul.server-tools { padding-inline-start: 1.4em; }
details.tools label { display: flex; gap: 4px; align-items: center; min-width: 0; }
details.tools label span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
details.tools label.tool-search span { white-space: normal; }
details.tools li.server > label { font-weight: 600; }
.tool-limit { margin: 0; padding: 4px 8px; border: 1px solid var(--danger); border-radius: var(--radius); display: grid; gap: 4px; }
.tool-limit p { margin: 0; }
.tool-limit .actions { display: flex; flex-wrap: wrap; gap: var(--space-2); }
`;

const toolKey = (serverId: string, tool: string) => `${serverId}:${tool}`;

type Tool = ServerView['tools'][number];

/** The servers whose tools the model can see, each with those tools: enabled, ready, enabled tools that are not view-only. */
function modelServers(servers: ServerView[]): Array<{ server: ServerView; tools: Tool[] }> {
  return servers
    .filter((s) => s.enabled && s.status === 'ready')
    .map((s) => ({ server: s, tools: s.tools.filter((tool) => !s.disabledTools.includes(tool.name) && toolUi(tool).model) }))
    .filter((s) => s.tools.length);
}

const count = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

/** The estimate line: the first request's tools and their size, the method named. */
function budgetText(b: ToolBudget): string {
  if (b.search) return t('chatToolsSearchEstimate', count(b.tokens));
  return t('chatToolsEstimate', count(b.offered), count(b.tokens));
}

const kindName = (b: ToolBudget) => t(b.kind === 'anthropic' ? 'chatKindAnthropic' : 'chatKindOpenai');

export class McpChatToolsElement extends ElementBase {
  #servers: ServerView[] = [];
  #chatId: string | undefined;
  #disabled = new Set<string>();
  #disabledServers = new Set<string>();
  #toolSearch = false;
  #budget: ToolBudget | undefined;
  /** The provider's kind and tool limit: a change is measured again. */
  #provider = '';
  /** What the checklist last showed, to skip rebuilding it when nothing changed. */
  #shape = '';
  /** The selection and catalog the worker last measured, to ask again only when one changed. */
  #asked = '';
  readonly #limit = el('div', { class: 'tool-limit', role: 'status' });
  readonly #details = el('details', { class: 'tools' });

  constructor() {
    super();
    // Shown before any input arrives, as the empty chat's frame.
    this.requestUpdate();
  }

  set servers(value: ServerView[]) {
    this.#servers = value;
    this.requestUpdate('servers');
  }
  /** The chat whose selection this shows (read when another chat is opened); none: the defaults. */
  set selection(chat: Pick<ChatView, 'id' | 'disabledTools' | 'disabledServers' | 'toolSearch'> | undefined) {
    this.#chatId = chat?.id;
    this.#disabled = new Set(chat?.disabledTools ?? []);
    this.#disabledServers = new Set(chat?.disabledServers ?? []);
    this.#toolSearch = chat?.toolSearch === true;
    this.requestUpdate('selection');
  }
  /** The `server:tool` keys switched off for this chat; the picker edits its own copy. */
  set disabledTools(value: readonly string[]) {
    this.#disabled = new Set(value);
    this.requestUpdate('disabledTools');
  }
  get disabledTools(): string[] {
    return [...this.#disabled];
  }
  get disabledServers(): string[] {
    return [...this.#disabledServers];
  }
  get toolSearch(): boolean {
    return this.#toolSearch;
  }
  set provider(value: ProviderSettingsView | undefined | null) {
    this.#provider = JSON.stringify([value?.kind, value?.toolLimit]);
    this.requestUpdate('provider');
  }
  /** What the worker measured for the selection shown. */
  set budget(value: ToolBudget | undefined) {
    this.#budget = value;
    this.requestUpdate('budget');
  }

  connectedCallback() {
    if (this.#limit.parentNode !== this) this.append(this.#limit, this.#details);
  }

  protected override update() {
    const servers = modelServers(this.#servers);
    this.#askForBudget(servers);
    this.#showLimit();
    const selection = [[...this.#disabled], [...this.#disabledServers], this.#toolSearch];
    // A push that changes none of these leaves the (possibly 1,000) checkboxes as they are.
    const catalog = servers.map(({ server, tools }) => [server.id, server.name, tools.map((tool) => [tool.name, tool.title])]);
    const shape = JSON.stringify([selection, catalog, this.#budget]);
    if (shape === this.#shape) return;
    this.#shape = shape;
    const all = servers.reduce((n, s) => n + s.tools.length, 0);
    const on = servers.reduce((n, s) => n + (this.#disabledServers.has(s.server.id) ? 0 : this.#onOf(s)), 0);
    const open = this.#details.open;
    const parts = [
      el(
        'summary',
        {},
        `${t('chatTools')} (${count(on)}/${count(all)})`,
        this.#budget ? el('span', { class: 'tool-budget' }, budgetText(this.#budget)) : null,
      ),
      servers.length ? this.#searchToggle() : null,
      servers.length
        ? el('ul', { class: 'servers' }, ...servers.map((s) => this.#serverItem(s.server, s.tools)))
        : el('p', { class: 'muted' }, t('chatNoTools')),
    ];
    this.#details.replaceChildren(...parts.filter((p) => p !== null));
    this.#details.open = open;
  }

  #onOf({ server, tools }: { server: ServerView; tools: Tool[] }): number {
    return tools.filter((tool) => !this.#disabled.has(toolKey(server.id, tool.name))).length;
  }

  /** Asks the worker to keep and measure the selection when it or the catalog changed. */
  #askForBudget(servers: ReturnType<typeof modelServers>) {
    const selection = { disabledTools: [...this.#disabled], disabledServers: [...this.#disabledServers], toolSearch: this.#toolSearch };
    const asked = JSON.stringify([
      this.#chatId,
      this.#provider,
      selection,
      servers.map(({ server, tools }) => [server.id, tools.map((x) => x.name)]),
    ]);
    if (asked === this.#asked) return;
    this.#asked = asked;
    this.dispatchEvent(new ChatActionEvent({ action: 'tools', chatId: this.#chatId, ...selection }));
  }

  /** Above the provider's limit, before anything is sent: says so and offers servers or tool search. */
  #showLimit() {
    const b = this.#budget;
    const over = b !== undefined && b.selected > b.limit && !this.#toolSearch;
    this.#limit.hidden = !over;
    if (!over) return this.#limit.replaceChildren();
    const choose = el('button', { type: 'button', class: 'choose-servers' }, t('chatToolsChooseServers'));
    choose.addEventListener('click', () => {
      this.#details.open = true;
      this.#details.querySelector<HTMLInputElement>('input[data-server]')?.focus();
    });
    const search = el('button', { type: 'button', class: 'use-search', 'data-role': 'primary' }, t('chatToolsUseSearch'));
    search.addEventListener('click', () => this.#change(() => (this.#toolSearch = true)));
    this.#limit.replaceChildren(
      el('p', { class: 'message' }, t('chatToolsOverLimit', count(b.selected), kindName(b), count(b.limit))),
      el('div', { class: 'actions' }, choose, search),
    );
  }

  #change(edit: () => void) {
    edit();
    this.requestUpdate('selection');
  }

  #searchToggle() {
    const box = el('input', { type: 'checkbox', name: 'tool-search', checked: this.#toolSearch });
    box.addEventListener('change', () => this.#change(() => (this.#toolSearch = box.checked)));
    return el('label', { class: 'tool-search' }, box, el('span', {}, t('chatToolSearch')));
  }

  #serverItem(server: ServerView, tools: Tool[]) {
    const off = this.#disabledServers.has(server.id);
    const box = el('input', { type: 'checkbox', checked: !off, 'data-server': server.id });
    box.addEventListener('change', () =>
      this.#change(() => (box.checked ? this.#disabledServers.delete(server.id) : this.#disabledServers.add(server.id))),
    );
    const label = t('chatToolsAllOf', server.name, count(this.#onOf({ server, tools })), count(tools.length));
    return el(
      'li',
      { class: 'server' },
      el('label', { title: label }, box, el('span', {}, label)),
      el('ul', { class: 'server-tools' }, ...tools.map((tool) => this.#toolItem(server, tool, off))),
    );
  }

  #toolItem(server: ServerView, tool: Tool, serverOff: boolean) {
    const key = toolKey(server.id, tool.name);
    const box = el('input', { type: 'checkbox', checked: !this.#disabled.has(key), 'data-tool': key, disabled: serverOff });
    box.addEventListener('change', () => this.#change(() => (box.checked ? this.#disabled.delete(key) : this.#disabled.add(key))));
    const name = `${tool.title ?? tool.name} · ${server.name}`;
    return el('li', {}, el('label', { title: name }, box, el('span', {}, tool.title ?? tool.name)));
  }
}
