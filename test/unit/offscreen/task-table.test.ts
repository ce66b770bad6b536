import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultPreview, TaskTable } from '../../../src/offscreen/task-table.js';
import {
  MAX_ENDED_TASKS_PER_SERVER,
  MAX_TASK_MESSAGE,
  MAX_TASK_PREVIEW,
  MAX_TASKS,
  TaskViewSchema,
  type TaskView,
} from '../../../src/protocol/tasks.js';
import { say } from '../../../src/protocol/wording.js';

function table() {
  const told: TaskView[] = [];
  let clock = 1_000;
  const tasks = new TaskTable(
    (t) => told.push(t),
    () => clock,
  );
  return { tasks, told, tick: (ms: number) => (clock += ms) };
}

test('R6: a task is followed from its start to its result; each change is told once, as the panel will show it', () => {
  const { tasks, told, tick } = table();
  tasks.begin('op1', 's1', 'simulate-research-query');
  tasks.status('op1', { taskId: 't-1', status: 'working', message: 'Gathering sources...' });
  tasks.status('op1', { taskId: 't-1', status: 'working', message: 'Gathering sources...' });
  tasks.status('op1', { taskId: 't-1', status: 'input_required', message: 'Which one?' });
  tick(4_000);
  tasks.completed('op1', {
    content: [
      { type: 'text', text: '# Report' },
      { type: 'image', data: 'x' },
    ],
  });
  assert.deepEqual(
    told.map((t) => [t.state, t.message]),
    [
      ['working', undefined],
      ['working', 'Gathering sources...'],
      ['input_required', 'Which one?'],
      ['completed', undefined],
    ],
  );
  const [done] = tasks.list();
  assert.deepEqual(done, {
    operationId: 'op1',
    serverId: 's1',
    tool: 'simulate-research-query',
    taskId: 't-1',
    state: 'completed',
    startedAt: 1_000,
    endedAt: 5_000,
    preview: '# Report\n[image]',
  });
  for (const t of told) assert.equal(TaskViewSchema.safeParse(t).success, true, 'every told task crosses the worker boundary');
  // An ended task does not change again (a late status after the end is ignored).
  tasks.status('op1', { taskId: 't-1', status: 'working' });
  assert.equal(told.length, 4);
});

test('R6: a task that failed or was cancelled keeps why, in our words; a tool error is marked', () => {
  const { tasks } = table();
  tasks.begin('a', 's1', 'job');
  tasks.ended('a', 'cancelled', say('reasonCancelledServerTold'));
  tasks.begin('b', 's1', 'job');
  tasks.ended('b', 'failed', { message: 'The task failed: disk full' });
  tasks.begin('c', 's1', 'job');
  tasks.completed('c', { content: [{ type: 'text', text: 'nope' }], isError: true });
  const [a, b, c] = tasks.list();
  assert.equal(a!.state, 'cancelled');
  assert.equal(a!.wording?.code, 'reasonCancelledServerTold');
  assert.deepEqual([b!.state, b!.message, b!.wording], ['failed', 'The task failed: disk full', undefined]);
  assert.deepEqual([c!.state, c!.isError, c!.preview], ['completed', true, 'nope']);
});

test('N5: a flooding server cannot grow the table — ended tasks per server and in all are bounded, oldest first; running ones stay', () => {
  const { tasks } = table();
  tasks.begin('running', 's1', 'job');
  for (let i = 0; i < MAX_ENDED_TASKS_PER_SERVER + 5; i++) {
    tasks.begin(`e${i}`, 's1', 'job');
    tasks.completed(`e${i}`, { content: [] });
  }
  const s1 = tasks.list();
  assert.equal(s1.filter((t) => t.state === 'completed').length, MAX_ENDED_TASKS_PER_SERVER);
  assert.equal(s1[1]!.operationId, 'e5', 'the five oldest ended tasks went');
  assert.ok(s1.some((t) => t.operationId === 'running'));
  for (let s = 0; s < 20; s++)
    for (let i = 0; i < MAX_ENDED_TASKS_PER_SERVER; i++) {
      tasks.begin(`x${s}-${i}`, `srv${s}`, 'job');
      tasks.completed(`x${s}-${i}`, { content: [] });
    }
  assert.ok(tasks.list().length <= MAX_TASKS);
  assert.ok(tasks.has('running'), 'a running task is never dropped to make room');
});

test('N8: a huge status message or result is cut before it is told', () => {
  const { tasks } = table();
  tasks.begin('op', 's1', 'job');
  tasks.status('op', { taskId: 't'.repeat(1_000), status: 'working', message: 'm'.repeat(50_000) });
  tasks.completed('op', { content: [{ type: 'text', text: 'r'.repeat(1_000_000) }] });
  const [t] = tasks.list();
  assert.equal(t!.taskId!.length, 256);
  assert.equal(t!.preview!.length, MAX_TASK_PREVIEW + 1);
  assert.equal(TaskViewSchema.safeParse(t).success, true);
  assert.equal(resultPreview({ content: 'not an array' }), '');
  tasks.begin('op2', 's1', 'job');
  tasks.status('op2', { taskId: 't', status: 'working', message: 'm'.repeat(50_000) });
  assert.equal(tasks.list()[1]!.message!.length, MAX_TASK_MESSAGE + 1);
});

test('R6: Clear forgets the server’s ended tasks only', () => {
  const { tasks } = table();
  tasks.begin('run', 's1', 'job');
  tasks.begin('done', 's1', 'job');
  tasks.completed('done', { content: [] });
  tasks.begin('other', 's2', 'job');
  tasks.completed('other', { content: [] });
  assert.equal(tasks.clearEnded('s1'), 1);
  assert.deepEqual(
    tasks.list().map((t) => t.operationId),
    ['run', 'other'],
  );
});
