/**
 * What the chat says it is doing (T1): a step reads "waiting for your approval" exactly while its
 * card is open (the broker tells, not the registry's guess: a standing grant opens no card), then
 * "running", then its outcome; a turn shows "waiting for the model" until the first words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChat, type RunDeps } from '../../../../src/sw/chat/run-loop.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';
import type { AgentTool } from '../../../../src/sw/use/tool-registry.js';
import { ApprovalBroker, type ApprovalRequest } from '../../../../src/sw/use/approval-broker.js';
import { ApprovalStore } from '../../../../src/sw/use/approval-store.js';
import type { TurnResult } from '../../../../src/sw/chat/providers/types.js';
import { memoryArea, tool as rawTool } from '../use/fakes.js';

const echo: AgentTool = {
  name: 'mcp__demo__echo',
  serverId: 'demo',
  serverName: 'Demo',
  toolName: 'echo',
  title: 'Echo text',
  description: 'echo',
  jsonSchema: { type: 'object' },
  effects: 'write',
  autoRetry: false,
};

const chat = (): ChatView => ({
  id: 'c1',
  title: 't',
  createdAt: 0,
  updatedAt: 0,
  disabledTools: [],
  status: 'idle',
  entries: [{ kind: 'user', id: 'u1', text: 'hi', blocks: [] }],
});

const callTurn: TurnResult = {
  text: '',
  toolCalls: [{ id: 'k1', name: 'mcp__demo__echo', arguments: '{}' }],
  usage: {},
  stopReason: 'tool_calls',
};

function deps(call: RunDeps['call'], seen: string[], phases: Array<string | undefined>): RunDeps {
  const turns: TurnResult[] = [callTurn, { text: 'done', toolCalls: [], usage: {}, stopReason: 'stop' }];
  let n = 0;
  return {
    stream: async (_request, hooks) => {
      phases.push(current?.phase?.kind);
      const next = turns.shift()!;
      if (next.text) hooks.onText(next.text);
      phases.push(current?.phase?.kind);
      return next;
    },
    tools: () => [echo],
    call,
    save: async () => undefined,
    changed: (c) => {
      const step = c.entries.find((e) => e.kind === 'tool');
      if (step?.kind === 'tool' && seen.at(-1) !== step.status) seen.push(step.status);
    },
    text: () => undefined,
    newId: () => `id${n++}`,
    now: () => 1000,
    maxSteps: 5,
  };
}
let current: ChatView | undefined;

/** A registry's call through a real broker: the card opens, the test answers it, the tool runs. */
function brokerCall(broker: ApprovalBroker, answer: 'once' | 'deny' | undefined): RunDeps['call'] {
  return async (_name, _args, options) => {
    const request: ApprovalRequest = {
      serverId: 'demo',
      serverName: 'Demo',
      serverUrl: 'https://demo.example/mcp',
      tool: rawTool('echo'),
      agentName: options.agentName,
      runId: options.runId,
      arguments: {},
      ...(options.onApprovalCard ? { onCard: options.onApprovalCard } : {}),
    };
    const allowed = broker.approve(request, options.signal);
    if (answer) {
      while (!broker.pending().length) await new Promise((r) => setTimeout(r, 0));
      broker.answer(broker.pending()[0]!.id, answer);
    }
    if (!(await allowed)) throw Object.assign(new Error('denied'), { code: 'denied' });
    return {
      result: { content: [{ type: 'text', text: 'ok' }] },
      forModel: 'ok',
      untrusted: true,
      provenance: { serverId: 'demo', serverName: 'Demo', tool: 'echo' },
      truncated: null,
      operationId: 'op',
    };
  };
}

test('a step waits for approval while its card is open, then runs, then is done; named by its title', async () => {
  const broker = new ApprovalBroker(new ApprovalStore(memoryArea()), () => 'ap1');
  const seen: string[] = [];
  const phases: Array<string | undefined> = [];
  current = chat();
  await runChat(current, deps(brokerCall(broker, 'once'), seen, phases), new AbortController().signal);
  assert.deepEqual(seen, ['running', 'waiting-approval', 'running', 'done']);
  const step = current.entries.find((e) => e.kind === 'tool');
  assert.equal(step?.kind === 'tool' && step.toolTitle, 'Echo text');
  // Waiting for the model until its first words in each turn (a turn of only tool calls has none:
  // it waits until the stream ends); nothing is left once the run ends.
  assert.deepEqual(phases, ['waiting-model', 'waiting-model', 'waiting-model', undefined]);
  assert.equal(current.phase, undefined);
});

test('a denied card ends the step denied; a standing grant opens no card and never says "waiting for your approval"', async () => {
  const denied: string[] = [];
  current = chat();
  await runChat(
    current,
    deps(brokerCall(new ApprovalBroker(new ApprovalStore(memoryArea()), () => 'ap2'), 'deny'), denied, []),
    new AbortController().signal,
  );
  assert.deepEqual(denied, ['running', 'waiting-approval', 'running', 'denied']);

  const store = new ApprovalStore(memoryArea());
  await store.grant('demo', rawTool('echo'), 'https://demo.example/mcp');
  const granted: string[] = [];
  current = chat();
  await runChat(current, deps(brokerCall(new ApprovalBroker(store, () => 'ap3'), undefined), granted, []), new AbortController().signal);
  assert.deepEqual(granted, ['running', 'done']);
});
