/**
 * Definitions that changed since they were pinned, and new tools held for review (SPEC S2), at
 * the top of a server's Tools section: per item a heading, what the change means for approvals,
 * the behaviour hints that changed in words, and the old (−) / new (+) definition as a compact
 * line diff — all server text set as text, bounded by the worker. Buttons: *Accept the new
 * definition* and, for a changed tool, *Keep disabled*. Below, the server's "review new tools"
 * switch. Emits {@link DefinitionDecisionEvent} and {@link ReviewNewToolsEvent}.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import type { DefinitionChange } from '../protocol/panel-pins.js';
import { el, sheet } from './dom.js';
import { t } from './i18n.js';
import { diffLineText, hintChangeKeys, type DiffView } from './definition-words.js';

const css = sheet(`
:host { display: block; }
h4 { margin: var(--space-2) 0 var(--space-1); font-size: var(--text-body); color: var(--danger); }
article { border: 2px solid var(--danger); border-radius: var(--radius); padding: var(--space-2); margin: 0 0 var(--space-2); min-width: 0; }
article[data-category="prompts"], article[data-category="resources"] { border-color: var(--border); }
article h5 { margin: 0; font-size: var(--text-body); overflow-wrap: anywhere; }
p { margin: var(--space-1) 0; font-size: var(--text-small); overflow-wrap: anywhere; }
ul.hints { margin: var(--space-1) 0; padding-inline-start: 18px; font-size: var(--text-small); }
ul.hints li { overflow-wrap: anywhere; }
pre { margin: var(--space-1) 0; padding: 6px; background: var(--bg-raised); border-radius: 4px; max-height: 260px; overflow: auto;
  white-space: pre-wrap; overflow-wrap: anywhere; font-size: 11px; line-height: 1.45; }
pre span { display: block; padding-inline-start: 2ch; text-indent: -2ch; }
pre [data-op="-"] { background: var(--danger-soft); color: var(--fg); }
pre [data-op="+"] { background: var(--ok-soft); color: var(--fg); }
pre [data-op="…"] { color: var(--fg-muted); font-style: italic; }
.actions { display: flex; flex-wrap: wrap; gap: var(--space-2); margin-top: var(--space-2); }
.review { display: flex; gap: var(--space-2); align-items: flex-start; font-size: var(--text-small); margin: var(--space-1) 0 var(--space-2); }
.review input { margin: 2px 0 0; flex: none; }
.error:empty { display: none; }
.error { color: var(--danger); font-size: var(--text-small); overflow-wrap: anywhere; }
`);

/** The user's answer to one changed definition. */
export class DefinitionDecisionEvent extends Event {
  static readonly type = 'mcp-definition-decision';
  constructor(
    readonly serverId: string,
    readonly category: DefinitionChange['category'],
    readonly name: string,
    readonly decision: 'accept' | 'keep-disabled',
  ) {
    super(DefinitionDecisionEvent.type, { bubbles: true, composed: true });
  }
}

/** The server's "review new tools" switch. */
export class ReviewNewToolsEvent extends Event {
  static readonly type = 'mcp-review-new-tools';
  constructor(
    readonly serverId: string,
    readonly review: boolean,
  ) {
    super(ReviewNewToolsEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'mcp-definition-decision': DefinitionDecisionEvent;
    'mcp-review-new-tools': ReviewNewToolsEvent;
  }
  interface DocumentEventMap {
    'mcp-definition-decision': DefinitionDecisionEvent;
    'mcp-review-new-tools': ReviewNewToolsEvent;
  }
}

const HEADINGS = {
  tools: { changed: 'definitionToolChanged', new: 'definitionToolNew' },
  prompts: { changed: 'definitionPromptChanged', new: 'definitionPromptChanged' },
  resources: { changed: 'definitionResourceChanged', new: 'definitionResourceChanged' },
} as const;

/** What the change means for the user: suspended grant, held, or only noted. */
function meaningOf(c: DefinitionChange): string {
  if (c.category !== 'tools') return t('definitionNotedOnly');
  if (c.kind === 'new') return t('definitionNewHeld');
  return t(c.held ? 'definitionHeld' : 'definitionSuspended');
}

function diffView(lines: DiffView): HTMLPreElement {
  return el(
    'pre',
    { 'aria-label': t('definitionDiffLabel'), tabindex: '0' },
    ...lines.map((line) =>
      el(
        'span',
        { 'data-op': line.op },
        diffLineText(line, (n) => t('definitionLinesFolded', n)),
      ),
    ),
  );
}

export class McpDefinitionChangesElement extends ElementBase {
  #server: ServerView | undefined;
  readonly #heading = el('h4');
  readonly #list = el('div');
  readonly #error = el('p', { class: 'error', role: 'alert' });
  readonly #review = el('input', { type: 'checkbox', 'data-review-new-tools': '' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const label = el('label', { class: 'review' }, this.#review, el('span', {}, t('reviewNewTools')));
    this.#review.addEventListener('change', () => {
      if (this.#server) this.dispatchEvent(new ReviewNewToolsEvent(this.#server.id, this.#review.checked));
    });
    root.append(this.#heading, this.#list, this.#error, label);
  }

  set server(value: ServerView | undefined) {
    if (value?.id !== this.#server?.id) this.#error.textContent = '';
    this.#server = value;
    this.requestUpdate();
  }

  /** A refused answer, said where the buttons are. */
  showError(message: string) {
    this.#error.textContent = message;
    for (const b of this.#list.querySelectorAll('button')) b.disabled = false;
  }

  protected override update() {
    const s = this.#server;
    if (!s) return;
    const changes = s.changes ?? [];
    this.#heading.hidden = changes.length === 0;
    this.#heading.textContent = t('definitionChangesTitle', String(changes.length));
    this.#list.replaceChildren(...changes.map((c) => this.#article(s.id, c)));
    this.#review.checked = s.reviewNewTools === true;
  }

  #article(serverId: string, c: DefinitionChange): HTMLElement {
    const hints = hintChangeKeys(c.hints);
    return el(
      'article',
      { 'data-category': c.category, 'data-name': c.name, 'data-kind': c.kind },
      el('h5', {}, t(HEADINGS[c.category][c.kind], c.name)),
      el('p', { class: 'meaning', 'data-meaning': '' }, meaningOf(c)),
      hints.length ? el('ul', { class: 'hints' }, ...hints.map((h) => el('li', {}, t(h.key, ...h.subs.map((k) => t(k)))))) : null,
      hints.length ? el('p', { class: 'muted' }, t('definitionHintsNote')) : null,
      c.oldTextMissing ? el('p', { class: 'muted' }, t('definitionOldMissing')) : null,
      c.lines.length ? diffView(c.lines) : null,
      this.#actions(serverId, c),
    );
  }

  #actions(serverId: string, c: DefinitionChange): HTMLElement {
    const button = (decision: 'accept' | 'keep-disabled', label: string) => {
      const b = el('button', { type: 'button', 'data-decision': decision }, label);
      b.addEventListener('click', () => {
        this.#error.textContent = '';
        for (const other of this.#list.querySelectorAll('button')) other.disabled = true;
        this.dispatchEvent(new DefinitionDecisionEvent(serverId, c.category, c.name, decision));
      });
      return b;
    };
    const keep = c.category === 'tools' && c.kind === 'changed' && !c.held;
    return el(
      'div',
      { class: 'actions' },
      button('accept', t(c.kind === 'new' ? 'definitionAcceptNew' : 'definitionAccept')),
      keep ? button('keep-disabled', t('definitionKeepDisabled')) : null,
    );
  }
}
