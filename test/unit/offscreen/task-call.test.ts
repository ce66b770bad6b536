import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callToolAsTask, clampPollInterval, MAX_TASK_POLL_MS, MIN_TASK_POLL_MS, TASK_TTL_MS } from '../../../src/offscreen/task-call.js';

type Status = { status: string; statusMessage?: string; pollInterval?: number };

/** A client whose server answers tools/call with a task and each tasks/get with the next status. */
function fakeClient(statuses: Status[], result = { content: [{ type: 'text', text: 'done' }] }) {
  const calls: string[] = [];
  const sent: { method: string; params: unknown; task?: unknown }[] = [];
  let polls = 0;
  const client = {
    request: async (req: { method: string; params: unknown }, _schema: unknown, options: { task?: unknown }) => {
      sent.push({ ...req, task: options.task });
      return { task: { taskId: 't-1', status: 'working', pollInterval: 0, ttl: 1000, createdAt: '', lastUpdatedAt: '' } };
    },
    experimental: {
      tasks: {
        getTask: async (taskId: string, options: { signal: AbortSignal }) => {
          calls.push(`get ${taskId}`);
          options.signal.throwIfAborted();
          return { taskId, ...statuses[Math.min(polls++, statuses.length - 1)]! };
        },
        getTaskResult: async (taskId: string) => {
          calls.push(`result ${taskId}`);
          return result;
        },
        cancelTask: async (taskId: string) => {
          calls.push(`cancel ${taskId}`);
          return {};
        },
      },
    },
  };
  return { client: client as unknown as Client, calls, sent };
}

const noStatus = () => undefined;

test('the poll interval a server asks for is clamped: 0 ms cannot flood it, an hour cannot stall the call', () => {
  assert.equal(clampPollInterval(0), MIN_TASK_POLL_MS);
  assert.equal(clampPollInterval(3_600_000), MAX_TASK_POLL_MS);
  assert.equal(clampPollInterval(2_000), 2_000);
  assert.equal(clampPollInterval('fast'), 1_000);
  assert.equal(clampPollInterval(Number.NaN), 1_000);
});

test('a task-only tool: tools/call creates the task with a TTL, tasks/get follows it, tasks/result brings the result; each new status is reported once', async () => {
  const { client, calls, sent } = fakeClient([
    { status: 'working', statusMessage: 'Gathering sources', pollInterval: 0 },
    { status: 'working', statusMessage: 'Gathering sources', pollInterval: 0 },
    { status: 'completed' },
  ]);
  const seen: string[] = [];
  const started = Date.now();
  const result = await callToolAsTask(
    client,
    'research',
    { topic: 'x' },
    {
      signal: new AbortController().signal,
      timeout: 5_000,
      onStatus: (u) => seen.push(`${u.status}: ${u.message ?? ''}`),
    },
  );
  assert.deepEqual(result, { content: [{ type: 'text', text: 'done' }] });
  assert.deepEqual(sent, [{ method: 'tools/call', params: { name: 'research', arguments: { topic: 'x' } }, task: { ttl: TASK_TTL_MS } }]);
  assert.deepEqual(calls, ['get t-1', 'get t-1', 'get t-1', 'result t-1']);
  assert.deepEqual(seen, ['working: Gathering sources', 'completed: ']);
  assert.ok(Date.now() - started >= 3 * MIN_TASK_POLL_MS - 20, 'three polls at the clamped interval, not at 0 ms');
});

test('a task that waits for input is followed through tasks/result (the questions come on that stream)', async () => {
  const { client, calls } = fakeClient([{ status: 'input_required', statusMessage: 'Which one?' }]);
  await callToolAsTask(client, 'research', {}, { signal: new AbortController().signal, timeout: 5_000, onStatus: noStatus });
  assert.deepEqual(calls, ['get t-1', 'result t-1']);
});

test('a failed task rejects with its status message; aborting the call cancels the task on the server', async () => {
  const failed = fakeClient([{ status: 'failed', statusMessage: 'disk full' }]);
  await assert.rejects(
    callToolAsTask(failed.client, 'job', {}, { signal: new AbortController().signal, timeout: 5_000, onStatus: noStatus }),
    /The task failed: disk full/,
  );
  assert.ok(!failed.calls.includes('cancel t-1'), 'a task that ended by itself is not cancelled');

  const running = fakeClient([{ status: 'working' }]);
  const stop = new AbortController();
  setTimeout(() => stop.abort(new Error('stopped by the user')), 600);
  await assert.rejects(
    callToolAsTask(running.client, 'job', {}, { signal: stop.signal, timeout: 5_000, onStatus: noStatus }),
    /stopped by the user/,
  );
  assert.equal(running.calls.at(-1), 'cancel t-1');
});
