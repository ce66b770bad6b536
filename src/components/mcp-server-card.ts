/**
 * One server: name, URL, status with its reason, tool count, actions, and per-tool toggles
 * (SPEC J1, K1, K2). Everything from the server is rendered as text (SPEC K5).
 */
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { ServerActionEvent, ToolToggleEvent, type ServerAction } from './events.js';
import { t } from './i18n.js';

const css = sheet(`
:host { border: 1px solid #8886; border-radius: 8px; padding: 10px; margin-bottom: 8px; }
header { display: flex; align-items: center; gap: 8px; }
h3 { margin: 0; font-size: 14px; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.url { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
ul { list-style: none; padding: 0; margin: 6px 0 0; max-height: 320px; overflow: auto; }
li label { display: flex; gap: 6px; align-items: baseline; }
li .desc { font-size: 12px; }
`);

export class McpServerCardElement extends HTMLElement {
  static define(tag = 'mcp-server-card', registry = customElements) {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }
  #server: ServerView | undefined;
  #confirmingDelete = false;
  #queued = false;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [css];
  }

  get server(): ServerView | undefined {
    return this.#server;
  }
  set server(value: ServerView | undefined) {
    this.#server = value;
    this.update();
  }

  connectedCallback() {
    this.update();
  }

  /** Re-render batched in a microtask. */
  update() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#render();
    });
  }

  #action(action: ServerAction) {
    const s = this.#server;
    if (!s) return;
    if (action === 'delete' && !this.#confirmingDelete) {
      this.#confirmingDelete = true;
      this.#render();
      this.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="confirm-delete"]')?.focus();
      return;
    }
    this.#confirmingDelete = false;
    this.dispatchEvent(new ServerActionEvent(s.id, action));
    this.#render();
  }

  #button(label: string, action: ServerAction | 'confirm-delete' | 'cancel-delete', onClick: () => void) {
    const b = el('button', { type: 'button', 'data-action': action }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  #render() {
    const root = this.shadowRoot!;
    const s = this.#server;
    if (!s) {
      root.replaceChildren();
      return;
    }
    const badge = el('mcp-status-badge', { status: s.status });
    const enabledTools = s.tools.filter((tool) => !s.disabledTools.includes(tool.name)).length;
    const actions = el('div', { class: 'actions', role: 'group', 'aria-label': t('serverActions') });
    if (s.status === 'ready' || s.status === 'connecting') actions.append(this.#button(t('disconnect'), 'disconnect', () => this.#action('disconnect')));
    else if (s.enabled) actions.append(this.#button(t('connect'), 'connect', () => this.#action('connect')));
    if (s.reason?.kind === 'permission') actions.append(this.#button(t('grantAccess'), 'grant', () => this.#action('grant')));
    actions.append(this.#button(s.enabled ? t('disable') : t('enable'), s.enabled ? 'disable' : 'enable', () => this.#action(s.enabled ? 'disable' : 'enable')));
    if (this.#confirmingDelete) {
      actions.append(
        el('span', { role: 'alert' }, t('confirmDelete', s.name)),
        this.#button(t('delete'), 'confirm-delete', () => this.#action('delete')),
        this.#button(t('cancel'), 'cancel-delete', () => {
          this.#confirmingDelete = false;
          this.#render();
        }),
      );
    } else {
      actions.append(this.#button(t('delete'), 'delete', () => this.#action('delete')));
    }

    const tools = el('ul', { 'aria-label': t('toolsOf', s.name) });
    for (const tool of s.tools) {
      const box = el('input', { type: 'checkbox', 'data-tool': tool.name, checked: !s.disabledTools.includes(tool.name) });
      box.addEventListener('change', () => this.dispatchEvent(new ToolToggleEvent(s.id, tool.name, box.checked)));
      tools.append(
        el('li', {}, el('label', {}, box, el('strong', {}, tool.title ?? tool.name), tool.description ? el('span', { class: 'desc muted' }, tool.description) : null)),
      );
    }

    root.replaceChildren(
      el('article', { 'aria-label': s.name },
        el('header', {}, el('h3', { title: s.name }, s.name), badge),
        el('div', { class: 'url muted' }, s.url),
        s.reason ? el('p', { class: s.status === 'error' || s.status === 'needs-auth' ? 'error reason' : 'muted reason' }, s.reason.message) : null,
        el('div', { class: 'tool-count' }, t('toolCount', String(enabledTools), String(s.tools.length))),
        actions,
        s.tools.length ? tools : null,
      ),
    );
  }
}
