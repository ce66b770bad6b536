import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureTools, requestToolSpecs, toolLimitOf, toolSpecOf } from '../../../../src/sw/chat/tool-budget.js';
import { selectedTools, applySelection } from '../../../../src/sw/chat/tool-selection.js';
import { createToolOffer, MAX_LOADED, searchReason, toolBudget } from '../../../../src/sw/chat/tool-offer.js';
import { openAiBody } from '../../../../src/sw/chat/providers/openai.js';
import { anthropicBody } from '../../../../src/sw/chat/providers/anthropic.js';
import { SEARCH_TOOL_NAME, searchToolSpec } from '../../../../src/sw/chat/tool-search.js';
import { utf8Length } from '../../../../src/sw/use/utf8.js';
import { ChatViewSchema, type ChatEntry, type ChatView } from '../../../../src/protocol/panel-chat.js';
import type { AgentTool } from '../../../../src/sw/use/tool-registry.js';

export const agentTool = (serverId: string, toolName: string, description = `Does ${toolName}.`, title?: string): AgentTool => ({
  name: `mcp__${serverId}__${toolName}`,
  serverId,
  serverName: serverId === 'big' ? 'Big' : 'Demo',
  toolName,
  ...(title ? { title } : {}),
  description,
  jsonSchema: { type: 'object', properties: { q: { type: 'string', description: 'Ünïcode ✓ query' } } },
  effects: 'write',
  autoRetry: false,
});

const many = (n: number) => Array.from({ length: n }, (_, i) => agentTool('big', `tool_${String(i).padStart(4, '0')}`));

const chat = (over: Partial<ChatView> = {}): ChatView => ({
  id: 'c1',
  title: '',
  createdAt: 0,
  updatedAt: 0,
  disabledTools: [],
  status: 'idle',
  entries: [],
  ...over,
});

type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;
const step = (name: string, args: string): ToolEntry => ({
  kind: 'tool',
  id: 's1',
  callId: 'c1',
  name,
  arguments: args,
  status: 'running',
  startedAt: 0,
});
const ids = () => {
  let n = 0;
  return () => `id${n++}`;
};

test('the estimate is the UTF-8 size of the tools exactly as each adapter writes them into the body, ÷ 4 for tokens', () => {
  const tools = [agentTool('demo', 'echo', 'Returns “the text” it was given.'), agentTool('demo', 'add')];
  const specs = requestToolSpecs(tools, []);
  const target = { kind: 'openai' as const, baseUrl: 'http://x/v1', model: 'm' };
  const openAiSent = JSON.stringify(openAiBody(target, { turns: [], tools: specs }).tools);
  const anthropicSent = JSON.stringify(anthropicBody({ ...target, kind: 'anthropic' }, { turns: [], tools: specs }).tools);
  assert.deepEqual(measureTools('openai', specs), { bytes: utf8Length(openAiSent), tokens: Math.ceil(utf8Length(openAiSent) / 4) });
  assert.deepEqual(measureTools('anthropic', specs), {
    bytes: utf8Length(anthropicSent),
    tokens: Math.ceil(utf8Length(anthropicSent) / 4),
  });
  assert.notEqual(measureTools('openai', specs).bytes, measureTools('anthropic', specs).bytes, 'each wire format is measured as its own');
  assert.ok(utf8Length(openAiSent) > openAiSent.length, 'bytes, not UTF-16 units');
  assert.deepEqual(measureTools('builtin', specs), { bytes: 0, tokens: 0 }, 'Chrome’s model is sent no tools');
  assert.deepEqual(measureTools('openai', []), { bytes: 0, tokens: 0 });
  assert.deepEqual(toolSpecOf(tools[0]!), {
    name: 'mcp__demo__echo',
    description: 'Returns “the text” it was given.',
    inputSchema: tools[0]!.jsonSchema,
  });
});

test('the budget of a selection is what the first request of a turn offers: the selection, or the search tool above the limit', () => {
  const all = [...many(3), agentTool('demo', 'echo')];
  const small = toolBudget(all, { disabledTools: ['big:tool_0001'] }, { kind: 'openai' });
  assert.equal(small.selected, 3);
  assert.equal(small.offered, 3);
  assert.equal(small.limit, 128);
  assert.equal(small.search, undefined);
  assert.equal(small.bytes, measureTools('openai', requestToolSpecs(selectedTools(all, { disabledTools: ['big:tool_0001'] }), [])).bytes);

  const big = toolBudget(many(1000), { disabledTools: [] }, { kind: 'anthropic', toolLimit: 50 });
  assert.deepEqual([big.selected, big.offered, big.limit, big.search, big.kind], [1000, 1, 50, 'over-limit', 'anthropic']);
  assert.equal(big.bytes, measureTools('anthropic', [searchToolSpec(1000)]).bytes);
  assert.equal(toolBudget(many(2), { disabledTools: [], toolSearch: true }, undefined).search, 'chosen');
  assert.equal(toolBudget(many(2), { disabledTools: [] }, { kind: 'builtin' }).offered, 0);
});

