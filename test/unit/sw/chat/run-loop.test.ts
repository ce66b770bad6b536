import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CANCELLED_RESULT, DENIED_RESULT, runChat, turnsOf, type RunDeps } from '../../../../src/sw/chat/run-loop.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';
import type { AgentTool, AgentToolResult } from '../../../../src/sw/use/tool-registry.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { say } from '../../../../src/protocol/wording.js';
import { ProviderError, type TurnRequest, type TurnResult } from '../../../../src/sw/chat/providers/types.js';

const tool = (name: string, toolName: string): AgentTool => ({
  name,
  serverId: 'demo',
  serverName: 'Demo',
  toolName,
  description: toolName,
  jsonSchema: { type: 'object', properties: { x: { type: 'string' } } },
  effects: 'write',
  autoRetry: false,
});

const chat = (): ChatView => ({
  id: 'c1',
  title: 't',
  createdAt: 0,
  updatedAt: 0,
  disabledTools: [],
  status: 'idle',
  entries: [{ kind: 'user', id: 'u1', text: 'hi', blocks: [{ label: '@x', text: 'BLOCK' }] }],
});

function deps(turns: Array<TurnResult | Error>, call: RunDeps['call'], over: Partial<RunDeps> = {}) {
  const requests: TurnRequest[] = [];
  let n = 0;
  const d: RunDeps = {
    stream: async (request, hooks) => {
      requests.push(structuredClone(request));
      const next = turns.shift() ?? { text: 'end', toolCalls: [], usage: {}, stopReason: 'stop' };
      if (next instanceof Error) throw next;
      if (next.text) hooks.onText(next.text);
      return next;
    },
    tools: () => [tool('mcp__demo__echo', 'echo'), tool('mcp__demo__add', 'add')],
    call,
    save: async () => undefined,
    changed: () => undefined,
    text: () => undefined,
    newId: () => `id${n++}`,
    now: () => 1000,
    maxSteps: 20,
    ...over,
  };
  return { d, requests };
}

const ok = (text: string): AgentToolResult => ({
  result: { content: [{ type: 'text', text }] },
  untrusted: true,
  provenance: { serverId: 'demo', serverName: 'Demo', tool: 'echo' },
  truncated: null,
  operationId: 'op',
  forModel: text,
});

const callsTurn = (...names: string[]): TurnResult => ({
  text: '',
  toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: '{"x":"1"}' })),
  usage: { inputTokens: 1, outputTokens: 2 },
  stopReason: 'tool_calls',
});

test('tool calls run (in parallel), their results go back, and the final answer ends the run', async () => {
  let inFlight = 0;
  let most = 0;
  const { d, requests } = deps(
    [callsTurn('mcp__demo__echo', 'mcp__demo__add'), { text: 'done', toolCalls: [], usage: {}, stopReason: 'stop' }],
    async (name) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return ok(`fenced ${name}`);
    },
  );
  const c = chat();
  await runChat(c, d, new AbortController().signal);
  assert.equal(most, 2);
  assert.equal(c.status, 'idle');
  assert.deepEqual(
    c.entries.map((e) => e.kind),
    ['user', 'assistant', 'tool', 'tool', 'assistant'],
  );
  assert.equal(requests.length, 2);
  assert.deepEqual(requests[0]!.turns[0], { role: 'user', text: 'hi\n\nBLOCK' });
  assert.deepEqual(requests[0]!.tools[0]!.inputSchema, { type: 'object', properties: { x: { type: 'string' } } });
  const toolTurns = requests[1]!.turns.filter((t) => t.role === 'tool');
  assert.deepEqual(
    toolTurns.map((t) => t.role === 'tool' && t.content),
    ['fenced mcp__demo__echo', 'fenced mcp__demo__add'],
  );
});

