/**
 * The composer (SPEC G2, G3, K4): type `/` for `server:prompt` entries (with a form for the
 * prompt's arguments) or `@` to search resources and resource templates by name or URI.
 * Choosing one asks the worker (a {@link ComposerRequestEvent}) for an untrusted ContextBlock;
 * the blocks are listed under the message, and the message object an agent engine would
 * receive is shown as JSON text. Matching and the message shape live in `composer-model.ts`.
 *
 * With the `chat` attribute it is the chat's input (issue 17): no JSON preview, Enter sends (a
 * {@link ComposerSendEvent}), Shift+Enter is a new line; in the suggestion list the arrow keys
 * move and Esc closes it, back to the text.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import type { ContextBlockView } from '../protocol/panel-composer.js';
import { messageObject, promptArgumentSchema, suggestionsFor, triggerAt, type Suggestion, type Trigger } from './composer-model.js';
import { el, sheet } from './dom.js';
import { ComposerRequestEvent } from './events.js';
import { t } from './i18n.js';
import { ComposerSendEvent } from './chat-events.js';

const css = sheet(`
:host { display: grid; gap: 6px; }
textarea, input { padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
textarea.text { min-height: 3em; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; max-height: 14em; overflow: auto; }
li button { width: 100%; text-align: start; }
figure { margin: 0; border: 1px solid #8885; border-radius: 6px; padding: 4px 6px; }
figcaption { display: flex; justify-content: space-between; gap: 6px; font-weight: 600; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 14em; overflow: auto; margin: 4px 0 0; font-size: 12px; }
.chooser:empty { display: none; }
:host([chat]) .message-json, :host([chat]) .message-label { display: none; }
`);

export class McpComposerElement extends ElementBase {
  #servers: ServerView[] = [];
  #blocks: ContextBlockView[] = [];
  #trigger: Trigger | undefined;
  readonly #text = el('textarea', { class: 'text', name: 'message', 'aria-label': t('composer'), placeholder: t('composerHint') });
  readonly #list = el('ul', { class: 'suggestions', role: 'listbox', 'aria-label': t('composerSuggestions') });
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
      if (e.key === 'ArrowDown' && this.#list.firstElementChild) {
        e.preventDefault();
        this.#list.querySelector('button')?.focus();
      } else if (e.key === 'Escape' && this.#list.firstElementChild) {
        e.preventDefault();
        this.#closeList();
      } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && this.hasAttribute('chat') && !this.#list.firstElementChild) {
        e.preventDefault();
        this.dispatchEvent(new ComposerSendEvent());
      }
    });
    this.#list.addEventListener('keydown', (e) => {
      const buttons = [...this.#list.querySelectorAll('button')];
      const at = buttons.indexOf(this.shadowRoot!.activeElement as HTMLButtonElement);
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const next = at + (e.key === 'ArrowDown' ? 1 : -1);
        if (next < 0) this.#text.focus();
        else buttons[Math.min(next, buttons.length - 1)]?.focus();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        this.#closeList();
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
    this.#list.replaceChildren();
    this.#text.focus();
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
    if (!trigger) {
      this.#list.replaceChildren();
      return;
    }
    const found = suggestionsFor(trigger, this.#servers);
    this.#list.replaceChildren(
      ...(found.length
        ? found.map((s) => {
            const b = el('button', { type: 'button', 'data-kind': s.kind }, s.label);
            if (s.description) b.title = s.description;
            b.addEventListener('click', () => this.#choose(s));
            return el('li', { role: 'option' }, b);
          })
        : [el('li', { class: 'muted no-match' }, t('composerNoMatch'))]),
    );
  }

  /** Removes the `/…` or `@…` token that led to the choice. */
  #consumeTrigger() {
    const tr = this.#trigger;
    if (!tr) return;
    const v = this.#text.value;
    this.#text.value = v.slice(0, tr.start) + v.slice(tr.end);
    this.#trigger = undefined;
    this.#list.replaceChildren();
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
      this.#chooser.replaceChildren(el('p', {}, s.label), uri, attach, cancel);
      return;
    }
    const form = document.createElement('mcp-schema-form');
    form.schema = promptArgumentSchema(s.arguments);
    attach.addEventListener('click', () => {
      const read = form.read();
      if (!read.ok) return;
      const args = Object.fromEntries(Object.entries(read.value).map(([k, v]) => [k, String(v)]));
      this.#request({ kind: 'prompt', serverId: s.serverId, prompt: s.name, arguments: args });
    });
    this.#chooser.replaceChildren(el('p', { class: 'prompt-name' }, s.label), form, attach, cancel);
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
        const what = b.kind === 'prompt' ? `/${b.provenance.serverId}:${b.provenance.prompt ?? ''}` : `@${b.provenance.uri ?? ''}`;
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
