/**
 * The done-when of the tool budget (T2): a thousand enabled tools never produce a provider
 * request over the tool-count limit. The whole worker side runs — the chat service, its runs, the
 * real OpenAI-compatible and Anthropic adapters over `fetch` — against the scripted provider on
 * loopback (test/support/provider-server.ts), which counts the tools of every request it receives.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChatService, type ChatServiceDeps } from '../../../../src/sw/chat/chat-service.js';
import { SEARCH_TOOL_NAME } from '../../../../src/sw/chat/tool-search.js';
import { startProviderServer, toolNamesOf, type ProviderServer, type RecordedRequest } from '../../../support/provider-server.js';
import { utf8Length } from '../../../../src/sw/use/utf8.js';
import type { ChatView, ProviderSettingsView } from '../../../../src/protocol/panel-chat.js';
import type { OpenedProvider } from '../../../../src/storage/provider-settings.js';
import type { AgentTool, AgentToolResult } from '../../../../src/sw/use/tool-registry.js';

let provider: ProviderServer;
before(async () => (provider = await startProviderServer()));
after(() => provider.close());

const tool = (serverId: string, toolName: string, description: string): AgentTool => ({
  name: `mcp__${serverId}__${toolName}`,
  serverId,
  serverName: serverId,
  toolName,
  description,
  jsonSchema: { type: 'object', properties: { text: { type: 'string' } } },
  effects: 'write',
  autoRetry: false,
});

/** 1,000 tools of one server, and the demo's `echo` and `add` on another. */
const CATALOG = [
  ...Array.from({ length: 1000 }, (_, i) => tool('big', `op_${i}`, `Operation number ${i} of the big server.`)),
  tool('demo', 'echo', 'Returns the text it was given.'),
  tool('demo', 'add', 'Adds two numbers.'),
];

function worker(stored: Map<string, ChatView>, settings: OpenedProvider) {
  const calls: string[] = [];
  let n = 0;
  const view: ProviderSettingsView = { kind: settings.kind, baseUrl: settings.baseUrl, model: settings.model, hasKey: false, maxSteps: 5 };
  if (settings.toolLimit !== undefined) view.toolLimit = settings.toolLimit;
  const deps = {
    store: {
      get: async (id: string) => structuredClone(stored.get(id)),
      put: async (c: ChatView) => void stored.set(c.id, structuredClone(c)),
      list: async () => [...stored.values()].map(({ id, title, updatedAt, status }) => ({ id, title, updatedAt, status })),
      delete: async (id: string) => stored.delete(id),
      running: async () => [...stored.values()].filter((c) => c.status === 'running').map((c) => structuredClone(c)),
    },
    providers: { opened: async () => settings, view: async () => view, save: async () => view },
    registry: {
      list: () => CATALOG.map((t) => ({ ...t })),
      peek: () => CATALOG.map((t) => ({ ...t })),
      call: async (name: string): Promise<AgentToolResult> => {
        calls.push(name);
        return {
          result: { content: [{ type: 'text', text: 'echo: hi' }] },
          forModel: 'echo: hi',
          untrusted: true,
          provenance: { serverId: 'demo', serverName: 'demo', tool: name },
          truncated: null,
          operationId: 'op',
        };
      },
    },
    fetch: (url: string, init: RequestInit) => fetch(url, init),
    languageModel: () => undefined,
    hasHostPermission: async () => true,
    onSettingsChange: () => undefined,
    push: () => undefined,
    activityChanged: () => undefined,
    newId: () => `id${n++}`,
    now: () => 5,
    clock: { now: () => 0, setTimeout: (run: () => void) => void run() },
  } as unknown as ChatServiceDeps;
  return { chat: startChatService(deps), calls };
}

const newChat = (id: string): ChatView => ({ id, title: '', createdAt: 0, updatedAt: 0, disabledTools: [], status: 'idle', entries: [] });

async function settled(service: ReturnType<typeof worker>['chat']) {
  // Waits for the run to end (the service says when none is active); no time is asserted.
  while (service.active()) await new Promise((r) => setTimeout(r, 5));
}

const counts = (requests: RecordedRequest[]) => requests.map((r) => toolNamesOf(r).length);

for (const kind of ['openai', 'anthropic'] as const) {
  test(`${kind}: 1,002 enabled tools never make a request over the limit; a search loads echo, which the model calls`, async () => {
    const stored = new Map([['c', newChat('c')]]);
    const base = kind === 'openai' ? provider.openAiBase : provider.anthropicBase;
    const w = worker(stored, { kind, baseUrl: base, model: 'm', maxSteps: 5 });
    const budget = await w.chat.handlers['panel:chat-tools']({ chatId: 'c', disabledTools: [] });
    assert.deepEqual([budget.selected, budget.offered, budget.limit, budget.search], [1002, 1, 128, 'over-limit']);
    provider.script(
      { kind: 'stream', toolCalls: [{ id: 's1', name: SEARCH_TOOL_NAME, arguments: '{"query":"echo the text"}' }] },
      { kind: 'stream', toolCalls: [{ id: 'e1', name: 'mcp__demo__echo', arguments: '{"text":"hi"}' }] },
      { kind: 'stream', text: ['It said hi.'] },
    );
    const from = provider.requests.length;
    await w.chat.handlers['panel:chat-send']({ chatId: 'c', text: 'echo hi', blocks: [], disabledTools: [] });
    await settled(w.chat);
    const requests = provider.requests.slice(from);
    assert.equal(requests.length, 3);
    for (const n of counts(requests)) assert.ok(n <= 128, `a request offered ${n} tools`);
    assert.deepEqual(toolNamesOf(requests[0]!), [SEARCH_TOOL_NAME]);
    assert.ok(toolNamesOf(requests[1]!).includes('mcp__demo__echo'), 'the found tool is offered in the next request');
    assert.deepEqual(w.calls, ['mcp__demo__echo']);
    // The estimate is the size of the first request's tools as received.
    assert.equal(budget.bytes, utf8Length(JSON.stringify(requests[0]!.body.tools)));
    const chat = stored.get('c')!;
    const loaded = chat.entries.find((e) => e.kind === 'tools-loaded');
    assert.ok(loaded && loaded.kind === 'tools-loaded' && loaded.tools.includes('echo · demo'), JSON.stringify(loaded));
    assert.ok(chat.entries.some((e) => e.kind === 'tool-search' && e.reason === 'over-limit'));
  });
}

