/**
 * The Servers view (SPEC K1, S1, docs/ui.md): "Add server", "From directory" and "Import" above one row per server,
 * or a short welcome with the same two buttons when there are none. A row opens the server's
 * detail; its switch turns the server on and off.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { NavigateEvent } from './events.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import type { McpServerCardElement } from './mcp-server-card.js';
import { otherAccountsOf } from '../common/accounts.js';

const css = sheet(`
.bar { display: flex; gap: var(--space-2); flex-wrap: wrap; margin-bottom: var(--space-2); }
.bar button { display: inline-flex; align-items: center; gap: var(--space-1); padding-left: var(--space-2); }
[role="list"] { display: grid; grid-template-columns: minmax(0, 1fr); gap: 2px; }
.welcome { padding: var(--space-4) var(--space-2); text-align: center; }
.welcome h2 { font-size: var(--text-title); margin: 0 0 var(--space-2); }
.welcome p { margin: 0 0 var(--space-3); }
.welcome .bar { justify-content: center; }
`);

export class McpServerListElement extends ElementBase {
  #servers: ServerView[] = [];
  #cards = new Map<string, McpServerCardElement>();
  readonly #list = el('div', { role: 'list', 'aria-label': t('viewServers') });
  readonly #bar: HTMLElement;
  readonly #welcome: HTMLElement;
  readonly #welcomeTitle = el('h2', { tabindex: '-1' }, t('welcomeTitle'));

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const buttons = () => {
      const add = el('button', { type: 'button', 'data-role': 'primary', 'data-open': 'add' }, icon('add', 16), t('addServerButton'));
      const imp = el('button', { type: 'button', 'data-open': 'import' }, icon('import', 16), t('openImport'));
      const dir = el('button', { type: 'button', 'data-open': 'directory' }, icon('search', 16), t('openDirectory'));
      add.addEventListener('click', () => this.emit(new NavigateEvent({ view: 'add' })));
      imp.addEventListener('click', () => this.emit(new NavigateEvent({ view: 'import' })));
      dir.addEventListener('click', () => this.emit(new NavigateEvent({ view: 'directory' })));
      return el('div', { class: 'bar' }, add, dir, imp);
    };
    this.#bar = buttons();
    this.#welcome = el(
      'div',
      { class: 'welcome', hidden: true },
      this.#welcomeTitle,
      el('p', { class: 'muted' }, t('welcomeText')),
      buttons(),
    );
    root.append(this.#bar, this.#welcome, this.#list);
  }

  get servers(): ServerView[] {
    return this.#servers;
  }
  set servers(value: ServerView[]) {
    this.#servers = value;
    this.update();
  }

  connectedCallback() {
    this.update();
  }

  /** The row of a server, for focus to return to and for action outcomes. */
  card(serverId: string): McpServerCardElement | undefined {
    return this.#cards.get(serverId);
  }

  /**
   * Where the focus goes once a server was deleted: the row of `nextId` (the one listed after the
   * deleted server), else the first row, else the welcome's heading — never the page.
   */
  focusAfterRemoval(nextId: string | undefined): HTMLElement {
    this.update();
    return (nextId ? this.#cards.get(nextId) : undefined) ?? this.#cards.values().next().value ?? this.#welcomeTitle;
  }

  protected override updateParts() {
    return [...this.#cards.values()];
  }

  /** Rows are kept per id so focus survives state pushes. */
  protected override update() {
    const empty = this.#servers.length === 0;
    this.#welcome.hidden = !empty;
    this.#bar.hidden = empty;
    const next = new Map<string, McpServerCardElement>();
    for (const server of this.#servers) {
      const card = this.#cards.get(server.id) ?? document.createElement('mcp-server-card');
      card.setAttribute('role', 'listitem');
      card.setAttribute('server-id', server.id);
      // Set before `server`, whose update reads it: the row keeps the end of its name in view (S3).
      card.toggleAttribute('shared-url', otherAccountsOf(this.#servers, server).length > 0);
      card.server = server;
      next.set(server.id, card);
    }
    this.#cards = next;
    // Moving a row that is already in place would blur whatever has focus inside it.
    const cards = [...next.values()];
    const current = [...this.#list.children];
    if (cards.length !== current.length || cards.some((card, i) => current[i] !== card)) this.#list.replaceChildren(...cards);
  }
}
