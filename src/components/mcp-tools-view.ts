/**
 * The Tools view (docs/ui.md): every enabled tool of every ready server, grouped by server, with
 * one search over all of them. A row opens the tool's view. Server strings are text (SPEC K5).
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { NavigateEvent } from './events.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { matches, queryTerms, searchText } from './tool-filter.js';
import { ChunkedChildren, syncChildren } from './chunked-children.js';

const css = sheet(`
input[type=search] { width: 100%; box-sizing: border-box; margin-bottom: var(--space-2); }
h2 { font-size: var(--text-small); font-weight: 600; color: var(--fg-muted); margin: var(--space-3) 0 var(--space-1);
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
/* Block, not grid: a grid lays out every row again when rows are added or removed (measured: 60 rows
   attached to 1,000 cost ~3× more as grid). */
ul { list-style: none; margin: 0; padding: 0; }
/* A server's group out of view is neither laid out nor painted (its rows stay in the DOM and in the
   accessibility tree, findable and focusable: content-visibility "auto", not "hidden"); with 20
   servers × 500 tools, style, layout and paint of the 9,000 rows out of view were what every frame
   paid. Its size until first shown is estimated from its rows (update()). */
ul { content-visibility: auto; }
button.tool { display: flex; align-items: center; gap: var(--space-2); width: 100%; min-width: 0; border: 0; background: transparent; color: var(--fg);
  text-align: start; padding: 6px var(--space-2); font-weight: 400; }
