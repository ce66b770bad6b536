/**
 * Pick a ready server's enabled tool, give JSON arguments, run it, watch its progress, abort it,
 * read the result (SPEC H1, H2, K3). Each run carries its own operationId so the Abort button
 * and progress notifications name exactly this call. The result is shown by `mcp-result-view`,
 * cleared when the user picks another tool. A server's refusal of the arguments is shown at the
 * form's fields. A question the server asks during this call (an elicitation card whose
 * operationId is {@link McpToolRunnerElement.operationId}) is slotted next to the Run/Abort
 * buttons (`slot="question"`), and the runner says it is waiting for the user's answer.
 *
 * The chosen tool and what was typed for each tool are kept here, in the panel, keyed by server
 * and tool: a server that is briefly not ready (a worker restart, a reconnect) takes its tools
 * out of the list, and when they come back the same tool is selected again with its arguments.
 */
import { toolUi } from '../protocol/mcp-apps.js';
import { ElementBase } from './element-base.js';
import type { CallToolResult, Tool } from '../protocol/mcp-shapes.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { CancelToolEvent, RunToolEvent } from './events.js';
import { t } from './i18n.js';
import { randomId } from '../common/random-id.js';
import type { SchemaFormDraft } from './mcp-schema-form.js';

const css = sheet(`
form { display: grid; gap: var(--space-2); }
label { display: grid; grid-template-columns: minmax(0, 1fr); gap: 2px; }
select, textarea { min-width: 0; max-width: 100%; }
textarea { font-family: ui-monospace, monospace; min-height: 4em; }
.buttons { display: flex; gap: var(--space-2); align-items: center; flex-wrap: wrap; }
.waiting { margin: 0; font-weight: 600; color: var(--accent); }
progress { width: 100%; }
`);

export class McpToolRunnerElement extends ElementBase {
  #servers: ServerView[] = [];
  #running: { serverId: string; operationId: string; tool?: Tool; arguments: Record<string, unknown> } | undefined;
  /** The tool the user picked (an option value), selected again whenever it is offered. */
  #wanted: string | undefined;
  /** What was typed per tool (option value), with the schema it was typed for. */
  readonly #drafts = new Map<string, { schema: string; draft: SchemaFormDraft }>();
  readonly #select = el('select', { name: 'tool' });
  readonly #picker = el('label', {}, t('tool'), this.#select);
  /** Arguments: a form generated from the tool's input schema, with a raw-JSON view (K3). */
  readonly #args = document.createElement('mcp-schema-form');
  readonly #run = el('button', { type: 'submit', 'data-role': 'primary' }, t('run'));
  readonly #abort = el('button', { type: 'button', class: 'abort', hidden: true }, t('abort'));
  readonly #progress = el('progress', { 'aria-label': t('progress'), hidden: true });
  readonly #progressText = el('span', { class: 'progress-text muted' });
  readonly #result = document.createElement('mcp-result-view');
  readonly #waiting = el('p', { class: 'waiting', role: 'status' });
  readonly #question = el('slot', { name: 'question' });

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
      this.#waiting,
      this.#question,
      this.#progress,
      this.#progressText,
      this.#result,
    );
    this.#select.addEventListener('change', () => {
      this.#wanted = this.#select.value;
      this.#result.clear();
      this.#applySchema();
    });
    this.#question.addEventListener('slotchange', () => this.#showWaiting());
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
    const wanted = serverId && tool ? JSON.stringify([serverId, tool]) : undefined;
    if (wanted !== this.#wanted) this.#result.clear();
    this.#wanted = wanted;
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
        // A tool only its own view may call (MCP Apps `visibility: ["app"]`) is not offered.
        if (s.disabledTools.includes(tool.name) || !toolUi(tool).model) continue;
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
    const operationId = randomId();
    const chosen = this.#selectedTool();
    this.#running = { serverId, operationId, arguments: args, ...(chosen ? { tool: chosen } : {}) };
    this.#run.disabled = true;
    this.#abort.hidden = false;
    this.#abort.disabled = false;
    this.#progress.hidden = true;
    this.#progress.removeAttribute('value');
    this.#progressText.textContent = '';
    this.#result.showStatus(t('running'));
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

  /** The call failed without a result; a refusal of the arguments is shown at the form instead. */
  showError(message: string) {
    this.#finish();
    if (this.#args.showServerErrors(message)) this.#result.showError(t('argumentsRejected'));
    else this.#result.showError(message);
  }

  showResult(result: CallToolResult) {
    const running = this.#running;
    const serverId = running?.serverId;
    this.#finish();
    const text = result.content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : '')).join('\n');
    // An error result that is the server refusing the arguments: shown at the fields, not as a raw dump.
    if (result.isError && this.#args.showServerErrors(text)) this.#result.showError(t('argumentsRejected'));
    else this.#result.showResult(result, serverId, running?.tool ? { tool: running.tool, arguments: running.arguments } : undefined);
  }

  /** "Waiting for your answer" while a question of this call is slotted here. */
  #showWaiting() {
    const asking = this.#question.assignedElements().length > 0;
    this.#waiting.textContent = asking ? t('waitingForAnswer') : '';
  }
}
