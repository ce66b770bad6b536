/**
 * A call of a tool that runs only as a task (MCP 2025-11-25 tasks, `execution.taskSupport:
 * "required"`; the reference server-everything has one): `tools/call` with a `task` field creates
 * the task, `tasks/get` follows it at the server's poll interval — clamped, so a server asking for
 * 0 ms cannot make us flood it (N5) — and `tasks/result` brings the tool's result, also when the
 * task waits for input (the server's questions then arrive on that stream, through the same
 * elicitation cards). Aborting the call (Stop, Abort, its timeout) cancels the task on the server.
 * Written here rather than through the SDK's experimental `callToolStream`, which polls at whatever
 * interval the server names and never cancels.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_TASK_MESSAGE } from '../protocol/tasks.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** Bounds of the poll interval the server asks for. */
export const MIN_TASK_POLL_MS = 250;
export const MAX_TASK_POLL_MS = 10_000;
/** How long we ask the server to keep the task and its result (it may choose less). */
export const TASK_TTL_MS = 10 * 60_000;

export interface TaskStatusUpdate {
  /** The server's id of the task (the panel's list shows it). */
  taskId: string;
  status: string;
  message?: string;
}

/** What a session's `callTool` is told about tasks: whether the tool runs only as one (2025-11-25), and where a task's statuses go. */
export interface TaskHooks {
  /** 2025-11-25 `execution.taskSupport: "required"`: the call is made as a task. A 2026 server decides per call instead. */
  required: boolean;
  onStatus(update: TaskStatusUpdate): void;
}

export interface TaskCallOptions {
  signal: AbortSignal;
  /** Per-request SDK timeout (ours is the caller's timer, which a status change resets). */
  timeout: number;
  onStatus(update: TaskStatusUpdate): void;
}

export const clampPollInterval = (ms: unknown) =>
  typeof ms === 'number' && Number.isFinite(ms) ? Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, ms)) : 1_000;

/**
 * Tells each new status of a task once (both task wires), its message cut to the task list's
 * bound before it reaches the progress line; returns the message as cut.
 */
export function statusTeller(taskId: string, onStatus: (update: TaskStatusUpdate) => void) {
  let last = '';
  return (status: string, statusMessage: unknown): string | undefined => {
    const message = typeof statusMessage === 'string' ? statusMessage.slice(0, MAX_TASK_MESSAGE) : undefined;
    const seen = `${status}\u0000${message ?? ''}`;
    if (seen !== last) onStatus({ taskId, status, ...(message ? { message } : {}) });
    last = seen;
    return message;
  };
}

/** Waits `ms`, or rejects with the signal's reason once it aborts (the poll wait of both task wires). */
export function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `name` as a task to its end; resolves with the tool's result, rejects like a plain call. */
export async function callToolAsTask(client: Client, name: string, args: Record<string, unknown>, options: TaskCallOptions) {
  const { signal, timeout } = options;
  const created = await client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, {
    signal,
    timeout,
    task: { ttl: TASK_TTL_MS },
  });
  const taskId = created.task.taskId;
  try {
    return await followTask(client, taskId, created.task.pollInterval, options);
  } catch (e) {
    if (signal.aborted) await client.experimental.tasks.cancelTask(taskId, { timeout: 5_000 }).catch(() => undefined);
    throw e;
  }
}

async function followTask(client: Client, taskId: string, firstInterval: unknown, options: TaskCallOptions) {
  const { signal, timeout } = options;
  let interval = clampPollInterval(firstInterval);
  const tell = statusTeller(taskId, (update) => options.onStatus(update));
  for (;;) {
    await waitOrAbort(interval, signal);
    const task = await client.experimental.tasks.getTask(taskId, { signal, timeout });
    const message = tell(task.status, task.statusMessage);
    if (task.status === 'completed' || task.status === 'input_required') {
      return client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { signal, timeout });
    }
    if (task.status === 'failed' || task.status === 'cancelled') {
      throw new McpError(ErrorCode.InternalError, `The task ${task.status}${message ? `: ${message}` : ''}.`);
    }
    interval = clampPollInterval(task.pollInterval);
  }
}
