/**
 * The panel's view router (docs/ui.md). Each view is a `<section data-view>` of sidepanel.html;
 * one shows at a time. A header tab replaces the stack; a row, a tool name or a button pushes a
 * view; Back pops it and puts the focus back on the control that opened it. Pushed views get a
 * Back bar. The top-level view is kept for the next time the panel opens (a chat left mid-run is
 * where the user comes back to); pushed views are not.
 */
import { el } from '../components/dom.js';
import { NavigateEvent, type ViewTarget } from '../components/events.js';
import { t } from '../components/i18n.js';
import { icon } from '../components/icons.js';
import type { McpAppHeaderElement, TopView } from '../components/mcp-app-header.js';
import type { MessageKey } from '../i18n/en.js';

type Shown = Exclude<ViewTarget, { view: 'back' }>;
export type ViewName = Shown['view'];

const TOP_LABEL: Partial<Record<string, MessageKey>> = {
  servers: 'viewServers',
  tools: 'viewTools',
  chat: 'viewChat',
  activity: 'viewActivity',
};
const TOP: readonly string[] = Object.keys(TOP_LABEL);
/** localStorage key of the last top-level view: a UI preference, nothing secret. */
const LAST_VIEW = 'panel-view';
/** A pushed view whose element has no heading of its own gets one in its bar. */
const VIEW_TITLE: Partial<Record<string, MessageKey>> = { add: 'addServer', directory: 'directoryTitle' };

export interface ViewsDeps {
  header: McpAppHeaderElement;
  /** Called before a view shows, to fill it for its target (a server's detail, a tool). */
  prepare(target: Shown): void;
  /** What takes the focus when a view is pushed (its heading); the Back button when undefined. */
  focusTarget(view: ViewName): HTMLElement | undefined;
}

export interface Views {
  readonly current: Shown;
  show(target: ViewTarget): void;
  /** Leaves every view for the top-level one (a deleted server's detail); `focus` then takes the focus. */
  reset(view: TopView, focus?: () => HTMLElement | undefined): void;
  /** Shows `target` in place of the pushed view on top (Add → the added server); Back returns to its opener. */
  replace(target: Shown): void;
}

/** Where the focus goes back to: the control that opened a view, or its twin after a re-render. */
interface Opener {
  element: HTMLElement;
  root: Node;
  selector: string | undefined;
}

/** Notes how to find the opener again: a list re-rendered by a state push replaces its buttons. */
function openerOf(element: HTMLElement | null): Opener | null {
  if (!element) return null;
  const keys = ['data-server', 'data-tool', 'data-action', 'data-open', 'server-id'].filter((k) => element.hasAttribute(k));
  const selector = keys.length
    ? element.localName + keys.map((k) => `[${k}="${CSS.escape(element.getAttribute(k)!)}"]`).join('')
    : undefined;
  return { element, root: element.getRootNode(), selector };
}

function findOpener(o: Opener | null): HTMLElement | null {
  if (!o || o.element.isConnected) return o?.element ?? null;
  const root = o.root as ParentNode;
  return (o.selector && typeof root.querySelector === 'function' ? root.querySelector<HTMLElement>(o.selector) : null) ?? null;
}

/** The element that really has the focus, through shadow roots. */
function deepActive(): HTMLElement | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a instanceof HTMLElement ? a : null;
}

/** Marks the top-level sections as tab panels and gives every pushed one its Back bar. */
function prepareSections(sections: Map<string, HTMLElement>, back: () => void): Map<string, HTMLButtonElement> {
  const backs = new Map<string, HTMLButtonElement>();
  for (const [name, section] of sections) {
    const label = TOP_LABEL[name];
    if (label) {
      section.setAttribute('role', 'tabpanel');
      section.setAttribute('aria-label', t(label));
      continue;
    }
    const button = el(
      'button',
      { type: 'button', class: 'back', 'data-role': 'quiet', 'data-action': 'back' },
      icon('back', 16),
      t('back'),
    );
    button.addEventListener('click', back);
    backs.set(name, button);
    const title = VIEW_TITLE[name];
    section.prepend(el('div', { class: 'view-bar' }, button, title ? el('h2', {}, t(title)) : null));
  }
  return backs;
}

/** The stack of views shown: a top-level view under the pushed ones, each with its opener. */
class ViewStack implements Views {
  readonly #deps: ViewsDeps;
  readonly #sections = new Map([...document.querySelectorAll<HTMLElement>('section[data-view]')].map((s) => [s.dataset['view']!, s]));
  readonly #backs: Map<string, HTMLButtonElement>;
  readonly #stack: { target: Shown; opener: Opener | null }[];

  constructor(deps: ViewsDeps) {
    this.#deps = deps;
    this.#backs = prepareSections(this.#sections, () => this.show({ view: 'back' }));
    const last = localStorage.getItem(LAST_VIEW);
    const first = (last && TOP.includes(last) ? last : 'servers') as TopView;
    this.#stack = [{ target: { view: first }, opener: null }];
  }

  get current(): Shown {
    return this.#stack.at(-1)!.target;
  }

  /** Views pushed over the top-level one. */
  get depth(): number {
    return this.#stack.length - 1;
  }

  show(target: ViewTarget) {
    if (target.view === 'back') {
      if (this.#stack.length === 1) return;
      const { opener } = this.#stack.pop()!;
      this.render(findOpener(opener) ?? undefined);
      return;
    }
    if (TOP.includes(target.view)) {
      this.#stack.splice(0, this.#stack.length, { target, opener: null });
      localStorage.setItem(LAST_VIEW, target.view);
      this.render(null);
      return;
    }
    this.#stack.push({ target, opener: openerOf(deepActive()) });
    this.render('view');
  }

  reset(view: TopView, focus?: () => HTMLElement | undefined) {
    this.#stack.splice(0, this.#stack.length, { target: { view }, opener: null });
    this.render(null);
    // Rendered first, so the element that takes the focus is the one now shown (never <body>).
    if (focus) (focus() ?? this.#deps.header).focus();
  }

  replace(target: Shown) {
    if (this.#stack.length === 1) return this.show(target);
    const { opener } = this.#stack.pop()!;
    this.#stack.push({ target, opener });
    this.render('view');
  }

  /**
   * Shows the top of the stack. The focus goes to the pushed view (`'view'`), back to an opener,
   * to the header (undefined: the opener is gone), or is left where it is (null: a tab, a reset).
   */
  render(focus: 'view' | HTMLElement | null | undefined) {
    const { target } = this.#stack.at(-1)!;
    this.#deps.prepare(target);
    for (const [name, section] of this.#sections) section.hidden = name !== target.view;
    this.#deps.header.select(this.#stack[0]!.target.view as TopView);
    if (focus === 'view') (this.#deps.focusTarget(target.view) ?? this.#backs.get(target.view))?.focus();
    else if (focus?.isConnected) focus.focus();
    else if (focus !== null) this.#deps.header.focus();
    scrollTo(0, 0);
  }
}

export function setUpViews(deps: ViewsDeps): Views {
  const views = new ViewStack(deps);
  document.addEventListener(NavigateEvent.type, (e) => views.show(e.to));
  // Escape in a pushed view goes back, unless something inside used it (a search clearing itself).
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented && views.depth > 0 && !(deepActive() instanceof HTMLInputElement))
      views.show({ view: 'back' });
  });
  views.render(null);
  return views;
}
