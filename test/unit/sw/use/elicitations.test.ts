import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from '../../storage/helpers.js';
import { InteractionStore } from '../../../../src/storage/interaction-store.js';
import { Elicitations, FAILED_KEY, RESTART_REASON, type ElicitationDeps } from '../../../../src/sw/use/elicitations.js';
import type { ElicitationView } from '../../../../src/protocol/panel-use.js';

beforeEach(freshIndexedDb);

/** chrome.storage.session cannot run in Node: a map with its get/set shape. */
const sessionArea = () => {
  const data: Record<string, unknown> = {};
  return {
    data,
    get: async (k: string) => (k in data ? { [k]: data[k] } : {}),
    set: async (items: Record<string, unknown>) => void Object.assign(data, items),
  };
};

function setUp(overrides: Partial<ElicitationDeps> = {}, session = sessionArea()) {
  const sent: unknown[] = [];
  const pushes: ElicitationView[][] = [];
  const reruns: unknown[] = [];
  const deps: ElicitationDeps = {
    store: new InteractionStore(),
    session,
    request: (async (method: string, params: unknown) => {
      sent.push({ method, params });
      return { delivered: true };
    }) as ElicitationDeps['request'],
    serverOf: (c) => (c === 'conn1' ? { serverId: 'demo', serverName: 'Demo' } : undefined),
    serverName: () => 'Demo',
    callOf: (op) => (op === 'op1' ? { tool: 'book', arguments: { place: 'Lisbon' } } : undefined),
    callTool: async (...args) => {
      reruns.push(args);
      return { content: [{ type: 'text', text: 'ran' }] };
    },
    push: (v) => pushes.push(v),
    newId: () => 'newop',
    ...overrides,
  };
  return { e: new Elicitations(deps), sent, pushes, reruns, session };
}

const event = (elicitationId: string, connectionId = 'conn1') => ({
  type: 'offscreen:elicitation' as const,
  connectionId,
  operationId: 'op1',
  elicitationId,
  message: 'Sure?',
  requestedSchema: { type: 'object', properties: {} },
});

test('a question is stored before it is pushed, and answered exactly once', async () => {
  const { e, sent, pushes } = setUp();
  await e.onEvent(event('q1'));
  assert.deepEqual(
    pushes.at(-1)!.map((v) => [v.id, v.status, v.tool, v.canRerun, v.operationId]),
    [['q1', 'pending', 'book', true, 'op1']],
    'the operationId names the call, so the panel shows the card next to the runner that started it',
  );
  assert.deepEqual(await e.answer({ interactionId: 'q1', action: 'accept', content: { n: 1 } }), { delivered: true });
  assert.deepEqual(await e.answer({ interactionId: 'q1', action: 'decline' }), { delivered: false });
  assert.deepEqual(sent, [
    { method: 'offscreen:answer-elicitation', params: { elicitationId: 'q1', action: 'accept', content: { n: 1 } } },
  ]);
  assert.deepEqual(pushes.at(-1), []);
});

test('a question from a connection that is not current is declined at once, never shown', async () => {
  const { e, sent, pushes } = setUp();
  await e.onEvent(event('q2', 'stale'));
  assert.deepEqual(sent, [{ method: 'offscreen:answer-elicitation', params: { elicitationId: 'q2', action: 'decline' } }]);
  assert.equal(pushes.length, 0);
});

test('after a worker restart an open question is failed with the reason, and re-run happens once', async () => {
  const session = sessionArea();
  const first = setUp({}, session);
  await first.e.onEvent(event('q3'));
  const second = setUp({}, session);
  const views = await second.e.views();
  assert.deepEqual(
    views.map((v) => [v.id, v.status, v.reason]),
    [['q3', 'failed', RESTART_REASON]],
  );
  assert.deepEqual(session.data[FAILED_KEY], ['q3']);
  const r = await second.e.rerun({ interactionId: 'q3', confirmSafe: true });
  assert.deepEqual(r.content, [{ type: 'text', text: 'ran' }]);
  assert.deepEqual(second.reruns, [['demo', 'book', { place: 'Lisbon' }, 'newop']]);
  await assert.rejects(second.e.rerun({ interactionId: 'q3', confirmSafe: true }), /cannot be re-run/);
  assert.equal(second.reruns.length, 1);
  assert.deepEqual(await second.e.views(), []);
});

test('a call cancelled here while its question is open expires the question', async () => {
  const { e, pushes } = setUp();
  assert.equal(e.asked('op1'), false, 'a call that asked nothing has nothing to expire');
  await e.onEvent(event('q4'));
  assert.equal(e.asked('op1'), true);
  await e.callEnded('op1', Object.assign(new Error('Cancelled.'), { code: 'cancelled' }));
  assert.equal(e.asked('op1'), false);
  assert.deepEqual(pushes.at(-1), []);
  assert.deepEqual(await e.answer({ interactionId: 'q4', action: 'accept' }), { delivered: false });
});

test('a server that ends the call while its question is open stopped waiting: the card stays and says after how long', async () => {
  let now = 1_000_000;
  const { e, pushes } = setUp({ store: new InteractionStore({ now: () => now }) });
  await e.onEvent(event('q5'));
  assert.equal(pushes.at(-1)![0]!.askedAt, 1_000_000, 'an open card knows since when it waits');
  now += 60_400;
  // The server's own timeout ends the call with its error result ("MCP error -32001: Request timed out").
  await e.callEnded('op1');
  const [card] = pushes.at(-1)!;
  assert.deepEqual([card!.id, card!.status, card!.stoppedAfterSec, card!.canRerun], ['q5', 'failed', 60, true]);
  assert.doesNotMatch(card!.reason ?? '', /-32001|timed out/i, 'plain words, not the raw MCP error');
  assert.deepEqual(await e.answer({ interactionId: 'q5', action: 'accept' }), { delivered: false });
  // Listed until dismissed, like any failed question.
  assert.deepEqual(
    (await e.views()).map((v) => v.id),
    ['q5'],
  );
  assert.deepEqual(await e.dismiss({ interactionId: 'q5' }), { dismissed: true });
  assert.deepEqual(await e.views(), []);
});

test('a server error ending the call is the server giving up too; a lost connection or the question limit is not', async () => {
  const { e, pushes } = setUp();
  await e.onEvent(event('q6'));
  await e.callEnded('op1', Object.assign(new Error('Internal error'), { code: 'protocol' }));
  assert.equal(pushes.at(-1)![0]!.stoppedAfterSec, 0);
  for (const code of ['network', 'timeout', 'session-lost']) {
    const other = setUp();
    await other.e.onEvent(event(`q-${code}`));
    await other.e.callEnded('op1', Object.assign(new Error(code), { code }));
    assert.deepEqual(other.pushes.at(-1), [], `${code}: the call's own error explains it`);
  }
});
