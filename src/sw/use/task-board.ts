/**
 * The worker's copy of the offscreen document's tasks (SPEC R6), for the panels: the document holds
 * them (task-table.ts) and hands them over with each claim, then tells every change as an
 * `offscreen:task` event; this board keeps the latest of each and pushes the whole list to the
 * panels (`panel:tasks`), at most once per microtask. When the document is gone, so are its tasks.
 */
import type { OffscreenEvent } from '../../protocol/offscreen.js';
import type { UsePanelPush } from '../../protocol/panel-use.js';
import type { TaskView } from '../../protocol/tasks.js';

export class TaskBoard {
  #tasks = new Map<string, TaskView>();
  #pushQueued = false;

  constructor(private readonly push: (message: UsePanelPush) => void) {}

  /** What the document had when this worker claimed it: the list replaces the board's. */
  adopt(tasks: readonly TaskView[]): void {
    // Nearly every wake claims a document with no task: nothing for the panels then.
    if (tasks.length === 0 && this.#tasks.size === 0) return;
    this.#tasks = new Map(tasks.map((t) => [t.operationId, t]));
    this.#changed();
  }

  onEvent(event: OffscreenEvent): void {
    if (event.type !== 'offscreen:task') return;
    // Re-inserted, so the list stays in the order the document keeps (oldest first).
    this.#tasks.delete(event.task.operationId);
    this.#tasks.set(event.task.operationId, event.task);
    this.#changed();
  }

  /** The document closed or crashed: its tasks and their calls ended with it. */
  documentLost(): void {
    if (this.#tasks.size === 0) return;
    this.#tasks.clear();
    this.#changed();
  }

  list(): TaskView[] {
    return [...this.#tasks.values()];
  }

  /** The panels' push of the whole list. */
  message(): UsePanelPush {
    return { type: 'panel:tasks', tasks: this.list() };
  }

  #changed() {
    if (this.#pushQueued) return;
    this.#pushQueued = true;
    queueMicrotask(() => {
      this.#pushQueued = false;
      this.push(this.message());
    });
  }
}
