/**
 * The tasks this document runs and has run (SPEC R6): one entry per call of a tool that runs only
 * as a task, from its start to its end and for a while after. The document holds them because it
 * outlives the worker: a task goes on when the worker stops (its call is not cancelled then, unlike
 * a plain call), and the next worker instance gets the list with its claim. Bounded: at most
 * {@link MAX_ENDED_TASKS_PER_SERVER} ended tasks per server and {@link MAX_TASKS} in all (N5), the
 * oldest ended ones going first; messages and the result preview are cut.
 */
import {
  isRunningTask,
  MAX_ENDED_TASKS_PER_SERVER,
  MAX_TASK_MESSAGE,
  MAX_TASK_PREVIEW,
  MAX_TASKS,
  type TaskState,
  type TaskView,
} from '../protocol/tasks.js';
import type { Said } from '../protocol/wording.js';

/** What a tool result carries that the preview reads: its text parts and its error flag. */
interface ResultLike {
  content?: unknown;
  isError?: unknown;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The text parts of a result, one after another; other parts are named by their type. */
export function resultPreview(result: ResultLike): string {
  const parts = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  const text = parts.map((p) => (typeof p?.text === 'string' ? p.text : `[${typeof p?.type === 'string' ? p.type : 'part'}]`)).join('\n');
  return cut(text, MAX_TASK_PREVIEW);
}

export class TaskTable {
  readonly #tasks = new Map<string, TaskView>();

  constructor(
    /** Told of every change, with the task as it is now. */
    private readonly changed: (task: TaskView) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A task call starts (a 2025 task: before the server has created it; a 2026 one: when it answered with it). */
  begin(operationId: string, serverId: string, tool: string, startedAt = this.now()): void {
    const task: TaskView = { operationId, serverId, tool: tool.slice(0, 1024), state: 'working', startedAt };
    this.#tasks.set(operationId, task);
    this.#trim(serverId);
    this.changed(task);
  }

  /** Whether this operation is a task call the table follows (and so outlives its worker). */
  has(operationId: string): boolean {
    return this.#tasks.has(operationId);
  }

  /** A status the server reported (`tasks/get`); unchanged statuses are not told again. */
  status(operationId: string, update: { taskId?: string; status: string; message?: string }): void {
    const task = this.#tasks.get(operationId);
    if (!task || !isRunningTask(task.state)) return;
    const state: TaskState = update.status === 'input_required' ? 'input_required' : 'working';
    const message = update.message === undefined ? undefined : cut(update.message, MAX_TASK_MESSAGE);
    const taskId = update.taskId?.slice(0, 256);
    if (task.state === state && task.message === message && (taskId === undefined || task.taskId === taskId)) return;
    this.#replace(task, { state, ...(message !== undefined ? { message } : {}), ...(taskId ? { taskId } : {}) }, ['message']);
  }

  /** The call ended with the task's result. */
  completed(operationId: string, result: ResultLike): void {
    const task = this.#tasks.get(operationId);
    if (!task || !isRunningTask(task.state)) return;
    this.#replace(
      task,
      {
        state: 'completed',
        endedAt: this.now(),
        preview: resultPreview(result),
        ...(result.isError === true ? { isError: true as const } : {}),
      },
      ['message'],
    );
  }

  /** The call ended without a result: cancelled by the user, or failed; `said` is why. */
  ended(operationId: string, state: 'failed' | 'cancelled', said: Said): void {
    const task = this.#tasks.get(operationId);
    if (!task || !isRunningTask(task.state)) return;
    const patch: Partial<TaskView> = { state, endedAt: this.now(), message: cut(said.message, MAX_TASK_MESSAGE) };
    if (said.wording) patch.wording = said.wording;
    this.#replace(task, patch, ['message']);
  }

  /** Every task kept, oldest first. */
  list(): TaskView[] {
    return [...this.#tasks.values()];
  }

  /** Forgets the server's ended tasks (the panel's "Clear"); running ones stay. Returns how many went. */
  clearEnded(serverId: string): number {
    let removed = 0;
    for (const [op, t] of this.#tasks)
      if (t.serverId === serverId && !isRunningTask(t.state)) {
        this.#tasks.delete(op);
        removed++;
      }
    return removed;
  }

  #replace(task: TaskView, patch: Partial<TaskView>, drop: (keyof TaskView)[] = []) {
    const next: TaskView = { ...task };
    for (const k of drop) delete next[k];
    Object.assign(next, patch);
    this.#tasks.set(task.operationId, next);
    this.#trim(task.serverId);
    this.changed(next);
  }

  /** Drops the oldest ended tasks over the bounds (a Map iterates in insertion order: oldest first). */
  #trim(serverId: string) {
    const ended = [...this.#tasks.values()].filter((t) => t.serverId === serverId && !isRunningTask(t.state));
    for (const t of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_TASKS_PER_SERVER))) this.#tasks.delete(t.operationId);
    for (const t of this.#tasks.values()) {
      if (this.#tasks.size <= MAX_TASKS) break;
      if (!isRunningTask(t.state)) this.#tasks.delete(t.operationId);
    }
  }
}
