/**
 * The Chat view's tool picker: the tools of the ready servers the model may call, each with a
 * per-chat switch, and how many are on. Renders into its own children (no shadow root), so the
 * Chat view's styles and selectors reach it unchanged.
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import type { ServerView } from '../protocol/panel.js';

export const chatToolsCss = `
mcp-chat-tools { display: contents; }
details.tools ul { list-style: none; margin: 0; padding: 0; max-height: 12em; overflow: auto; }
details.tools label { display: flex; gap: 4px; align-items: center; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
`;

const toolKey = (serverId: string, tool: string) => `${serverId}:${tool}`;

/** The tools the model can see: enabled, ready servers' enabled tools that are not view-only. */
function modelTools(servers: ServerView[]) {
  return servers
    .filter((s) => s.enabled && s.status === 'ready')
    .flatMap((s) =>
      s.tools.filter((tool) => !s.disabledTools.includes(tool.name) && toolUi(tool).model).map((tool) => ({ server: s, tool })),
    );
}

export class McpChatToolsElement extends ElementBase {
  #servers: ServerView[] = [];
  #disabled = new Set<string>();
  /** What the checklist last showed, to skip rebuilding it when nothing changed. */
  #shape = '';
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
  /** The `server:tool` keys switched off for this chat; the picker edits its own copy. */
  set disabledTools(value: readonly string[]) {
    this.#disabled = new Set(value);
    this.requestUpdate('disabledTools');
  }
  get disabledTools(): string[] {
    return [...this.#disabled];
  }

  connectedCallback() {
    if (this.#details.parentNode !== this) this.append(this.#details);
  }

  protected override update() {
    const tools = modelTools(this.#servers);
    const on = tools.filter(({ server, tool }) => !this.#disabled.has(toolKey(server.id, tool.name))).length;
    // A push that changes none of these leaves the (possibly 1,000) checkboxes as they are.
    const shape = JSON.stringify([[...this.#disabled], tools.map(({ server, tool }) => [server.id, server.name, tool.name, tool.title])]);
    if (shape === this.#shape) return;
    this.#shape = shape;
    const open = this.#details.open;
    this.#details.replaceChildren(
      el('summary', {}, `${t('chatTools')} (${on}/${tools.length})`),
      tools.length
        ? el('ul', {}, ...tools.map(({ server, tool }) => this.#row(server, tool)))
        : el('p', { class: 'muted' }, t('chatNoTools')),
    );
    this.#details.open = open;
  }

  #row(server: ServerView, tool: ServerView['tools'][number]) {
    const key = toolKey(server.id, tool.name);
    const box = el('input', { type: 'checkbox', checked: !this.#disabled.has(key), 'data-tool': key });
    box.addEventListener('change', () => {
      if (box.checked) this.#disabled.delete(key);
      else this.#disabled.add(key);
      this.requestUpdate('disabledTools');
    });
    const name = `${tool.title ?? tool.name} · ${server.name}`;
    return el('li', {}, el('label', { title: name }, box, name));
  }
}
