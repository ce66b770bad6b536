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

const css = sheet(`
input[type=search] { width: 100%; box-sizing: border-box; margin-bottom: var(--space-2); }
h2 { font-size: var(--text-small); font-weight: 600; color: var(--fg-muted); margin: var(--space-3) 0 var(--space-1);
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
ul { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); }
button.tool { display: flex; align-items: center; gap: var(--space-2); width: 100%; min-width: 0; border: 0; background: transparent; color: var(--fg);
  text-align: start; padding: 6px var(--space-2); font-weight: 400; }
.text { flex: 1; min-width: 0; }
.title, .desc { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.title { font-weight: 500; }
.desc { font-size: var(--text-small); color: var(--fg-muted); }
.icon { flex: none; color: var(--fg-muted); }
.empty { padding: var(--space-3) var(--space-2); }
`);

export class McpToolsViewElement extends ElementBase {
  #servers: ServerView[] = [];
  readonly #search = el('input', { type: 'search', 'aria-label': t('searchAllTools'), placeholder: t('searchAllTools') });
  readonly #groups = el('div');
  readonly #empty = el('p', { class: 'empty muted', hidden: true });

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

  protected override update() {
    const terms = queryTerms(this.#search.value);
    let total = 0;
    const groups: HTMLElement[] = [];
    for (const s of this.#servers) {
      if (s.status !== 'ready' || !s.enabled) continue;
      // A tool only its own view may call (MCP Apps `visibility: ["app"]`) is not offered to run.
      const tools = s.tools.filter((tool) => !s.disabledTools.includes(tool.name) && toolUi(tool).model);
      total += tools.length;
      const shown = tools.filter((tool) => matches(searchText(tool), terms));
      if (!shown.length) continue;
      groups.push(
        el('h2', { title: s.name }, s.name),
        el(
          'ul',
          { 'aria-label': t('toolsOf', s.name) },
          ...shown.map((tool) => {
            const title = tool.title ?? tool.annotations?.title ?? tool.name;
            return el(
              'li',
              {},
              el(
                'button',
                { type: 'button', class: 'tool', 'data-server': s.id, 'data-tool': tool.name, title },
                el(
                  'span',
                  { class: 'text' },
                  el('span', { class: 'title' }, title),
                  tool.description ? el('span', { class: 'desc' }, tool.description) : null,
                ),
                icon('chevron', 16),
              ),
            );
          }),
        ),
      );
    }
    // Keep the focused row when a push changes nothing it shows.
    const focused = this.shadowRoot!.activeElement as HTMLElement | null;
    const key = focused?.dataset['tool'] !== undefined ? [focused.dataset['server'], focused.dataset['tool']] : undefined;
    this.#groups.replaceChildren(...groups);
    if (key)
      [...this.#groups.querySelectorAll<HTMLElement>('button.tool')]
        .find((b) => b.dataset['server'] === key[0] && b.dataset['tool'] === key[1])
        ?.focus();
    this.#empty.hidden = groups.length > 0;
    this.#empty.textContent = total === 0 ? t('noReadyTools') : t('noToolsMatch');
  }
}
