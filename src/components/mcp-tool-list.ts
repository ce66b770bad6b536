/**
 * Per-tool toggles for one server (SPEC K2): search, bulk enable/disable (all or the shown
 * ones), and for each tool its title, description, annotation hints and input schema on demand.
 *
 * A tool's name opens the tool's own view. Controls are named with the server (`server-name`)
 * and the tool ("Search tools of Demo", "echo enabled"), never with a description.
 *
 * Built for catalogs of a thousand tools: a row is created once per tool name and reused across
 * state pushes, a search only detaches and re-attaches those rows, and the input schema is turned into text only when
 * its <details> is opened. Rows are plain boxes (no `content-visibility`), so every attached row is
 * in the accessibility tree. Everything from the server is text (SPEC K5); annotations are shown
 * as the server's claims, never used for a decision.
 */
import { ElementBase } from './element-base.js';
import type { Tool } from '../protocol/mcp-shapes.js';
import { el, sheet } from './dom.js';
import { BulkToolToggleEvent, NavigateEvent, ToolToggleEvent } from './events.js';
import { t } from './i18n.js';
import { annotationHints, bulkDisabled, matches, queryTerms, searchText } from './tool-filter.js';

/** Rows attached per page of matches; bulk actions still apply to every match. */
export const PAGE_SIZE = 100;

const css = sheet(`
.bar { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-2); align-items: center; margin: var(--space-1) 0; }
input[type=search] { flex: 1 1 140px; min-width: 0; }
.bar button { padding: 2px var(--space-2); font-size: var(--text-small); }
.count { font-size: var(--text-small); }
ul { list-style: none; padding: 0; margin: 0; max-height: 420px; overflow: auto; border: 1px solid var(--border); border-radius: var(--radius); }
ul:empty { display: none; }
li { padding: var(--space-1) var(--space-2); border-top: 1px solid var(--border); min-width: 0; }
li:first-child { border-top: 0; }
.head { display: flex; gap: var(--space-2); align-items: center; min-width: 0; }
.head input { flex: none; margin: 0; }
.name { flex: 0 1 auto; min-width: 0; border: 0; background: transparent; padding: 0; color: var(--accent); font-weight: 600; text-align: start;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.name:hover { background: transparent; text-decoration: underline; }
.id { flex: 1 1 0; min-width: 0; font-family: ui-monospace, monospace; font-size: 11px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.desc { font-size: var(--text-small); margin: 2px 0 0 22px; overflow-wrap: anywhere; white-space: pre-wrap; max-height: 4.2em; overflow: hidden; }
.chips { margin: 2px 0 0 22px; display: flex; flex-wrap: wrap; gap: var(--space-1); }
.chip { font-size: 11px; border: 1px solid var(--border); border-radius: var(--radius-pill); padding: 0 6px; color: var(--fg-muted); }
details { margin: 2px 0 0 22px; font-size: var(--text-small); }
summary { cursor: pointer; color: var(--fg-muted); }
pre { margin: var(--space-1) 0; padding: 6px; background: var(--bg-raised); border-radius: 4px; max-height: 240px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.error:empty { display: none; }
.error { font-size: var(--text-small); margin: var(--space-1) 0; overflow-wrap: anywhere; }
`);

interface Row {
  li: HTMLLIElement;
  box: HTMLInputElement;
  name: HTMLButtonElement;
  id: HTMLElement;
  desc: HTMLElement;
  chips: HTMLElement;
  pre: HTMLPreElement;
  details: HTMLDetailsElement;
  tool: Tool;
  text: string;
  /** JSON of the tool last rendered: a push with equal content touches no DOM. */
  key: string;
}

