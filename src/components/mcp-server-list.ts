/** The list of servers, one card each, or a hint when there are none (SPEC K1). */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { t } from './i18n.js';
import type { McpServerCardElement, PingOutcome } from './mcp-server-card.js';

const css = sheet(`.empty { padding: 12px; text-align: center; }`);

export class McpServerListElement extends ElementBase {
  #servers: ServerView[] = [];
  #cards = new Map<string, McpServerCardElement>();
  readonly #list = el('div', { role: 'list' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    root.append(this.#list);
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

  /** Routes a "Test connection" outcome to the card that asked for it. */
  showPing(serverId: string, outcome: PingOutcome) {
    this.#cards.get(serverId)?.showPing(outcome);
  }

  /** Cards are kept per id so focus and in-progress confirmation survive state pushes. */
  protected override update() {
    if (this.#servers.length === 0) {
      this.#cards.clear();
      this.#list.replaceChildren(el('p', { class: 'empty muted', role: 'listitem' }, t('noServers')));
      return;
    }
    const next = new Map<string, McpServerCardElement>();
    for (const server of this.#servers) {
      const card = this.#cards.get(server.id) ?? document.createElement('mcp-server-card');
      card.setAttribute('role', 'listitem');
      card.setAttribute('server-id', server.id);
      card.server = server;
      next.set(server.id, card);
    }
    this.#cards = next;
    // Moving a card that is already in place would blur whatever has focus inside it.
    const cards = [...next.values()];
    const current = [...this.#list.children];
    if (cards.length !== current.length || cards.some((card, i) => current[i] !== card)) this.#list.replaceChildren(...cards);
  }
}
