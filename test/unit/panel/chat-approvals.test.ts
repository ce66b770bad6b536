/**
 * Chat approvals are matched by run (section P): the chat passes its id as the call's `runId`, the
 * broker puts it on the card, and each chat shows only the cards of its own run — two chats running
 * at once, or a chat and another agent that also calls itself "Chat", never take each other's cards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentToolRegistry } from '../../../src/sw/use/tool-registry.js';
import { ApprovalBroker } from '../../../src/sw/use/approval-broker.js';
import type { ApprovalStore } from '../../../src/sw/use/approval-store.js';
import type { ApprovalView } from '../../../src/protocol/panel-use.js';
import { approvalsForChat, isChatApproval } from '../../../src/panel/chat-approvals.js';
import { server, tool } from '../sw/use/fakes.js';

function setUp() {
  let n = 0;
  const store = { isAlwaysAllowed: async () => false, grant: async () => undefined } as unknown as ApprovalStore;
  const broker = new ApprovalBroker(store, () => `a${n++}`);
  let cards: ApprovalView[] = [];
  broker.onChange((list) => (cards = list));
  const registry = new AgentToolRegistry({
    views: () => [server('demo', [tool('echo')])],
    wakeLazyServers: () => undefined,
    onChange: () => () => undefined,
    callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    cancel: async () => undefined,
    approve: (request, signal) => broker.approve(request, signal),
    newOperationId: () => `op${n++}`,
  });
  return { broker, registry, cards: () => cards };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(check());
};

test('two chats and another agent named "Chat": each chat sees only its own run’s card, answering one settles only that call', async () => {
  const h = setUp();
  const a = h.registry.call('mcp__demo__echo', '{}', { agentName: 'Chat', runId: 'chat-a' });
  const b = h.registry.call('mcp__demo__echo', '{}', { agentName: 'Chat', runId: 'chat-b' });
  const other = h.registry.call('mcp__demo__echo', '{}', { agentName: 'Chat' });
  await until(() => h.cards().length === 3);

  const forA = approvalsForChat(h.cards(), 'chat-a');
  const forB = approvalsForChat(h.cards(), 'chat-b');
  assert.deepEqual(
    forA.own.map((c) => c.runId),
    ['chat-a'],
  );
  assert.deepEqual(forA.otherChats, ['chat-b']);
  assert.deepEqual(
    forB.own.map((c) => c.runId),
    ['chat-b'],
  );
  assert.deepEqual(forB.otherChats, ['chat-a']);
  // The other agent's card has no run: no chat shows it, the panel's general list does.
  const general = h.cards().filter((c) => !isChatApproval(c));
  assert.equal(general.length, 1);
  assert.equal(general[0]!.runId, undefined);
  assert.deepEqual(approvalsForChat(h.cards(), undefined).own, []);

  h.broker.answer(forB.own[0]!.id, 'deny');
  await assert.rejects(b, (e: { code?: string }) => e.code === 'denied');
  assert.deepEqual(
    approvalsForChat(h.cards(), 'chat-a').own.map((c) => c.runId),
    ['chat-a'],
  );
  assert.deepEqual(approvalsForChat(h.cards(), 'chat-a').otherChats, []);
  h.broker.answer(forA.own[0]!.id, 'once');
  assert.equal((await a).provenance.tool, 'echo');
  h.broker.answer(general[0]!.id, 'once');
  await other;
});

test('a card left by a stopped worker ("gone") stays with its own chat and does not send other chats to it', () => {
  const gone: ApprovalView = {
    id: 'g',
    serverId: 'demo',
    serverName: 'Demo',
    tool: 'echo',
    agentName: 'Chat',
    runId: 'chat-a',
    argumentsJson: '{}',
    requestedAt: 1,
    status: 'gone',
  };
  assert.deepEqual(
    approvalsForChat([gone], 'chat-a').own.map((c) => c.id),
    ['g'],
  );
  assert.deepEqual(approvalsForChat([gone], 'chat-b'), { own: [], otherChats: [] });
});
