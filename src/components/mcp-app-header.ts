/**
 * The panel's header: the four top-level views as a tablist (icon and a short label), the open
 * one `aria-selected`. Arrow keys move between tabs, as a tablist should; a click or Enter opens
 * the view through a NavigateEvent, and the router calls `select` back.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { NavigateEvent } from './events.js';
import { t } from './i18n.js';
import { icon, type IconName } from './icons.js';
import type { MessageKey } from '../i18n/en.js';

export type TopView = 'servers' | 'tools' | 'chat' | 'activity';

const TABS: { view: TopView; icon: IconName; label: MessageKey }[] = [
  { view: 'servers', icon: 'servers', label: 'viewServers' },
  { view: 'tools', icon: 'tools', label: 'viewTools' },
  { view: 'chat', icon: 'chat', label: 'viewChat' },
  { view: 'activity', icon: 'activity', label: 'viewActivity' },
];

const css = sheet(`
:host { background: var(--bg); border-bottom: 1px solid var(--border); }
[role="tablist"] { display: flex; gap: 0; padding: var(--space-1) var(--space-1) 0; }
[role="tab"] { flex: 1 1 auto; min-width: 0; display: flex; align-items: center; justify-content: center; gap: var(--space-1);
  border: 0; border-bottom: 2px solid transparent; border-radius: var(--radius) var(--radius) 0 0; background: transparent;
  color: var(--fg-muted); padding: 6px 2px; font-size: var(--text-small); }
[role="tab"] span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
[role="tab"][aria-selected="true"] { color: var(--accent); border-bottom-color: var(--accent); font-weight: 600; }
.icon { flex: none; }
`);

export class McpAppHeaderElement extends ElementBase {
  readonly #tabs = TABS.map(({ view, icon: name, label }) => {
    const b = el('button', { type: 'button', role: 'tab', 'data-view': view, 'aria-selected': 'false', tabindex: '-1', title: t(label) });
    b.append(icon(name, 16), el('span', {}, t(label)));
    b.addEventListener('click', () => this.emit(new NavigateEvent({ view })));
    return b;
  });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const list = el('div', { role: 'tablist', 'aria-label': t('views') }, ...this.#tabs);
    list.addEventListener('keydown', (e) => {
      const i = this.#tabs.indexOf(e.target as HTMLButtonElement);
      if (i < 0) return;
      const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? -1 : undefined;
      if (next === undefined) return;
      e.preventDefault();
      this.#tabs.at(next % this.#tabs.length)!.focus();
    });
    root.append(list);
    this.select('servers');
  }

  /** Marks the tab of the view shown (a pushed view keeps its top-level tab marked). */
  select(view: TopView) {
    for (const b of this.#tabs) {
      const on = b.dataset['view'] === view;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
  }

  /** Focuses the selected tab (where the router puts the focus when nothing better is left). */
  override focus() {
    this.#tabs.find((b) => b.tabIndex === 0)?.focus();
  }
}
