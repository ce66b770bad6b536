/**
 * The head of a tool's view (docs/ui.md): its title, name, server, description and the
 * annotations in words (the server's claims, never verified), and why it cannot run when its
 * server is not ready or the tool is switched off. The runner sits beside it in the view.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { t } from './i18n.js';
import { annotationHints } from './tool-filter.js';

const css = sheet(`
h2 { font-size: var(--text-heading); margin: 0; overflow-wrap: anywhere; }
.meta { font-size: var(--text-small); display: flex; gap: var(--space-2); min-width: 0; margin-top: 2px; }
.meta span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.mono { font-family: ui-monospace, monospace; }
.desc { margin: var(--space-2) 0 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; }
.hints { font-size: var(--text-small); margin: var(--space-2) 0 0; }
.note { margin: var(--space-2) 0 0; padding: var(--space-1) var(--space-2); border-radius: var(--radius); background: var(--warn-soft); color: var(--fg); }
`);

export class McpToolViewElement extends ElementBase {
  #server: ServerView | undefined;
  #tool = '';
  readonly #title = el('h2', { tabindex: '-1' });
  readonly #name = el('span', { class: 'mono muted' });
  readonly #from = el('span', { class: 'muted' });
  readonly #desc = el('p', { class: 'desc' });
  readonly #hints = el('p', { class: 'hints muted' });
  readonly #note = el('p', { class: 'note' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    root.append(this.#title, el('div', { class: 'meta' }, this.#name, this.#from), this.#desc, this.#hints, this.#note);
  }

  /** The tool shown: its server's current view and the tool's name. */
  show(server: ServerView | undefined, tool: string) {
    this.#server = server;
    this.#tool = tool;
    this.requestUpdate();
  }

  override focus() {
    this.#title.focus();
  }

  protected override update() {
    const s = this.#server;
    const tool = s?.tools.find((x) => x.name === this.#tool);
    const title = tool?.title ?? tool?.annotations?.title ?? this.#tool;
    this.#title.textContent = title;
    this.#name.textContent = title !== this.#tool ? this.#tool : '';
    this.#name.title = this.#tool;
    this.#from.textContent = s ? t('toolFromServer', s.name) : '';
    this.#from.title = s?.name ?? '';
    this.#desc.textContent = tool?.description ?? '';
    this.#desc.hidden = !tool?.description;
    const hints = annotationHints(tool?.annotations);
    this.#hints.hidden = hints.length === 0;
    this.#hints.textContent = hints.length ? `${t('hintsUntrusted')}: ${hints.map((k) => t(k)).join(', ')}` : '';
    const note = !s || s.status !== 'ready' ? t('toolServerNotReady') : s.disabledTools.includes(this.#tool) ? t('toolIsOff') : '';
    this.#note.hidden = !note;
    this.#note.textContent = note;
  }
}
