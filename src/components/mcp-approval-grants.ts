/**
 * The "always allow" grants (SPEC G1, K3), for review: each names the server, the tool (its title
 * when the server gives one) and when it was granted, with a Revoke button named after both;
 * "Revoke all" forgets every grant. After a revocation the next agent call of that tool asks the
 * user again. Grants arrive from the worker through `grants`; server strings are text.
 */
import { ElementBase } from './element-base.js';
import type { GrantView } from '../protocol/panel-activity.js';
import { el, sheet } from './dom.js';
import { GrantsRequestEvent, RevokeGrantEvent } from './events.js';
import { t, uiLocale } from './i18n.js';
import { RefreshWhenShown } from './refresh-when-shown.js';

const css = sheet(`
h3 { margin: var(--space-3, 12px) 0 var(--space-1); font-size: var(--text-body); }
ul { list-style: none; margin: 0; padding: 0; }
li { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: var(--space-2); align-items: center; border-top: 1px solid var(--border); padding: var(--space-1) 0; }
.tool, .server { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tool { font-weight: 500; }
.server, .when { font-size: var(--text-small, 12px); }
li button { grid-row: 1 / 4; grid-column: 2; }
.bar { display: flex; justify-content: flex-end; margin-top: var(--space-2); }
`);

export class McpApprovalGrantsElement extends ElementBase {
  #grants: GrantView[] | undefined;
  readonly #heading = el('h3', { id: 'grants-title' });
  readonly #intro = el('p', { class: 'muted' });
  readonly #list = el('ul', { 'aria-labelledby': 'grants-title' });
  readonly #status = el('p', { class: 'status muted', role: 'status' });
  readonly #revokeAll = el('button', { type: 'button', 'data-action': 'revoke-all', 'data-role': 'danger' });
  readonly #refresher = new RefreshWhenShown(this, 'grants', () => this.emit(new GrantsRequestEvent()));

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#revokeAll.addEventListener('click', () => {
      this.#revokeAll.disabled = true;
      this.emit(new RevokeGrantEvent());
    });
    root.append(
      el(
        'section',
        { 'aria-labelledby': 'grants-title' },
        this.#heading,
        this.#intro,
        this.#list,
        el('div', { class: 'bar' }, this.#revokeAll),
        this.#status,
      ),
    );
    this.update();
  }

  connectedCallback() {
    this.#refresher.connect();
  }

  disconnectedCallback() {
    this.#refresher.disconnect();
  }

  /** Newest first as the worker sends them; `undefined` until the first answer. */
  get grants(): GrantView[] | undefined {
    return this.#grants;
  }
  set grants(value: GrantView[] | undefined) {
    this.#grants = Array.isArray(value) ? value : undefined;
    this.requestUpdate();
  }

  /** A revocation the worker refused or could not do: said under the list. */
  showError(message: string) {
    this.#status.textContent = message;
    for (const b of this.shadowRoot!.querySelectorAll('button')) b.disabled = false;
  }

  protected override update() {
    this.#heading.textContent = t('grantsTitle');
    this.#revokeAll.textContent = t('grantsRevokeAll');
    const grants = this.#grants ?? [];
    this.#intro.textContent = t(grants.length ? 'grantsIntro' : 'grantsEmpty');
    this.#revokeAll.hidden = grants.length < 2;
    this.#revokeAll.disabled = false;
    this.#list.replaceChildren(...grants.map((g) => this.#row(g)));
  }

  #row(g: GrantView): HTMLLIElement {
    const tool = g.toolTitle ? `${g.toolTitle} (${g.tool})` : g.tool;
    const revoke = el(
      'button',
      { type: 'button', 'data-action': 'revoke', 'aria-label': t('grantsRevokeNamed', tool, g.serverName) },
      t('grantsRevoke'),
    );
    revoke.addEventListener('click', () => {
      revoke.disabled = true;
      this.emit(new RevokeGrantEvent({ serverId: g.serverId, tool: g.tool }));
    });
    const when = new Date(g.grantedAt);
    return el(
      'li',
      { 'data-server': g.serverId, 'data-tool': g.tool },
      el('span', { class: 'tool', title: tool }, tool),
      revoke,
      el('span', { class: 'server muted', title: g.serverName }, g.serverName),
      el(
        'time',
        { class: 'when muted', datetime: when.toISOString() },
        t('grantsWhen', when.toLocaleString(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' })),
      ),
    );
  }
}