export class McpToolListElement extends ElementBase {
  #tools: Tool[] = [];
  #disabled: string[] = [];
  #rows = new Map<string, Row>();
  #order: string[] = [];
  #shown: string[] = [];
  /** How many matching rows are attached; reset to one page whenever the query changes. */
  #limit = PAGE_SIZE;
  readonly #search = el('input', { type: 'search', 'aria-label': t('searchTools'), placeholder: t('searchTools') });
  readonly #count = el('span', { class: 'count muted', 'aria-live': 'polite' });
  readonly #list = el('ul');
  readonly #empty = el('p', { class: 'muted', hidden: true }, t('noToolsMatch'));
  readonly #more = el('button', { type: 'button', 'data-more': '', hidden: true });
  /** Why the last toggle was refused, where the toggle was. */
  readonly #error = el('p', { class: 'error', role: 'alert' });
  readonly #shownButtons: HTMLButtonElement[];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const bulk = (label: string, action: string, enable: boolean, shownOnly: boolean) => {
      const b = el('button', { type: 'button', 'data-bulk': action }, label);
      b.addEventListener('click', () => this.#bulk(enable, shownOnly));
      return b;
    };
    this.#shownButtons = [bulk(t('enableShown'), 'enable-shown', true, true), bulk(t('disableShown'), 'disable-shown', false, true)];
    this.#search.addEventListener('input', () => this.#newQuery());
    this.#more.addEventListener('click', () => {
      this.#limit += PAGE_SIZE;
      this.#applyFilter();
    });
    this.#search.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.#search.value) {
        this.#search.value = '';
        this.#newQuery();
        e.stopPropagation();
      }
    });
    this.#list.addEventListener('change', (e) => {
      const box = e.target as HTMLInputElement;
      const name = box.dataset['tool'];
      if (name === undefined) return;
      this.#disabled = box.checked ? this.#disabled.filter((n) => n !== name) : [...this.#disabled, name];
      this.#error.textContent = '';
      this.emit(new ToolToggleEvent(this.serverId, name, box.checked));
    });
    root.append(
      el('div', { class: 'bar' }, this.#search, this.#count),
      el(
        'div',
        { class: 'bar', role: 'group', 'aria-label': t('bulkActions') },
        bulk(t('enableAll'), 'enable-all', true, false),
        bulk(t('disableAll'), 'disable-all', false, false),
        ...this.#shownButtons,
      ),
      this.#error,
      this.#list,
      this.#more,
      this.#empty,
    );
    this.#list.addEventListener('click', (e) => {
      const name = (e.target as Element).closest<HTMLElement>('button.name')?.dataset['tool'];
      if (name !== undefined) this.emit(new NavigateEvent({ view: 'tool', serverId: this.serverId, tool: name }));
    });
  }

  static get observedAttributes() {
    return ['server-name'];
  }

  attributeChangedCallback() {
    this.requestUpdate();
  }

  /** The worker refused a toggle: say why above the list. An empty message clears it. */
  showError(message: string) {
    this.#error.textContent = message;
  }

  #newQuery() {
    this.#limit = PAGE_SIZE;
    this.#applyFilter();
  }

  /** The server the tools belong to; carried by the events. */
  get serverId(): string {
    return this.getAttribute('server-id') ?? '';
  }

  get tools(): Tool[] {
    return this.#tools;
  }
  set tools(value: Tool[]) {
    this.#tools = Array.isArray(value) ? value : [];
    this.requestUpdate();
  }

  get disabledTools(): string[] {
    return this.#disabled;
  }
  set disabledTools(value: string[]) {
    this.#disabled = Array.isArray(value) ? [...value] : [];
    this.requestUpdate();
  }

  /** The current search text; setting it filters as typing would. */
  get query(): string {
    return this.#search.value;
  }
  set query(value: string) {
    this.#search.value = value;
    this.#newQuery();
  }

  /** Names of the tools the search currently shows, in catalog order. */
  get shownTools(): string[] {
    return [...this.#shown];
  }

  connectedCallback() {
    this.requestUpdate();
  }

  #bulk(enable: boolean, shownOnly: boolean) {
    const scope = shownOnly ? this.shownTools : this.#order;
    this.#disabled = bulkDisabled(this.#disabled, scope, enable);
    this.#syncChecks();
    this.emit(new BulkToolToggleEvent(this.serverId, this.#disabled));
  }

  protected override update() {
    const server = this.getAttribute('server-name');
    const label = server ? t('searchToolsOf', server) : t('searchTools');
    this.#search.setAttribute('aria-label', label);
    const next = new Map<string, Row>();
    const order: string[] = [];
    for (const tool of this.#tools) {
      if (next.has(tool.name)) continue;
      const row = this.#rows.get(tool.name) ?? this.#newRow(tool.name);
      if (row.tool !== tool) {
        const key = JSON.stringify(tool);
        if (key !== row.key) this.#fill(row, tool, key);
        else row.tool = tool;
      }
      next.set(tool.name, row);
      order.push(tool.name);
    }
    this.#rows = next;
    this.#order = order;
    this.#syncChecks();
    this.#applyFilter();
  }

  #syncChecks() {
    const off = new Set(this.#disabled);
    for (const [name, row] of this.#rows) row.box.checked = !off.has(name);
  }

  /**
   * Rows that do not match are detached rather than hidden: measured in Chromium with 1,000
   * rows, toggling `hidden` on hundreds of rows costs seconds of
   * style and layout, while re-appending the same (reused) row elements costs milliseconds.
   * At most one page of matches is attached at a time (more on request): swapping the whole
   * 1,000-row set on a keystroke cost ~130 ms in the bench, far over one frame (K2).
   */
  #applyFilter() {
    const terms = queryTerms(this.#search.value);
    const shown = this.#order.filter((name) => matches(this.#rows.get(name)!.text, terms));
    const visible = shown.slice(0, this.#limit);
    const children = this.#list.children;
    const same = visible.length === children.length && visible.every((name, i) => children[i] === this.#rows.get(name)!.li);
    if (!same) this.#list.replaceChildren(...visible.map((name) => this.#rows.get(name)!.li));
    const remaining = shown.length - visible.length;
    this.#more.hidden = remaining <= 0;
    if (remaining > 0) this.#more.textContent = t('showMoreTools', String(Math.min(PAGE_SIZE, remaining)), String(remaining));
    this.#shown = shown;
    const filtering = terms.length > 0;
    for (const b of this.#shownButtons) b.hidden = !filtering;
    this.#count.textContent = t('toolsShown', String(shown.length), String(this.#rows.size));
    this.#empty.hidden = !(filtering && shown.length === 0);
  }

  #newRow(name: string): Row {
    const box = el('input', { type: 'checkbox', 'data-tool': name, 'aria-label': t('toolEnabled', name) });
    const nameEl = el('button', { type: 'button', class: 'name', 'data-tool': name });
    const id = el('span', { class: 'id muted' });
    const desc = el('div', { class: 'desc muted' });
    const chips = el('div', { class: 'chips', role: 'list', 'aria-label': t('hintsUntrusted'), title: t('hintsUntrusted') });
    const pre = el('pre', { tabindex: '0' });
    const details = el('details', {}, el('summary', {}, t('inputSchema')), pre);
    const row: Row = {
      li: el('li', {}, el('div', { class: 'head' }, box, nameEl, id), desc, chips, details),
      box,
      name: nameEl,
      id,
      desc,
      chips,
      pre,
      details,
      tool: { name, inputSchema: {} },
      text: '',
      key: '',
    };
    // The schema is only stringified when someone looks at it: 1,000 schemas up front are wasted work.
    details.addEventListener('toggle', () => {
      if (details.open) row.pre.textContent = JSON.stringify(row.tool.inputSchema, null, 2);
    });
    return row;
  }

  #fill(row: Row, tool: Tool, key: string) {
    row.tool = tool;
    row.key = key;
    row.text = searchText(tool);
    const title = tool.title ?? tool.annotations?.title;
    row.name.textContent = title ?? tool.name;
    row.name.title = title ?? tool.name;
    row.box.setAttribute('aria-label', t('toolEnabled', title ?? tool.name));
    row.id.title = tool.name;
    row.id.textContent = title && title !== tool.name ? tool.name : '';
    row.desc.textContent = tool.description ?? '';
    row.desc.hidden = !tool.description;
    const hints = annotationHints(tool.annotations);
    row.chips.replaceChildren(...hints.map((key) => el('span', { class: 'chip', role: 'listitem' }, t(key))));
    row.chips.hidden = hints.length === 0;
    if (row.details.open) row.pre.textContent = JSON.stringify(tool.inputSchema, null, 2);
    else row.pre.textContent = '';
  }
}
