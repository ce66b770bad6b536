/**
 * A server's running and recent tasks (SPEC R6), in its detail view: per task the tool, its state
 * in words, the server's last status message, the time it has run (ticking while it runs), Cancel
 * while it runs, and the result's text once it completed — all server text set as text. "Clear
 * finished" forgets the ended ones. The offscreen document holds the tasks, so the list survives a
 * worker stop and a closed panel; this element only shows what it is handed.
 * Emits {@link CancelToolEvent} and {@link ClearTasksEvent}.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { CancelToolEvent, ClearTasksEvent } from './events.js';
import { t, tReason } from './i18n.js';
import { isRunningTask, type TaskState, type TaskView } from '../protocol/tasks.js';
import type { MessageKey } from '../i18n/en.js';

const css = sheet(`
:host { display: block; }
ul { list-style: none; margin: var(--space-1) 0 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-2); }
li { min-width: 0; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-2); }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px var(--space-2); }
.head strong { overflow-wrap: anywhere; min-width: 0; }
.state { font-size: var(--text-small); font-weight: 600; }
.state[data-state="working"], .state[data-state="input_required"] { color: var(--accent); }
.state[data-state="completed"] { color: var(--ok); }
.state[data-state="failed"], .state[data-state="tool-error"] { color: var(--danger); }
.elapsed { font-size: var(--text-small); font-variant-numeric: tabular-nums; }
.head button { margin-inline-start: auto; }
p { margin: var(--space-1) 0 0; font-size: var(--text-small); overflow-wrap: anywhere; white-space: pre-wrap; }
details { margin-top: var(--space-1); font-size: var(--text-small); }
summary { cursor: pointer; border-radius: var(--radius); }
pre { margin: var(--space-1) 0 0; padding: 6px; background: var(--bg-raised); border-radius: 4px; max-height: 240px; overflow: auto;
  white-space: pre-wrap; overflow-wrap: anywhere; font-size: 11px; line-height: 1.45; }
.clear { margin-top: var(--space-2); }
`);

const STATE_WORDS: Record<TaskState, MessageKey> = {
  working: 'taskWorking',
  input_required: 'taskInputRequired',
  completed: 'taskCompleted',
  failed: 'taskFailed',
  cancelled: 'taskCancelled',
};

/** "42 s" or "3 min 5 s". */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return seconds < 60 ? t('taskElapsed', String(seconds)) : t('taskElapsedLong', String(Math.floor(seconds / 60)), String(seconds % 60));
}

export class McpTaskListElement extends ElementBase {
  #tasks: TaskView[] = [];
  #serverId = '';
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #list = el('ul');
  readonly #clear = el('button', { type: 'button', class: 'clear', 'data-role': 'quiet' });
  /** The elapsed line of each running task, ticked once a second. */
  readonly #ticking = new Map<HTMLElement, number>();
  /** Result sections the user opened, by operationId: a push does not close them. */
  readonly #opened = new Set<string>();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    root.append(this.#list, this.#clear);
    this.#clear.addEventListener('click', () => this.emit(new ClearTasksEvent(this.#serverId)));
  }

  /** The server's tasks, oldest first; the list shows the newest first. */
  set tasks(value: { serverId: string; serverName: string; tasks: TaskView[] }) {
    this.#serverId = value.serverId;
    this.#tasks = value.tasks;
    this.#list.setAttribute('aria-label', t('tasksOf', value.serverName));
    this.requestUpdate();
  }

  connectedCallback() {
    this.requestUpdate();
  }

  disconnectedCallback() {
    this.#stopTicking();
  }

  protected override update() {
    this.#ticking.clear();
    this.#list.replaceChildren(...[...this.#tasks].reverse().map((task) => this.#row(task)));
    const ended = this.#tasks.filter((task) => !isRunningTask(task.state)).length;
    this.#clear.hidden = ended === 0;
    this.#clear.textContent = t('clearEndedTasks');
    if (this.#ticking.size > 0 && this.isConnected) this.#startTicking();
    else this.#stopTicking();
  }

  #row(task: TaskView): HTMLLIElement {
    const running = isRunningTask(task.state);
    const toolError = task.state === 'completed' && task.isError === true;
    const elapsed = el('span', { class: 'elapsed muted' }, elapsedText((task.endedAt ?? Date.now()) - task.startedAt));
    if (running) this.#ticking.set(elapsed, task.startedAt);
    const cancel = running ? el('button', { type: 'button', 'aria-label': t('cancelTask', task.tool) }, t('cancel')) : null;
    cancel?.addEventListener('click', () => {
      cancel.disabled = true;
      this.emit(new CancelToolEvent(task.serverId, task.operationId));
    });
    const message =
      task.message === undefined ? null : task.wording ? tReason({ message: task.message, wording: task.wording }) : task.message;
    return el(
      'li',
      { 'data-operation': task.operationId, 'data-state': task.state },
      el(
        'div',
        { class: 'head' },
        el('strong', {}, task.tool),
        el(
          'span',
          { class: 'state', 'data-state': toolError ? 'tool-error' : task.state },
          t(toolError ? 'taskToolError' : STATE_WORDS[task.state]),
        ),
        elapsed,
        cancel,
      ),
      message ? el('p', { class: 'message muted' }, message) : null,
      task.preview !== undefined ? this.#result(task.operationId, task.preview) : null,
    );
  }

  #result(operationId: string, preview: string): HTMLDetailsElement {
    const section = el(
      'details',
      { class: 'result', open: this.#opened.has(operationId) },
      el('summary', {}, t('taskResult')),
      el('pre', {}, preview),
    );
    section.addEventListener('toggle', () => (section.open ? this.#opened.add(operationId) : this.#opened.delete(operationId)));
    return section;
  }

  #startTicking() {
    this.#timer ??= setInterval(() => {
      for (const [line, startedAt] of this.#ticking) line.textContent = elapsedText(Date.now() - startedAt);
    }, 1000);
  }

  #stopTicking() {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
