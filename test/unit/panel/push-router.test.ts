/**
 * The panel's push router: every push type the worker sends reaches exactly its one handler, parsed
 * once with the schema of its `type`; a push of an unknown type or one that fails its schema is
 * counted and logged, and no handler sees it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PanelPushSchemas, type PanelState } from '../../../src/protocol/panel.js';
import type { ChatView } from '../../../src/protocol/panel-chat.js';
import { PushRouter, type PushHandlers, type PushSchema } from '../../../src/panel/push-router.js';

type Schemas = typeof PanelPushSchemas;
type Type = keyof Schemas;

const state: PanelState = { servers: [], configErrors: [] };
const chat: ChatView = { id: 'c1', title: 'Hello', createdAt: 1, updatedAt: 2, disabledTools: [], status: 'idle', entries: [] };

/** One well-formed push of every type the worker sends a panel, and the fields its handler gets. */
const SAMPLES: { [K in Type]: Record<string, unknown> } = {
  'panel:state': { state },
  'panel:approvals': { approvals: [] },
  'panel:elicitations': { elicitations: [] },
  'panel:progress': { operationId: 'op1', progress: 3, total: 10, message: 'half way' },
  'panel:tasks': { tasks: [{ operationId: 'op2', serverId: 's1', tool: 'research', state: 'working', startedAt: 1 }] },
  'panel:chat': { chat },
  'panel:chat-text': { chatId: 'c1', entryId: 'e1', text: 'Hi' },
  'panel:chat-tool-result': { chatId: 'c1', entryId: 'e2', result: { content: [{ type: 'text', text: 'ok' }] } },
  'panel:chat-deleted': { chatId: 'c1' },
  'panel:activity-changed': { what: 'grants' },
};
const TYPES = Object.keys(PanelPushSchemas) as Type[];

/** The real schemas, each counting how often it parses. */
function countingSchemas() {
  const parses = new Map<string, number>();
  const schemas = Object.fromEntries(
    TYPES.map((type) => [
      type,
      {
        safeParse(value: unknown) {
          parses.set(type, (parses.get(type) ?? 0) + 1);
          return PanelPushSchemas[type].safeParse(value);
        },
      },
    ]),
  ) as { [K in Type]: PushSchema<ReturnType<Schemas[K]['parse']>> };
  return { schemas, parses };
}

/** A handler per type that records what it was given. */
function recordingHandlers() {
  const calls: { type: Type; push: unknown }[] = [];
  const handlers = Object.fromEntries(
    TYPES.map((type) => [type, (push: unknown) => calls.push({ type, push })]),
  ) as unknown as PushHandlers<Schemas>;
  return { handlers, calls };
}

function setUp() {
  const { schemas, parses } = countingSchemas();
  const { handlers, calls } = recordingHandlers();
  const logged: string[] = [];
  const router = new PushRouter(schemas, handlers, (m) => logged.push(m));
  return { router, parses, calls, logged };
}

test('the table declares every push type the worker sends a panel, once', () => {
  assert.deepEqual([...TYPES].sort(), Object.keys(SAMPLES).sort());
  assert.equal(TYPES.length, 10);
});

for (const type of TYPES) {
  test(`${type} reaches its one handler, parsed once with its own schema`, () => {
    const { router, parses, calls, logged } = setUp();
    router.route({ type, ...SAMPLES[type] });
    assert.deepEqual(
      calls.map((c) => c.type),
      [type],
    );
    // The handler gets the push's fields as its schema parsed them (the `type` is the table's key).
    assert.deepEqual(calls[0]!.push, SAMPLES[type]);
    assert.deepEqual([...parses], [[type, 1]]);
    assert.deepEqual(logged, []);
    assert.equal(router.unknown + router.malformed, 0);
  });
}

test('a push of an unknown type is counted and logged, and no handler or schema sees it', () => {
  const { router, parses, calls, logged } = setUp();
  router.route({ type: 'panel:nonsense', state });
  router.route({ type: 'constructor' });
  router.route({ state });
  router.route(null);
  router.route('panel:state');
  assert.equal(router.unknown, 5);
  assert.equal(router.malformed, 0);
  assert.deepEqual(calls, []);
  assert.equal(parses.size, 0);
  assert.equal(logged.length, 5);
  assert.match(logged[0]!, /unknown type "panel:nonsense" \(1 so far\)/);
  assert.match(logged[1]!, /unknown type "constructor" \(2 so far\)/);
  assert.match(logged[2]!, /unknown type \(undefined\) \(3 so far\)/);
  assert.match(logged[3]!, /unknown type \(undefined\) \(4 so far\)/);
});

test('a push that fails the schema of its type is counted and logged, and its handler is not called', () => {
  const { router, parses, calls, logged } = setUp();
  router.route({ type: 'panel:chat-text', chatId: 'c1', entryId: 'e1' });
  router.route({ type: 'panel:activity-changed', what: 'everything' });
  router.route({ type: 'panel:state', state: { servers: 'none' } });
  assert.equal(router.malformed, 3);
  assert.equal(router.unknown, 0);
  assert.deepEqual(calls, []);
  assert.deepEqual(
    [...parses],
    [
      ['panel:chat-text', 1],
      ['panel:activity-changed', 1],
      ['panel:state', 1],
    ],
  );
  assert.deepEqual(logged, [
    '[panel] dropped a malformed panel:chat-text push (1 so far)',
    '[panel] dropped a malformed panel:activity-changed push (2 so far)',
    '[panel] dropped a malformed panel:state push (3 so far)',
  ]);
});

test('a dropped push does not stop the next one', () => {
  const { router, calls } = setUp();
  router.route({ type: 'panel:chat-deleted' });
  router.route({ type: 'panel:chat-deleted', chatId: 'c1' });
  assert.deepEqual(calls, [{ type: 'panel:chat-deleted', push: { chatId: 'c1' } }]);
});

test('without a log function the router warns on the console', (t) => {
  const warn = t.mock.method(console, 'warn', () => undefined);
  const router = new PushRouter(PanelPushSchemas, recordingHandlers().handlers);
  router.route({ type: 'panel:unknown' });
  assert.equal(warn.mock.callCount(), 1);
  assert.match(String(warn.mock.calls[0]!.arguments[0]), /dropped a push of unknown type "panel:unknown"/);
});
