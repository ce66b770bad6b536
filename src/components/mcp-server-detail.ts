/**
 * A server's detail view (docs/ui.md): the header (`mcp-server-card mode="detail"`: status, reason
 * and the state's action), then sections — Tools (definitions changed since they were pinned, with
 * their diff, `mcp-definition-changes`; toggles; a tool name opens the tool's view),
 * Prompts, Resources (server strings as text), Tasks (`mcp-task-list`, shown once the server has
 * run one: R6), Settings (`mcp-server-settings`, then Forget authorization and Delete) and Log
 * (`mcp-activity-log server-id`).
 *
 * One element serves every server: `server` swaps what it shows and keeps the parts, so a state
 * push does not close a section or move the focus.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import type { TaskView } from '../protocol/tasks.js';
import { el, sheet } from './dom.js';
import { ServerActionEvent } from './events.js';
import { t } from './i18n.js';
import type { McpServerCardElement } from './mcp-server-card.js';
import { settingsFieldFor } from './server-next-step.js';

const css = sheet(`
details { border-top: 1px solid var(--border); padding: var(--space-2) 0; }
details:first-of-type { margin-top: var(--space-3); }
summary { cursor: pointer; font-weight: 600; font-size: var(--text-title); padding: 2px 0; border-radius: var(--radius); }
.items { list-style: none; margin: var(--space-1) 0 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-2); }
.items li { min-width: 0; }
.items strong { display: block; overflow-wrap: anywhere; }
.mono { font-family: ui-monospace, monospace; font-size: var(--text-small); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.desc { font-size: var(--text-small); margin: 2px 0 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.empty { margin: var(--space-1) 0 0; }
.settings-actions { margin-top: var(--space-2); }
`);

export class McpServerDetailElement extends ElementBase {
  #server: ServerView | undefined;
  readonly #header = document.createElement('mcp-server-card');
  readonly #tools = document.createElement('mcp-tool-list');
  readonly #noTools = el('p', { class: 'empty muted' });
  readonly #toolsSummary = el('summary');
  readonly #changes = document.createElement('mcp-definition-changes');
  readonly #toolsSection = el(
    'details',
    { open: true, 'data-section': 'tools' },
    this.#toolsSummary,
    this.#changes,
    this.#noTools,
    this.#tools,
  );
  readonly #promptsSummary = el('summary');
  readonly #prompts = el('ul', { class: 'items' });
  readonly #resourcesSummary = el('summary');
  readonly #resources = el('ul', { class: 'items' });
  readonly #settings = document.createElement('mcp-server-settings');
  readonly #manage = document.createElement('mcp-server-card');
  readonly #settingsSection = el(
    'details',
    { 'data-section': 'settings' },
    el('summary', {}, t('sectionSettings')),
    this.#settings,
    el('div', { class: 'settings-actions' }, this.#manage),
  );
  readonly #log = document.createElement('mcp-activity-log');
  /** Every server's tasks, as last pushed; the section shows this server's. */
  #allTasks: TaskView[] = [];
  readonly #taskList = document.createElement('mcp-task-list');
  readonly #tasksSummary = el('summary');
  readonly #tasksSection = el('details', { open: true, 'data-section': 'tasks' }, this.#tasksSummary, this.#taskList);

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#header.setAttribute('mode', 'detail');
    this.#manage.setAttribute('mode', 'settings');
    root.append(
      this.#header,
      this.#toolsSection,
      el('details', { 'data-section': 'prompts' }, this.#promptsSummary, this.#prompts),
      el('details', { 'data-section': 'resources' }, this.#resourcesSummary, this.#resources),
      this.#tasksSection,
      this.#settingsSection,
      el('details', { 'data-section': 'log' }, el('summary', {}, t('sectionLog')), this.#log),
    );
    // "Edit settings" on the header opens the Settings section here; it is not the worker's business.
    this.#header.addEventListener(ServerActionEvent.type, (e) => {
      if (e.action !== 'edit') return;
      e.stopPropagation();
      this.#settingsSection.open = true;
      // Into the field the reason is about (a refused token: the token field), once the form is filled.
      if (this.#server) this.#settings.focusField(settingsFieldFor(this.#server));
      else this.#settingsSection.querySelector('summary')!.focus();
    });
  }

  get server(): ServerView | undefined {
    return this.#server;
  }
  set server(value: ServerView | undefined) {
    if (value?.id !== this.#server?.id) this.#tools.query = '';
    this.#server = value;
    this.requestUpdate();
  }

  /** Every server's tasks (`panel:tasks`, R6). */
  set tasks(value: TaskView[]) {
    this.#allTasks = value;
    this.requestUpdate();
  }

  /** The header card, whose actions' outcomes main.ts reports back. */
  get header(): McpServerCardElement {
    return this.#header;
  }

  /** Puts the focus on the server's name, as a view that just opened should. */
  override focus() {
    this.#header.focus();
  }

  connectedCallback() {
    this.requestUpdate();
  }

  protected override updateParts() {
    return [this.#header, this.#manage, this.#settings, this.#changes, this.#tools, this.#taskList, this.#log];
  }

  protected override update() {
    const s = this.#server;
    this.hidden = !s;
    if (!s) return;
    this.#header.server = s;
    this.#manage.server = s;
    this.#settings.server = s;
    this.#renderTools(s);
    this.#renderPrompts(s);
    this.#renderResources(s);
    this.#renderTasks(s);
    if (this.#log.getAttribute('server-id') !== s.id) this.#log.setAttribute('server-id', s.id);
  }

  #renderTools(s: ServerView) {
    this.#toolsSummary.textContent = t('sectionTools', String(s.tools.length));
    this.#changes.server = s;
    this.#tools.setAttribute('server-id', s.id);
    this.#tools.setAttribute('server-name', s.name);
    this.#tools.setAttribute('aria-label', t('toolsOf', s.name));
    this.#tools.tools = s.tools;
    this.#tools.disabledTools = s.disabledTools;
    this.#tools.hidden = s.tools.length === 0;
    this.#noTools.hidden = s.tools.length > 0;
    this.#noTools.textContent = s.status === 'ready' ? t('noToolsOffered') : t('noToolsYet');
  }

  #renderPrompts(s: ServerView) {
    this.#promptsSummary.textContent = t('sectionPrompts', String(s.prompts.length));
    this.#prompts.replaceChildren(
      ...(s.prompts.length
        ? s.prompts.map((p) =>
            el(
              'li',
              {},
              el('strong', {}, p.title ?? p.name),
              p.title && p.title !== p.name ? el('div', { class: 'mono muted', title: p.name }, p.name) : null,
              p.description ? el('p', { class: 'desc muted' }, p.description) : null,
              p.arguments?.length
                ? el('div', { class: 'mono muted' }, p.arguments.map((a) => (a.required ? `${a.name}*` : a.name)).join(', '))
                : null,
            ),
          )
        : [el('li', { class: 'empty muted' }, t('noPrompts'))]),
    );
  }

  /** The section is there once the server has a task to list. */
  #renderTasks(s: ServerView) {
    const tasks = this.#allTasks.filter((task) => task.serverId === s.id);
    this.#tasksSection.hidden = tasks.length === 0;
    this.#tasksSummary.textContent = t('sectionTasks', String(tasks.length));
    this.#taskList.tasks = { serverId: s.id, serverName: s.name, tasks };
  }

  /** Resources and resource templates in one list. */
  #renderResources(s: ServerView) {
    const resources = [
      ...s.resources.map((r) => ({ name: r.title ?? r.name, uri: r.uri, description: r.description })),
      ...s.resourceTemplates.map((r) => ({ name: r.title ?? r.name, uri: r.uriTemplate, description: r.description })),
    ];
    this.#resourcesSummary.textContent = t('sectionResources', String(resources.length));
    this.#resources.replaceChildren(
      ...(resources.length
        ? resources.map((r) =>
            el(
              'li',
              {},
              el('strong', {}, r.name),
              el('div', { class: 'mono muted', title: r.uri }, r.uri),
              r.description ? el('p', { class: 'desc muted' }, r.description) : null,
            ),
          )
        : [el('li', { class: 'empty muted' }, t('noResources'))]),
    );
  }
}
