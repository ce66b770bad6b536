/**
 * Pick a ready server's enabled tool, give JSON arguments, run it, watch its progress, abort it,
 * read the result (SPEC H1, H2, K3). Each run carries its own operationId so the Abort button
 * and progress notifications name exactly this call. Results show text, images (data: URLs of
 * image/* types only), embedded resources, resource links, structured content and truncation
 * markers — every server string as text.
 *
 * The chosen tool and what was typed for each tool are kept here, in the panel, keyed by server
 * and tool: a server that is briefly not ready (a worker restart, a reconnect) takes its tools
 * out of the list, and when they come back the same tool is selected again with its arguments.
 */
import { ElementBase } from './element-base.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { ServerView } from '../protocol/panel.js';
import { asText } from '../common/as-text.js';
import { el, sheet } from './dom.js';
import { CancelToolEvent, RunToolEvent } from './events.js';
import { t } from './i18n.js';
import type { SchemaFormDraft } from './mcp-schema-form.js';

const css = sheet(`
form { display: grid; gap: 6px; }
label { display: grid; grid-template-columns: minmax(0, 1fr); gap: 2px; }
select, textarea { min-width: 0; max-width: 100%; padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
textarea { font-family: ui-monospace, monospace; min-height: 4em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid #8885; border-radius: 6px; padding: 6px; margin: 0; }
.buttons { display: flex; gap: 6px; }
progress { width: 100%; }
img { max-width: 100%; }
`);