test('selection: a switched-off server hides all its tools, a switched-off tool only itself; applying keeps unsent fields', () => {
  const all = [...many(3), agentTool('demo', 'echo'), agentTool('demo', 'add')];
  const names = (sel: Parameters<typeof selectedTools>[1]) => selectedTools(all, sel).map((t) => t.toolName);
  assert.deepEqual(names({ disabledTools: [] }), ['tool_0000', 'tool_0001', 'tool_0002', 'echo', 'add']);
  assert.deepEqual(names({ disabledTools: ['demo:add'], disabledServers: ['big'] }), ['echo']);
  assert.deepEqual(names({ disabledTools: ['big:tool_0002'] }), ['tool_0000', 'tool_0001', 'echo', 'add']);
  const c = chat({ disabledServers: ['big'], toolSearch: true });
  applySelection(c, { disabledTools: ['demo:add'] });
  assert.deepEqual([c.disabledTools, c.disabledServers, c.toolSearch], [['demo:add'], ['big'], true]);
  applySelection(c, { disabledTools: [], disabledServers: [], toolSearch: false });
  assert.deepEqual([c.disabledTools, c.disabledServers, 'toolSearch' in c], [[], [], false]);
});

test('the limit: the setting, else 128 for both kinds; tool search when chosen or above it', () => {
  assert.equal(toolLimitOf({ kind: 'openai' }), 128);
  assert.equal(toolLimitOf({ kind: 'anthropic' }), 128);
  assert.equal(toolLimitOf({ kind: 'openai', toolLimit: 20 }), 20);
  assert.equal(toolLimitOf(undefined), 128);
  assert.equal(searchReason(128, 128, false), undefined);
  assert.equal(searchReason(129, 128, undefined), 'over-limit');
  assert.equal(searchReason(3, 128, true), 'chosen');
});

test('under the limit every selected tool is offered and callable, and nothing else is', () => {
  const c = chat({ disabledTools: ['demo:add'] });
  const all = [agentTool('demo', 'echo'), agentTool('demo', 'add')];
  const offer = createToolOffer(c, { list: () => all, limit: 128, newId: ids() });
  assert.deepEqual(
    offer.tools().map((t) => t.name),
    ['mcp__demo__echo'],
  );
  assert.deepEqual(offer.specs(), []);
  assert.equal(offer.callable('mcp__demo__echo'), true);
  assert.equal(offer.callable('mcp__demo__add'), false, 'switched off for this chat');
  assert.equal(offer.callable('mcp__demo__invented'), false);
  assert.equal(offer.answer(c, step(SEARCH_TOOL_NAME, '{"query":"add"}')), false, 'no search tool when it was not offered');
  assert.deepEqual(c.entries, []);
});

test('above the limit: the search tool alone, the chat says why, and what a search finds is offered next and callable', () => {
  const c = chat();
  const all = [...many(1000), agentTool('demo', 'get_weather', 'Current weather for a city.', 'Weather')];
  const offer = createToolOffer(c, { list: () => all, limit: 128, newId: ids() });
  assert.deepEqual(offer.tools(), []);
  assert.deepEqual(
    offer.specs().map((s) => s.name),
    [SEARCH_TOOL_NAME],
  );
  assert.deepEqual(c.entries, [{ kind: 'tool-search', id: 'id0', reason: 'over-limit', offered: 1001, limit: 128 }]);
  assert.equal(offer.callable('mcp__demo__get_weather'), false, 'not before a search found it');

  const s = step(SEARCH_TOOL_NAME, '{"query":"weather in Paris"}');
  assert.equal(offer.answer(c, s), true);
  assert.equal(s.status, 'done');
  assert.match(s.result!, /^Found 1 tools for "weather in Paris"/);
  assert.deepEqual(c.entries[1], { kind: 'tools-loaded', id: 'id1', query: 'weather in Paris', tools: ['Weather · Demo'] });
  assert.equal(offer.callable('mcp__demo__get_weather'), true, 'callable in the same step');
  assert.deepEqual(
    offer.tools().map((t) => t.name),
    ['mcp__demo__get_weather'],
  );
  assert.equal(offer.tools().length + offer.specs().length <= 128, true);
  assert.equal(c.entries.length, 2, 'the "tool search is on" line is said once per run');
});