test('a configured limit holds too, and a selection under it goes out whole, measured as received', async () => {
  const stored = new Map([['c', newChat('c')]]);
  const w = worker(stored, { kind: 'openai', baseUrl: provider.openAiBase, model: 'm', maxSteps: 5, toolLimit: 3 });
  // Every tool of `big` off, and `add`: echo alone fits the limit of 3.
  const selection = { disabledTools: ['demo:add'], disabledServers: ['big'] };
  const budget = await w.chat.handlers['panel:chat-tools']({ chatId: 'c', ...selection });
  assert.deepEqual([budget.selected, budget.offered, budget.limit, budget.search], [1, 1, 3, undefined]);
  provider.script({ kind: 'stream', text: ['ok'] });
  const from = provider.requests.length;
  await w.chat.handlers['panel:chat-send']({ chatId: 'c', text: 'hi', blocks: [], ...selection });
  await settled(w.chat);
  const [request] = provider.requests.slice(from);
  assert.deepEqual(toolNamesOf(request!), ['mcp__demo__echo']);
  assert.equal(budget.bytes, utf8Length(JSON.stringify(request!.body.tools)));

  // All servers back on: 1,002 tools, limit 3 — search plus at most two found tools.
  provider.script(
    { kind: 'stream', toolCalls: [{ id: 's1', name: SEARCH_TOOL_NAME, arguments: '{"query":"operation number"}' }] },
    { kind: 'stream', text: ['done'] },
  );
  const next = provider.requests.length;
  await w.chat.handlers['panel:chat-send']({ chatId: 'c', text: 'ops', blocks: [], disabledTools: [], disabledServers: [] });
  await settled(w.chat);
  assert.deepEqual(counts(provider.requests.slice(next)), [1, 3]);
});

test('the model cannot call a tool it was not offered: a switched-off one is refused before the registry', async () => {
  const stored = new Map([['c', newChat('c')]]);
  const w = worker(stored, { kind: 'openai', baseUrl: provider.openAiBase, model: 'm', maxSteps: 5 });
  provider.script(
    {
      kind: 'stream',
      toolCalls: [
        { id: 'x1', name: 'mcp__demo__add', arguments: '{}' },
        { id: 'x2', name: SEARCH_TOOL_NAME, arguments: '{"query":"add"}' },
      ],
    },
    { kind: 'stream', text: ['ok'] },
  );
  await w.chat.handlers['panel:chat-send']({ chatId: 'c', text: 'add', blocks: [], disabledTools: ['demo:add'], disabledServers: ['big'] });
  await settled(w.chat);
  assert.deepEqual(w.calls, []);
  const steps = stored.get('c')!.entries.filter((e) => e.kind === 'tool');
  assert.deepEqual(
    steps.map((s) => s.kind === 'tool' && [s.name, s.status]),
    [
      ['mcp__demo__add', 'error'],
      [SEARCH_TOOL_NAME, 'error'],
    ],
  );
  assert.match(steps[0]!.kind === 'tool' ? steps[0]!.result! : '', /is not offered in this chat/);
});

test('the selection is kept with the chat: a new worker over the same store applies it without the panel resending it', async () => {
  const stored = new Map([['c', newChat('c')]]);
  const first = worker(stored, { kind: 'openai', baseUrl: provider.openAiBase, model: 'm', maxSteps: 5 });
  await first.chat.handlers['panel:chat-tools']({ chatId: 'c', disabledTools: [], disabledServers: ['big'], toolSearch: false });
  assert.deepEqual(stored.get('c')!.disabledServers, ['big']);
  // The worker stopped; the next one reads the chat from the store.
  const second = worker(stored, { kind: 'openai', baseUrl: provider.openAiBase, model: 'm', maxSteps: 5 });
  const opened = await second.chat.handlers['panel:chat-open']({ chatId: 'c' });
  assert.deepEqual(opened.chat!.disabledServers, ['big']);
  provider.script({ kind: 'stream', text: ['ok'] });
  const from = provider.requests.length;
  // An older panel that sends only `disabledTools` keeps the chat's server choice.
  await second.chat.handlers['panel:chat-send']({ chatId: 'c', text: 'hi', blocks: [], disabledTools: [] });
  await settled(second.chat);
  assert.deepEqual(toolNamesOf(provider.requests[from]!), ['mcp__demo__echo', 'mcp__demo__add']);
});
