/**
 * A tool call a 2026-07-28 server answered with a task (the Tasks extension,
 * `io.modelcontextprotocol/tasks`, R6): the server decides per call, so any `tools/call` of a
 * server that declares the extension may come back as a handle (result-type.ts turns it into an
 * error the client ends the call with). From the handle on, the task is followed here:
 * `tasks/get` at the server's `pollIntervalMs`, clamped like a 2025 task's (N5), until it is
 * completed (its `result` is the tool's result), failed (its JSON-RPC `error`) or cancelled; a
 * task waiting for input lists `inputRequests`, each asked once through the usual elicitation
 * cards (keys already answered are not asked again, as the extension advises) and answered with
 * `tasks/update`. Aborting the call sends `tasks/cancel`. The client sets `Mcp-Name` to the task id
 * for these three methods itself.
 */
import * as z from 'zod/mini';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { clampPollInterval, statusTeller, waitOrAbort, type TaskStatusUpdate } from './task-call.js';
import { MAX_TASK_MESSAGE } from '../protocol/tasks.js';

/** The extension's identifier, declared in every request's client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Keys of input requests remembered per task; a server inventing keys forever is refused past this (N5). */
const MAX_INPUT_KEYS = 64;
/** Input requests asked per poll at most; the relay declines past its own per-connection bound anyway. */
const MAX_INPUTS_PER_POLL = 4;

const AnyObject = z.record(z.string(), z.unknown());
type Task = Record<string, unknown>;

export interface ModernTaskOptions {
  signal: AbortSignal;
  /** Per request; the caller's own timer is what ends a task that goes quiet. */
  timeout: number;
  onStatus(update: TaskStatusUpdate): void;
  /** One server question (an `elicitation/create` of `inputRequests`): the answer to send back. */
  ask(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

const taskIdOf = (task: Task): string => {
  const id = task['taskId'];
  if (typeof id !== 'string' || id.length === 0 || id.length > 256)
    throw new ProtocolError(-32603, 'The server answered with a task without a usable taskId.');
  return id;
};

/** Follows the task of `handle` to its end; resolves with the tool's result, rejects like a plain call. */
export async function followModernTask(client: Client, handle: Task, options: ModernTaskOptions): Promise<Record<string, unknown>> {
  const taskId = taskIdOf(handle);
  try {
    return await follow(client, taskId, handle, options);
  } catch (e) {
    if (options.signal.aborted)
      await client.request({ method: 'tasks/cancel', params: { taskId } }, AnyObject, { timeout: 5_000 }).catch(() => undefined);
    throw e;
  }
}

async function follow(client: Client, taskId: string, first: Task, options: ModernTaskOptions): Promise<Record<string, unknown>> {
  const { signal, timeout } = options;
  const answered = new Set<string>();
  const tell = statusTeller(taskId, (update) => options.onStatus(update));
  let task = first;
  for (;;) {
    const status = typeof task['status'] === 'string' ? task['status'] : 'working';
    const message = tell(status, task['statusMessage']);
    if (status === 'completed') return resultOf(task);
    if (status === 'failed') throw failureOf(task, message);
    if (status === 'cancelled') throw new ProtocolError(-32603, `The task was cancelled${message ? `: ${message}` : ''}.`);
    if (status === 'input_required') await answerInputs(client, taskId, task, answered, options);
    await waitOrAbort(clampPollInterval(task['pollIntervalMs']), signal);
    task = await client.request({ method: 'tasks/get', params: { taskId } }, AnyObject, { signal, timeout });
    if (task['taskId'] !== taskId) throw new ProtocolError(-32603, 'The server answered tasks/get with another task.');
  }
}

function resultOf(task: Task): Record<string, unknown> {
  const result = task['result'];
  if (!result || typeof result !== 'object' || Array.isArray(result) || !Array.isArray((result as Task)['content']))
    throw new ProtocolError(-32603, 'The task completed without a tool result.');
  return result as Record<string, unknown>;
}

function failureOf(task: Task, message: string | undefined): ProtocolError {
  const error = task['error'] && typeof task['error'] === 'object' ? (task['error'] as Task) : {};
  const code = typeof error['code'] === 'number' && Number.isInteger(error['code']) ? error['code'] : -32603;
  const text = typeof error['message'] === 'string' ? error['message'].slice(0, MAX_TASK_MESSAGE) : message;
  return new ProtocolError(code, `The task failed${text ? `: ${text}` : ''}.`);
}

/** Asks each new `elicitation/create` of the task's `inputRequests` and sends the answers with `tasks/update`. */
async function answerInputs(client: Client, taskId: string, task: Task, answered: Set<string>, options: ModernTaskOptions) {
  const requests = task['inputRequests'] && typeof task['inputRequests'] === 'object' ? (task['inputRequests'] as Task) : {};
  const fresh = Object.entries(requests)
    .filter(([key]) => !answered.has(key))
    .slice(0, MAX_INPUTS_PER_POLL);
  if (fresh.length === 0) return;
  if (answered.size + fresh.length > MAX_INPUT_KEYS) throw new ProtocolError(-32603, 'The task asked more questions than a task may.');
  const inputResponses: Record<string, unknown> = {};
  for (const [key, request] of fresh) {
    answered.add(key);
    const r = request && typeof request === 'object' ? (request as Task) : {};
    const params = r['params'] && typeof r['params'] === 'object' ? (r['params'] as Record<string, unknown>) : {};
    // Only questions to the user are answered; what this client does not do (sampling, roots: R10) is declined.
    inputResponses[key] = r['method'] === 'elicitation/create' ? await options.ask(params, options.signal) : { action: 'decline' };
  }
  await client.request({ method: 'tasks/update', params: { taskId, inputResponses } }, AnyObject, {
    signal: options.signal,
    timeout: options.timeout,
  });
}