test('tool search never loads more than the limit allows, and keeps the latest finds', () => {
  const c = chat({ toolSearch: true });
  const all = many(1000);
  const limit = 5;
  const offer = createToolOffer(c, { list: () => all, limit, newId: ids() });
  offer.tools();
  for (const q of ['tool_0001 tool_0002 tool_0003', 'tool_0004 tool_0005', 'tool_0006 tool_0007 tool_0008 tool_0009']) {
    offer.answer(c, step(SEARCH_TOOL_NAME, JSON.stringify({ query: q })));
    const offered = offer.tools().length + offer.specs().length;
    assert.ok(offered <= limit, `${offered} tools offered with a limit of ${limit}`);
  }
  assert.deepEqual(
    offer.tools().map((t) => t.toolName),
    ['tool_0006', 'tool_0007', 'tool_0008', 'tool_0009'],
  );
  const line = c.entries[0];
  assert.equal(line?.kind === 'tool-search' && line.reason, 'chosen');
  const loose = createToolOffer(chat({ toolSearch: true }), { list: () => all, limit: 1000, newId: ids() });
  loose.tools();
  for (let i = 0; i < 10; i++) loose.answer(chat(), step(SEARCH_TOOL_NAME, JSON.stringify({ query: `tool ${i}` })));
  assert.ok(loose.tools().length <= MAX_LOADED);
});

test('tool search cannot reach a tool switched off for the chat, nor one the catalog no longer has', () => {
  const c = chat({ toolSearch: true, disabledTools: ['demo:delete_repo'], disabledServers: ['big'] });
  let all = [agentTool('demo', 'delete_repo', 'Deletes a repository.'), agentTool('demo', 'list_repos', 'Lists repositories.'), ...many(5)];
  const offer = createToolOffer(c, { list: () => all, limit: 128, newId: ids() });
  offer.tools();
  const s = step(SEARCH_TOOL_NAME, '{"query":"delete repository tool_0001"}');
  offer.answer(c, s);
  const hits = s.result!.split('\n').slice(1).join('\n');
  assert.doesNotMatch(hits, /delete_repo|tool_0001/);
  assert.match(s.result!, /mcp__demo__list_repos/);
  assert.equal(offer.callable('mcp__demo__delete_repo'), false);
  assert.equal(offer.callable('mcp__big__tool_0001'), false);
  all = all.filter((t) => t.toolName !== 'list_repos');
  assert.equal(offer.callable('mcp__demo__list_repos'), false, 'gone from the catalog');
  assert.deepEqual(offer.tools(), []);
});

test('a search without a query is an error the model reads; a catalog growing past the limit mid-run turns search on', () => {
  const c = chat();
  let all = many(10);
  const offer = createToolOffer(c, { list: () => all, limit: 20, newId: ids() });
  assert.equal(offer.tools().length, 10);
  all = many(30);
  assert.deepEqual(offer.tools(), []);
  assert.deepEqual(c.entries, [{ kind: 'tool-search', id: 'id0', reason: 'over-limit', offered: 30, limit: 20 }]);
  const bad = step(SEARCH_TOOL_NAME, '{"q":1}');
  assert.equal(offer.answer(c, bad), true);
  assert.equal(bad.status, 'error');
  assert.match(bad.result!, /needs its arguments as \{"query"/);
});

test('a chat with its tool selection and tool-search lines is a valid chat view; a bad line is not', () => {
  const c = chat({
    disabledServers: ['big'],
    toolSearch: true,
    entries: [
      { kind: 'tool-search', id: 'a', reason: 'over-limit', offered: 1000, limit: 128 },
      { kind: 'tools-loaded', id: 'b', query: 'weather', tools: ['Weather · Demo'] },
    ],
  });
  assert.equal(ChatViewSchema.safeParse(c).success, true);
  const bad = { ...c, entries: [{ kind: 'tool-search', id: 'a', reason: 'because', offered: 1, limit: 1 }] };
  assert.equal(ChatViewSchema.safeParse(bad).success, false);
  const long = { ...c, entries: [{ kind: 'tools-loaded', id: 'b', query: 'q'.repeat(201), tools: [] }] };
  assert.equal(ChatViewSchema.safeParse(long).success, false);
});
