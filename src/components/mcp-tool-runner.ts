/**
 * Pick a ready server's enabled tool, give JSON arguments, run it, read the result as text
 * (SPEC K3; the schema-generated form comes later, raw JSON is the always-available fallback).
 */
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { RunToolEvent } from './events.js';
import { t } from './i18n.js';

const css = sheet(`
form { display: grid; gap: 6px; }
label { display: grid; gap: 2px; }
select, textarea { padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
textarea { font-family: ui-monospace, monospace; min-height: 4em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid #8885; border-radius: 6px; padding: 6px; margin: 0; }
`);

export class McpToolRunnerElement extends HTMLElement {
  static define(tag = 'mcp-tool-runner', registry = customElements) {
    if (!registry.get(tag)) registry.define(tag, this);
    return this;
  }
  #servers: ServerView[] = [];
  readonly #select = el('select', { name: 'tool' });
  readonly #args = el('textarea', { name: 'arguments', spellcheck: 'false' }, '{}');
  readonly #run = el('button', { type: 'submit' }, t('run'));
  readonly #output = el('div', { class: 'output', role: 'region', 'aria-live': 'polite', 'aria-label': t('result') });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const form = el('form', { 'aria-label': t('toolRunner') },
      el('label', {}, t('tool'), this.#select),
      el('label', {}, t('argumentsJson'), this.#args),
      this.#run,
      this.#output,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#submit();
    });
    root.append(form);
  }

  set servers(value: ServerView[]) {
    this.#servers = value;
    this.#renderOptions();
  }
  get servers() {
    return this.#servers;
  }

  #renderOptions() {
    const previous = this.#select.value;
    const options: HTMLOptionElement[] = [];
    for (const s of this.#servers) {
      if (s.status !== 'ready') continue;
      for (const tool of s.tools) {
        if (s.disabledTools.includes(tool.name)) continue;
        options.push(el('option', { value: JSON.stringify([s.id, tool.name]) }, `${s.name} · ${tool.title ?? tool.name}`));
      }
    }
    this.#select.replaceChildren(...options);
    if (options.some((o) => o.value === previous)) this.#select.value = previous;
    this.#run.disabled = options.length === 0;
  }

  #submit() {
    if (!this.#select.value) return;
    const [serverId, tool] = JSON.parse(this.#select.value) as [string, string];
    let args: unknown;
    try {
      args = JSON.parse(this.#args.value || '{}');
    } catch {
      this.showError(t('argumentsNotJson'));
      return;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      this.showError(t('argumentsNotObject'));
      return;
    }
    this.#run.disabled = true;
    this.#output.replaceChildren(el('p', { class: 'muted' }, t('running')));
    this.dispatchEvent(new RunToolEvent(serverId, tool, args as Record<string, unknown>));
  }

  showError(message: string) {
    this.#run.disabled = false;
    this.#output.replaceChildren(el('p', { class: 'error' }, message));
  }

  /** Text content and structured content, each as text; other blocks are summarised. */
  showResult(result: CallToolResult) {
    this.#run.disabled = false;
    const parts: Node[] = [];
    if (result.isError) parts.push(el('p', { class: 'error' }, t('toolReportedError')));
    for (const block of result.content) {
      if (block.type === 'text' && typeof block.text === 'string') parts.push(el('pre', { class: 'text' }, block.text));
      else parts.push(el('p', { class: 'muted' }, `[${block.type}]`));
    }
    if (result.structuredContent) parts.push(el('pre', { class: 'structured' }, JSON.stringify(result.structuredContent, null, 2)));
    this.#output.replaceChildren(...parts);
  }
}