/** An image part's data URL, only for a safe image/* MIME type and base64 data. */
function imageDataUrl(block: Record<string, unknown>): string | undefined {
  const mime = block.mimeType;
  const data = block.data;
  if (typeof mime !== 'string' || typeof data !== 'string') return undefined;
  if (!/^image\/(png|jpeg|gif|webp|bmp|avif)$/i.test(mime) || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return undefined;
  return `data:${mime.toLowerCase()};base64,${data}`;
}

const newOperationId = () => crypto.randomUUID().replace(/-/g, '');

export class McpToolRunnerElement extends ElementBase {
  #servers: ServerView[] = [];
  #running: { serverId: string; operationId: string } | undefined;
  /** The tool the user picked (an option value), selected again whenever it is offered. */
  #wanted: string | undefined;
  /** What was typed per tool (option value), with the schema it was typed for. */
  readonly #drafts = new Map<string, { schema: string; draft: SchemaFormDraft }>();
  readonly #select = el('select', { name: 'tool' });
  readonly #picker = el('label', {}, t('tool'), this.#select);
  /** Arguments: a form generated from the tool's input schema, with a raw-JSON view (K3). */
  readonly #args = document.createElement('mcp-schema-form');
  readonly #run = el('button', { type: 'submit' }, t('run'));
  readonly #abort = el('button', { type: 'button', class: 'abort', hidden: true }, t('abort'));
  readonly #progress = el('progress', { 'aria-label': t('progress'), hidden: true });
  readonly #progressText = el('span', { class: 'progress-text muted' });
  readonly #output = el('div', { class: 'output', role: 'region', 'aria-live': 'polite', 'aria-label': t('result') });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const form = el(
      'form',
      { 'aria-label': t('toolRunner') },
      this.#picker,
      el('div', { class: 'args', role: 'group', 'aria-label': t('argumentsJson') }, this.#args),
      el('div', { class: 'buttons' }, this.#run, this.#abort),
      this.#progress,
      this.#progressText,
      this.#output,
    );
    this.#select.addEventListener('change', () => {
      this.#wanted = this.#select.value;
      this.#applySchema();
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#submit();
    });
    this.#abort.addEventListener('click', () => {
      if (!this.#running) return;
      this.#abort.disabled = true;
      this.emit(new CancelToolEvent(this.#running.serverId, this.#running.operationId));
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

  /**
   * Shows one tool, as the tool's detail view does: the picker is hidden and the form is the
   * tool's. `undefined` brings the picker back.
   */
  select(serverId: string | undefined, tool?: string) {
    this.#wanted = serverId && tool ? JSON.stringify([serverId, tool]) : undefined;
    this.#picker.hidden = this.#wanted !== undefined;
    this.#renderOptions();
  }

  /** The operationId of the call in flight, if any. */
  get operationId(): string | undefined {
    return this.#running?.operationId;
  }

  #renderOptions() {
    const previous = this.#wanted ?? this.#select.value;
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
    this.#run.disabled = options.length === 0 || this.#running !== undefined;
    this.#applySchema();
  }

  /**
   * Rebuilds the arguments form when the chosen tool (or its schema) changed: what was typed for
   * the tool shown until now is kept, and what was typed earlier for the new one is put back.
   */
  #schemaOf = '';
  #shown: { option: string; schema: string } | undefined;
  #applySchema() {
    const tool = this.#selectedTool();
    const key = tool ? JSON.stringify([this.#select.value, tool.inputSchema]) : '';
    if (key === this.#schemaOf) return;
    this.#schemaOf = key;
    if (this.#shown) this.#drafts.set(this.#shown.option, { schema: this.#shown.schema, draft: this.#args.draft });
    this.#args.schema = tool?.inputSchema ?? { type: 'object', properties: {} };
    this.#shown = tool ? { option: this.#select.value, schema: JSON.stringify(tool.inputSchema) } : undefined;
    const saved = this.#shown && this.#drafts.get(this.#shown.option);
    // A draft typed for another schema is not forced into a changed form.
    if (saved && saved.schema === this.#shown?.schema) this.#args.draft = saved.draft;
  }

  #selectedTool() {
    if (!this.#select.value) return undefined;
    const [serverId, name] = JSON.parse(this.#select.value) as [string, string];
    return this.#servers.find((s) => s.id === serverId)?.tools.find((t) => t.name === name);
  }

  #submit() {
    if (!this.#select.value || this.#running) return;
    const [serverId, tool] = JSON.parse(this.#select.value) as [string, string];
    const read = this.#args.read();
    if (!read.ok) return;
    const args = read.value;
    const operationId = newOperationId();
    this.#running = { serverId, operationId };
    this.#run.disabled = true;
    this.#abort.hidden = false;
    this.#abort.disabled = false;
    this.#progress.hidden = true;
    this.#progress.removeAttribute('value');
    this.#progressText.textContent = '';
    this.#output.replaceChildren(el('p', { class: 'muted' }, t('running')));
    this.emit(new RunToolEvent(serverId, tool, args, operationId));
  }

  /** A progress notification; ignored unless it belongs to the call in flight (SPEC H1). */
  showProgress(operationId: string, progress: number, total?: number, message?: string) {
    if (this.#running?.operationId !== operationId) return;
    this.#progress.hidden = false;
    if (total !== undefined && total > 0) {
      this.#progress.max = total;
      this.#progress.value = Math.min(progress, total);
    } else {
      this.#progress.removeAttribute('value');
    }
    this.#progressText.textContent = message ?? (total ? `${progress} / ${total}` : String(progress));
  }

  #finish() {
    this.#running = undefined;
    this.#abort.hidden = true;
    this.#progress.hidden = true;
    this.#progressText.textContent = '';
    this.#renderOptions();
  }

  showError(message: string) {
    this.#finish();
    this.#output.replaceChildren(el('p', { class: 'error' }, message));
  }

  showResult(result: CallToolResult) {
    this.#finish();
    const parts: Node[] = [];
    if (result.isError) parts.push(el('p', { class: 'error' }, t('toolReportedError')));
    for (const block of result.content) parts.push(renderBlock(block));
    if (result.structuredContent) parts.push(el('pre', { class: 'structured' }, JSON.stringify(result.structuredContent, null, 2)));
    this.#output.replaceChildren(...parts);
  }
}

function renderBlock(block: Record<string, unknown> & { type: string }): Node {
  switch (block.type) {
    case 'text': {
      const text = typeof block.text === 'string' ? block.text : '';
      // truncateToolResult's markers start with "[… truncated" or "[… N … omitted".
      return el('pre', { class: /\[\u2026 (truncated|.*omitted)/.test(text) ? 'text truncated' : 'text' }, text);
    }
    case 'image': {
      const src = imageDataUrl(block);
      return src
        ? el('img', { class: 'image', src, alt: `image (${String(block.mimeType)})` })
        : el('p', { class: 'muted image-placeholder' }, `[image: ${asText(block.mimeType ?? 'unknown type')}]`);
    }
    case 'resource': {
      const r = (block.resource ?? {}) as Record<string, unknown>;
      const body = typeof r.text === 'string' ? r.text : `[binary ${asText(r.mimeType ?? '')}]`;
      return el('figure', { class: 'resource' }, el('figcaption', {}, asText(r.uri ?? '')), el('pre', {}, body));
    }
    case 'resource_link':
      return el('p', { class: 'resource-link' }, `${asText(block.name ?? '')} → ${asText(block.uri ?? '')}`);
    default:
      return el('p', { class: 'muted' }, `[${block.type}]`);
  }
}
