/**
 * R6 (N): a hostile 2026 Tasks server against the task follower: it invents question keys on every
 * poll, answers tasks/get for another task, completes without a result, or fails — each ends the
 * call with a clear error, bounded, and never asks the user twice for one key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { followModernTask } from '../../../src/offscreen/modern-task.js';

type Task = Record<string, unknown>;

/** A client whose tasks/get answers come from `next` (called with the poll number); it records every request. */
function fakeClient(next: (poll: number) => Task) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  let polls = 0;
  const client = {
    request: async (req: { method: string; params: Record<string, unknown> }) => {
      sent.push(req);
      if (req.method === 'tasks/get') return next(++polls);
      return { resultType: 'complete' };
    },
  };
  return { client: client as unknown as Client, sent };
}

const options = (asked: string[] = []) => ({
  signal: new AbortController().signal,
  timeout: 5_000,
  onStatus: () => undefined,
  ask: async (params: Record<string, unknown>) => {
    asked.push(String(params['message']));
    return { action: 'accept', content: {} };
  },
});

const question = (key: string) => ({
  [key]: { method: 'elicitation/create', params: { message: key, requestedSchema: { type: 'object' } } },
});

test('R6 (N): the same question key on every poll is asked once; a server inventing keys without end is refused', async () => {
  const asked: string[] = [];
  const same = fakeClient((poll) =>
    poll < 3
      ? { taskId: 't', status: 'input_required', inputRequests: question('k') }
      : { taskId: 't', status: 'completed', result: { content: [] } },
  );
  await followModernTask(
    same.client,
    { taskId: 't', status: 'input_required', pollIntervalMs: 0, inputRequests: question('k') },
    options(asked),
  );
  assert.deepEqual(asked, ['k']);
  assert.equal(same.sent.filter((r) => r.method === 'tasks/update').length, 1);

  const flood = fakeClient((poll) => ({
    taskId: 't',
    status: 'input_required',
    pollIntervalMs: 0,
    inputRequests: { ...question(`a${poll}`), ...question(`b${poll}`), ...question(`c${poll}`), ...question(`d${poll}`) },
  }));
  await assert.rejects(
    followModernTask(flood.client, { taskId: 't', status: 'working', pollIntervalMs: 0 }, options()),
    /asked more questions than a task may/,
  );
});

test('R6 (N): another task’s answer, a completed task without a result, a failure and a cancel each end the call in words', async () => {
  const other = fakeClient(() => ({ taskId: 'not-mine', status: 'working' }));
  await assert.rejects(followModernTask(other.client, { taskId: 't', status: 'working', pollIntervalMs: 0 }, options()), /another task/);
  const empty = fakeClient(() => ({ taskId: 't', status: 'completed' }));
  await assert.rejects(
    followModernTask(empty.client, { taskId: 't', status: 'working', pollIntervalMs: 0 }, options()),
    /without a tool result/,
  );
  const failed = fakeClient(() => ({ taskId: 't', status: 'failed', error: { code: -32603, message: 'API rate limit exceeded' } }));
  await assert.rejects(
    followModernTask(failed.client, { taskId: 't', status: 'working', pollIntervalMs: 0 }, options()),
    /The task failed: API rate limit exceeded/,
  );
  const cancelled = fakeClient(() => ({ taskId: 't', status: 'cancelled', statusMessage: 'by the operator' }));
  await assert.rejects(
    followModernTask(cancelled.client, { taskId: 't', status: 'working', pollIntervalMs: 0 }, options()),
    /cancelled: by the operator/,
  );
  await assert.rejects(followModernTask(empty.client, { status: 'working' }, options()), /without a usable taskId/);
});

test('R6: a question that is not an elicitation (sampling, which this client does not do: R10) is declined, not shown', async () => {
  const asked: string[] = [];
  const c = fakeClient(() => ({ taskId: 't', status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } }));
  const r = await followModernTask(
    c.client,
    { taskId: 't', status: 'input_required', pollIntervalMs: 0, inputRequests: { s: { method: 'sampling/createMessage', params: {} } } },
    options(asked),
  );
  assert.deepEqual(r, { content: [{ type: 'text', text: 'ok' }] });
  assert.deepEqual(asked, []);
  assert.deepEqual(c.sent.find((x) => x.method === 'tasks/update')?.params['inputResponses'], { s: { action: 'decline' } });
});
