/**
 * The composer (SPEC G2, G3, K4): type `/` for `server:prompt` entries (with a form for the
 * prompt's arguments) or `@` to search resources and resource templates by name or URI.
 * Choosing one asks the worker (a {@link ComposerRequestEvent}) for an untrusted ContextBlock;
 * the blocks are listed under the message, and the message object an agent engine would
 * receive is shown as JSON text. Matching and the message shape live in `composer-model.ts`.
 *
 * With the `chat` attribute it is the chat's input (section P): no JSON preview, Enter sends (a
 * {@link ComposerSendEvent}), Shift+Enter is a new line.
 *
 * The suggestion list is a listbox the caret never leaves (the text keeps the focus and points at
 * the highlighted option with `aria-activedescendant`): the arrow keys move the highlight, Enter or
 * Tab choose it, Esc closes the list. Each option shows the title (else the name) and the server's
 * name, never an internal id.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';
import { messageObject, promptArgumentSchema, suggestionsFor, triggerAt, type Suggestion, type Trigger } from './composer-model.js';
import { el, sheet } from './dom.js';
import { CompletionRequestEvent, ComposerRequestEvent } from './events.js';
import { withCompletion } from './completion-field.js';
import { expandTemplate, templateVariables } from './uri-template.js';
import { t } from './i18n.js';
import { ComposerSendEvent } from './chat-events.js';

const css = sheet(`
:host { display: grid; gap: 6px; }
textarea, input { padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
textarea.text { min-height: 3em; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; max-height: 14em; overflow: auto; }
li button { width: 100%; text-align: start; display: flex; justify-content: space-between; gap: var(--space-2, 8px); }
li button .server { color: var(--fg-muted, GrayText); font-size: 12px; flex: none; max-width: 45%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
li button .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
li[aria-selected="true"] button { outline: 2px solid var(--accent, Highlight); outline-offset: -2px; }
figure { margin: 0; border: 1px solid #8885; border-radius: 6px; padding: 4px 6px; }
figcaption { display: flex; justify-content: space-between; gap: 6px; font-weight: 600; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 14em; overflow: auto; margin: 4px 0 0; font-size: 12px; }
.chooser:empty, .status:empty, .blocks:empty, ul:empty { display: none; }
:host([chat]) .message-json, :host([chat]) .message-label { display: none; }
label.template-field { display: grid; gap: 2px; font-size: 12px; }
`);

export class McpComposerElement extends ElementBase {
  #servers: ServerView[] = [];
  #blocks: ContextBlockView[] = [];
  #trigger: Trigger | undefined;
  #found: Suggestion[] = [];
  #active = -1;
  readonly #text = el('textarea', {
    class: 'text',
    name: 'message',
    'aria-label': t('composer'),
    placeholder: t('composerHint'),
    'aria-autocomplete': 'list',
    'aria-controls': 'suggestions',
  });
  readonly #list = el('ul', { class: 'suggestions', id: 'suggestions', role: 'listbox', 'aria-label': t('composerSuggestions') });
  readonly #chooser = el('div', { class: 'chooser' });
  readonly #status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  readonly #blocksEl = el('div', { class: 'blocks', role: 'list', 'aria-label': t('composerBlocks') });
  readonly #message = el('pre', { class: 'message-json', 'aria-label': t('composerMessage') });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#text.addEventListener('input', () => {
      this.#suggest();
      this.#renderMessage();
    });
    this.#text.addEventListener('keydown', (e) => {
      const open = this.#found.length > 0;
      if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        const n = this.#found.length;
        this.#highlight((this.#active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
      } else if (open && (e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && !e.isComposing && this.#active >= 0) {
        e.preventDefault();
        this.#choose(this.#found[this.#active]!);
      } else if (e.key === 'Escape' && this.#list.firstElementChild) {
        e.preventDefault();
        this.#closeList();
      } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && this.hasAttribute('chat') && !this.#list.firstElementChild) {
        e.preventDefault();
        this.dispatchEvent(new ComposerSendEvent());
      }
    });
    root.append(
      this.#text,
      this.#list,
      this.#chooser,
      this.#status,
      this.#blocksEl,
      el('p', { class: 'muted message-label' }, t('composerMessage')),
      this.#message,
    );
    this.#renderMessage();
  }

  set servers(value: ServerView[]) {
    this.#servers = value;
    if (this.#trigger) this.#suggest();
  }
  get servers() {
    return this.#servers;
  }

  get blocks(): readonly ContextBlockView[] {
    return this.#blocks;
  }

  /** The typed text. */
  get text(): string {
    return this.#text.value;
  }

  /** Replaces the typed text (a draft someone else wrote: an MCP App view's message). */
  set text(value: string) {
    this.#text.value = value;
  }

  /** Empties the text and the attached blocks (after a send). */
  clear() {
    this.#text.value = '';
    this.#blocks = [];
    this.#closeList();
    this.#renderBlocks();
  }

  override focus() {
    this.#text.focus();
  }

  #closeList() {
    this.#trigger = undefined;
    this.#showList([]);
    this.#text.focus();
  }

  #highlight(index: number) {
    this.#active = index;
    const options = [...this.#list.querySelectorAll('li[role="option"]')];
    options.forEach((li, i) => li.setAttribute('aria-selected', String(i === index)));
    const current = options[index];
    if (current) {
      this.#text.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else this.#text.removeAttribute('aria-activedescendant');
  }

  /** Shows the options (the first highlighted), "no match" for an open trigger without any, or nothing. */
  #showList(found: Suggestion[], noMatch = false) {
    this.#found = found;
    this.#list.replaceChildren(
      ...found.map((s, i) => {
        const b = el(
          'button',
          { type: 'button', tabindex: '-1', 'data-kind': s.kind },
          el('span', { class: 'label' }, s.label),
          el('span', { class: 'server' }, s.serverName),
        );
        b.title = [s.kind === 'resource' ? s.uri : s.kind === 'template' ? s.uriTemplate : '', s.description].filter(Boolean).join('\n');
        b.addEventListener('click', () => this.#choose(s));
        b.addEventListener('mousedown', (e) => e.preventDefault()); // the text keeps the focus
        return el('li', { role: 'option', id: `suggestion-${i}`, 'aria-selected': 'false' }, b);
      }),
      ...(noMatch && !found.length ? [el('li', { class: 'muted no-match' }, t('composerNoMatch'))] : []),
    );
    this.#highlight(found.length ? 0 : -1);
  }

  /** A block the worker built for the last request. */
  addBlock(block: ContextBlockView) {
    this.#blocks = [...this.#blocks, block];
    this.#status.textContent = '';
    this.#status.className = 'status';
    this.#renderBlocks();
  }

  showError(message: string) {
    this.#status.textContent = message;
    this.#status.className = 'status error';
  }

  #suggest() {
    const trigger = triggerAt(this.#text.value, this.#text.selectionStart ?? this.#text.value.length);
    this.#trigger = trigger;
    this.#showList(trigger ? suggestionsFor(trigger, this.#servers) : [], !!trigger);
  }

  /** Removes the `/…` or `@…` token that led to the choice. */
  #consumeTrigger() {
    const tr = this.#trigger;
    if (!tr) return;
    const v = this.#text.value;
    this.#text.value = v.slice(0, tr.start) + v.slice(tr.end);
    this.#trigger = undefined;
    this.#showList([]);
    this.#renderMessage();
  }

  #choose(s: Suggestion) {
    this.#consumeTrigger();
    if (s.kind === 'resource') return this.#request({ kind: 'resource', serverId: s.serverId, uri: s.uri });
    const attach = el('button', { type: 'button', class: 'attach' }, t('composerAttach'));
    const cancel = el('button', { type: 'button', class: 'cancel' }, t('cancel'));
    cancel.addEventListener('click', () => this.#chooser.replaceChildren());
    if (s.kind === 'template') {
      const uri = el('input', { name: 'uri', 'aria-label': s.label });
      uri.value = s.uriTemplate;
      attach.addEventListener('click', () => this.#request({ kind: 'resource', serverId: s.serverId, uri: uri.value.trim() }));
      const fields = this.#templateFields(s, uri);
      this.#chooser.replaceChildren(el('p', {}, `${s.label} · ${s.serverName}`), ...fields, uri, attach, cancel);
      return;
    }
    const form = document.createElement('mcp-schema-form');
    form.schema = promptArgumentSchema(s.arguments);
    form.suggest = (name, value, context) => this.#complete(s.serverId, { type: 'ref/prompt', name: s.name }, name, value, context);
    attach.addEventListener('click', () => {
      const read = form.read();
      if (!read.ok) return;
      const args = Object.fromEntries(Object.entries(read.value).map(([k, v]) => [k, String(v)]));
      this.#request({ kind: 'prompt', serverId: s.serverId, prompt: s.name, arguments: args });
    });
    this.#chooser.replaceChildren(el('p', { class: 'prompt-name' }, `${s.label} · ${s.serverName}`), form, attach, cancel);
  }

  /**
   * One field per variable of a resource template, each with the server's suggestions (R8); the
   * URI below follows what they hold and stays editable.
   */
  #templateFields(s: Extract<Suggestion, { kind: 'template' }>, uri: HTMLInputElement): HTMLElement[] {
    const names = templateVariables(s.uriTemplate);
    const inputs = new Map<string, HTMLInputElement>();
    const values = () => Object.fromEntries([...inputs].map(([n, i]) => [n, i.value]));
    return names.map((name) => {
      const input = el('input', { name: `var-${name}`, class: 'template-var' });
      inputs.set(name, input);
      input.addEventListener('input', () => (uri.value = expandTemplate(s.uriTemplate, values())));
      const others = () => Object.fromEntries(Object.entries(values()).filter(([n, v]) => n !== name && v !== ''));
      const list = withCompletion(input, (value) =>
        this.#complete(s.serverId, { type: 'ref/resource', uri: s.uriTemplate }, name, value, others()),
      );
      return el('label', { class: 'template-field' }, el('span', {}, name), input, list);
    });
  }

  #complete(
    serverId: string,
    ref: CompletionRequestEvent['detail']['ref'],
    name: string,
    value: string,
    context: Record<string, string>,
  ): Promise<string[]> {
    return new Promise((resolve) => {
      const detail = { serverId, ref, argument: { name, value }, ...(Object.keys(context).length ? { context } : {}) };
      this.emit(new CompletionRequestEvent(detail, resolve));
    });
  }

  #request(detail: ConstructorParameters<typeof ComposerRequestEvent>[0]) {
    this.#chooser.replaceChildren();
    this.#status.className = 'status muted';
    this.#status.textContent = t('composerLoading');
    this.emit(new ComposerRequestEvent(detail));
  }

  #renderBlocks() {
    this.#blocksEl.replaceChildren(
      ...this.#blocks.map((b, i) => {
        const remove = el('button', { type: 'button', class: 'remove', 'aria-label': t('composerRemove') }, '×');
        remove.addEventListener('click', () => {
          this.#blocks = this.#blocks.filter((_, j) => j !== i);
          this.#renderBlocks();
        });
        const what = b.kind === 'prompt' ? `/${b.provenance.prompt ?? ''}` : `@${b.provenance.uri ?? ''}`;
        return el(
          'figure',
          { role: 'listitem', class: `block ${b.kind}` },
          el('figcaption', {}, el('span', {}, `${what} · ${b.provenance.serverName}`), remove),
          el('pre', {}, b.text),
        );
      }),
    );
    this.#renderMessage();
  }

  #renderMessage() {
    this.#message.textContent = JSON.stringify(messageObject(this.#text.value, this.#blocks), null, 2);
  }
}
