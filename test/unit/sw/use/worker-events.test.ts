import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressPush, serverOfConnection, useEventListener } from '../../../../src/sw/use/worker-events.js';
import type { OffscreenEvent } from '../../../../src/protocol/offscreen.js';
import type { UsePanelPush } from '../../../../src/protocol/panel-use.js';
import { server } from './fakes.js';

test('progress is pushed without its connection, total and message only when given', () => {
  assert.deepEqual(progressPush({ type: 'offscreen:progress', connectionId: 'c1', operationId: 'op_1', progress: 3 }), {
    type: 'panel:progress',
    operationId: 'op_1',
    progress: 3,
  });
  assert.deepEqual(
    progressPush({ type: 'offscreen:progress', connectionId: 'c1', operationId: 'op_1', progress: 3, total: 10, message: 'half' }),
    { type: 'panel:progress', operationId: 'op_1', progress: 3, total: 10, message: 'half' },
  );
});

test("questions go to the elicitations, a runner call's progress to the panels, other events to neither", async () => {
  const asked: OffscreenEvent[] = [];
  const pushed: UsePanelPush[] = [];
  const listen = useEventListener(
    { onEvent: async (e) => void asked.push(e) },
    (m) => pushed.push(m),
    (operationId) => operationId === 'op_1',
  );
  const question = { type: 'offscreen:elicitation' } as unknown as OffscreenEvent;
  listen(question);
  listen({ type: 'offscreen:progress', connectionId: 'c1', operationId: 'op_1', progress: 1 });
  // An agent's call: no panel shows its progress, so none is pushed (H1, N5).
  for (let i = 0; i < 100; i++) listen({ type: 'offscreen:progress', connectionId: 'c1', operationId: 'op_agent', progress: i });
  listen({ type: 'offscreen:session-lost', connectionId: 'c1', error: { code: 'network', message: 'gone' } });
  await Promise.resolve();
  assert.deepEqual(asked, [question]);
  assert.deepEqual(pushed, [{ type: 'panel:progress', operationId: 'op_1', progress: 1 }]);
});

test('a connection id names the server whose ready connection it is, and no other', () => {
  const states = new Map<string, unknown>([
    ['a', { status: 'ready', connectionId: 'c_a' }],
    ['b', { status: 'connecting', attempt: 1 }],
  ]);
  const manager = { views: () => [server('a', []), server('b', [])], state: (id: string) => states.get(id) as never };
  assert.deepEqual(serverOfConnection(manager, 'c_a'), { serverId: 'a', serverName: 'A' });
  assert.equal(serverOfConnection(manager, 'c_b'), undefined);
});