test('a denied call tells the model "denied by the user"; the call asked as this chat’s run', async () => {
  const asked: unknown[] = [];
  const { d, requests } = deps([callsTurn('mcp__demo__echo')], async (_name, _args, options) => {
    asked.push({ agentName: options.agentName, runId: options.runId });
    throw new RemoteError({ code: 'denied', message: 'no' });
  });
  const c = chat();
  await runChat(c, d, new AbortController().signal);
  assert.deepEqual(asked, [{ agentName: 'Chat', runId: 'c1' }]);
  const step = c.entries.find((e) => e.kind === 'tool');
  assert.equal(step?.kind === 'tool' && step.status, 'denied');
  const sent = requests[1]!.turns.find((t) => t.role === 'tool');
  assert.ok(sent?.role === 'tool' && sent.content === DENIED_RESULT && /denied by the user/.test(sent.content));
});

test('Stop during a tool call cancels it and ends with a "stopped" notice; the provider is not asked again', async () => {
  const controller = new AbortController();
  const { d, requests } = deps([callsTurn('mcp__demo__echo')], (_n, _a, { signal }) => {
    setTimeout(() => controller.abort(), 5);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new RemoteError({ code: 'cancelled', message: 'x' }))));
  });
  const c = chat();
  await runChat(c, d, controller.signal);
  assert.equal(requests.length, 1);
  const step = c.entries.find((e) => e.kind === 'tool');
  assert.equal(step?.kind === 'tool' && step.result, CANCELLED_RESULT);
  const last = c.entries.at(-1)!;
  assert.equal(last.kind === 'notice' && last.notice, 'stopped');
});

test('a provider error becomes an error entry in plain words', async () => {
  const { d } = deps([new ProviderError('invalid-key', say('reasonChatKeyRefused', { status: 401 }), 401)], async () => ok(''));
  const c = chat();
  await runChat(c, d, new AbortController().signal);
  assert.deepEqual(
    c.entries.map((e) => e.kind),
    ['user', 'error'],
  );
  const err = c.entries[1]!;
  assert.equal(err.kind === 'error' && err.errorKind, 'invalid-key');
});

test('the step limit ends a run that keeps calling tools', async () => {
  const { d, requests } = deps(
    [callsTurn('mcp__demo__echo'), callsTurn('mcp__demo__echo'), callsTurn('mcp__demo__echo')],
    async () => ok('r'),
    {
      maxSteps: 2,
    },
  );
  const c = chat();
  await runChat(c, d, new AbortController().signal);
  assert.equal(requests.length, 2);
  assert.deepEqual(c.entries.at(-1), { kind: 'notice', id: c.entries.at(-1)!.id, notice: 'step-limit' });
});

test('turnsOf skips notices and errors and marks a failed step as an error result', () => {
  const turns = turnsOf([
    { kind: 'user', id: 'a', text: 'q', blocks: [] },
    { kind: 'error', id: 'b', errorKind: 'network', message: 'x' },
    { kind: 'assistant', id: 'c', text: '', toolCalls: [{ id: 't', name: 'n', arguments: '{}' }] },
    { kind: 'tool', id: 'd', callId: 't', name: 'n', arguments: '{}', status: 'denied', result: DENIED_RESULT, startedAt: 0 },
    { kind: 'notice', id: 'e', notice: 'stopped' },
  ]);
  assert.deepEqual(
    turns.map((t) => t.role),
    ['user', 'assistant', 'tool'],
  );
  assert.equal(turns[2]!.role === 'tool' && turns[2]!.isError, true);
});

test('a step records its server, and a result for an MCP App view is handed on (not stored) while the model gets the fenced text', async () => {
  const given: Array<[string, unknown]> = [];
  const forView = { content: [{ type: 'text', text: 'raw' }] };
  const { d } = deps([callsTurn('mcp__demo__echo')], async () => ({ ...ok('fenced'), forView }), {
    viewResult: (_c, entryId, result) => given.push([entryId, result]),
  });
  const c = chat();
  await runChat(c, d, new AbortController().signal);
  const step = c.entries.find((e) => e.kind === 'tool')!;
  assert.equal(step.kind === 'tool' && step.serverId, 'demo');
  assert.equal(step.kind === 'tool' && step.result, 'fenced');
  assert.deepEqual(given, [[step.id, forView]]);
  assert.doesNotMatch(JSON.stringify(c), /raw/);
});