.text { flex: 1; min-width: 0; }
.title, .desc { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.title { font-weight: 500; }
.desc { font-size: var(--text-small); color: var(--fg-muted); }
.icon { flex: none; color: var(--fg-muted); }
.empty { padding: var(--space-3) var(--space-2); }
`);

/** A row's height (a title and a description line, each one line): a group's size before it is first shown. */
const ROW_ESTIMATE_PX = 50;

/** Rows attached in the task that sets the data or the query: more than a tall panel shows. */
export const FIRST_CHUNK = 60;
/** Rows attached per later task, until every match is in. */
const CHUNK = 100;

interface Row {
  /** Built the first time the row is attached. */
  li: HTMLLIElement | undefined;
  serverId: string;
  tool: ServerView['tools'][number];
  text: string;
  /** JSON of the tool the row shows: a push with equal content keeps the row as it is. */
  key: string;
}

interface Group {
  h2: HTMLHeadingElement;
  ul: HTMLUListElement;
  name: string;
}

/** A server's group and its rows (all of them, or those that match), in catalog order. */
interface Wanted {
  group: Group;
  rows: Row[];
}

export class McpToolsViewElement extends ElementBase {
  #servers: ServerView[] = [];
  readonly #search = el('input', { type: 'search', 'aria-label': t('searchAllTools'), placeholder: t('searchAllTools') });
  readonly #groups = el('div');
  readonly #empty = el('p', { class: 'empty muted', hidden: true });
  /** Rows by server and tool name, reused across pushes and searches. */
  #rows = new Map<string, Row>();
  #groupEls = new Map<string, Group>();
  /** Every server's group and rows, derived from {@link #catalogOf}: a keystroke only filters it. */
  #catalog: Wanted[] = [];
  #catalogOf: ServerView[] | undefined;
  /** The focused row's button while an update may have detached it: focused again once it is back. */
  #refocus: HTMLElement | undefined;
  readonly #chunks = new ChunkedChildren(FIRST_CHUNK, CHUNK, (done) => {
    const focus = this.#refocus;
    if (focus?.isConnected && this.shadowRoot!.activeElement !== focus) focus.focus();
    if (done || focus?.isConnected) this.#refocus = undefined;
  });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    root.append(this.#search, this.#empty, this.#groups);
    this.#search.addEventListener('input', () => this.update());
    this.#groups.addEventListener('click', (e) => {
      const b = (e.target as Element).closest<HTMLElement>('button.tool');
      if (b?.dataset['server'] && b.dataset['tool'] !== undefined)
        this.emit(new NavigateEvent({ view: 'tool', serverId: b.dataset['server'], tool: b.dataset['tool'] }));
    });
  }

  get servers(): ServerView[] {
    return this.#servers;
  }
  set servers(value: ServerView[]) {
    this.#servers = value;
    this.requestUpdate();
  }

  connectedCallback() {
    this.requestUpdate();
  }

  disconnectedCallback() {
    this.#chunks.cancel();
  }

  /**
   * Rebuilds the rows from the servers when they changed (a push), then attaches the ones that
   * match: the first {@link FIRST_CHUNK} now, the rest in later tasks of {@link CHUNK}, so neither
   * a push nor a keystroke lays out 1,000 rows in one frame; a row's elements are built when it
   * is first attached. A keystroke only matches the prepared search texts and moves rows in and
   * out; rows still wanted stay attached where they are (see chunked-children.ts).
   */
  protected override update() {
    if (this.#catalogOf !== this.#servers) this.#derive();
    const terms = queryTerms(this.#search.value);
    const want: Wanted[] = [];
    for (const { group, rows } of this.#catalog) {
      const shown = rows.filter((row) => matches(row.text, terms));
      if (!shown.length) continue;
      // "auto": once shown, the group's last real size is kept instead of the estimate.
      group.ul.style.containIntrinsicBlockSize = `auto ${shown.length * ROW_ESTIMATE_PX}px`;
      want.push({ group, rows: shown });
    }
    const focused = this.shadowRoot!.activeElement;
    if (focused instanceof HTMLElement && focused.classList.contains('tool')) this.#refocus = focused;
    syncChildren(
      this.#groups,
      want.flatMap(({ group }) => [group.h2, group.ul]),
    );
    this.#chunks.show(
      want.map(({ group, rows }) => ({
        parent: group.ul,
        length: rows.length,
        at: (i: number) => this.#li(rows[i]!),
        built: (i: number) => rows[i]!.li,
      })),
    );
    this.#empty.hidden = want.length > 0;
    this.#empty.textContent = this.#rows.size === 0 ? t('noReadyTools') : t('noToolsMatch');
  }

  /** Every enabled tool of every ready server as a row, grouped by server; unchanged tools keep their row. */
  #derive() {
    const rows = new Map<string, Row>();
    const groups = new Map<string, Group>();
    const catalog: Wanted[] = [];
    for (const s of this.#servers) {
      if (s.status !== 'ready' || !s.enabled) continue;
      const off = new Set(s.disabledTools);
      const own: Row[] = [];
      for (const tool of s.tools) {
        // A tool only its own view may call (MCP Apps `visibility: ["app"]`) is not offered to run.
        if (off.has(tool.name) || !toolUi(tool).model) continue;
        const id = `${s.id}\n${tool.name}`;
        if (rows.has(id)) continue;
        const key = JSON.stringify([tool.name, tool.title, tool.annotations?.title, tool.description]);
        let row = this.#rows.get(id);
        if (row?.key !== key) row = { li: undefined, serverId: s.id, tool, key, text: searchText(tool) };
        rows.set(id, row);
        own.push(row);
      }
      if (!own.length) continue;
      let group = this.#groupEls.get(s.id);
      if (!group) group = { h2: el('h2'), ul: el('ul'), name: '' };
      if (group.name !== s.name) {
        group.name = s.name;
        group.h2.textContent = s.name;
        group.h2.title = s.name;
        group.ul.setAttribute('aria-label', t('toolsOf', s.name));
      }
      groups.set(s.id, group);
      catalog.push({ group, rows: own });
    }
    this.#rows = rows;
    this.#groupEls = groups;
    this.#catalog = catalog;
    this.#catalogOf = this.#servers;
  }

  #li(row: Row): HTMLLIElement {
    if (row.li) return row.li;
    const { tool } = row;
    const title = tool.title ?? tool.annotations?.title ?? tool.name;
    row.li = el(
      'li',
      {},
      el(
        'button',
        { type: 'button', class: 'tool', 'data-server': row.serverId, 'data-tool': tool.name, title },
        el(
          'span',
          { class: 'text' },
          el('span', { class: 'title' }, title),
          tool.description ? el('span', { class: 'desc' }, tool.description) : null,
        ),
        icon('chevron', 16),
      ),
    );
    return row.li;
  }
}
