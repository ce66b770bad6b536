import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentResultOf, approvalRequestOf } from '../../../../src/sw/use/tool-registry.js';
import { TEXT_BUDGET_BYTES } from '../../../../src/sw/use/truncate.js';
import { server, tool } from './fakes.js';

const search = tool('search');
const entry = {
  server: server('gh', [search]),
  raw: search,
  tool: {
    name: 'mcp__gh__search',
    serverId: 'gh',
    serverName: 'GH',
    toolName: 'search',
    description: '',
    jsonSchema: {},
    effects: 'write' as const,
    autoRetry: false as const,
  },
};

test('the approval card of an agent call names the server, the tool, the agent ("Agent" when unnamed) and the arguments', () => {
  assert.deepEqual(approvalRequestOf(entry, { q: 'x' }, {}), {
    serverId: 'gh',
    serverName: 'GH',
    serverUrl: 'https://gh.example/mcp',
    tool: search,
    agentName: 'Agent',
    arguments: { q: 'x' },
  });
  const named = approvalRequestOf(entry, {}, { agentName: 'Chat', runId: 'run_1' });
  assert.equal(named.agentName, 'Chat');
  assert.equal(named.runId, 'run_1');
});

test('an agent result is cut to the budget, fenced with its provenance, and has no view copy without a view', () => {
  const big = 'a'.repeat(TEXT_BUDGET_BYTES + 10);
  const r = agentResultOf(entry, { content: [{ type: 'text', text: big }] }, 'op_1');
  assert.equal(r.operationId, 'op_1');
  assert.equal(r.untrusted, true);
  assert.deepEqual(r.provenance, { serverId: 'gh', serverName: 'GH', tool: 'search' });
  assert.ok(r.truncated && r.truncated.cutBytes >= 10);
  const text = (r.result.content[0] as unknown as { text: string }).text;
  assert.match(text, /^Result of tool "search" from MCP server "GH" \(id gh\)/);
  assert.match(text, /truncated/);
  assert.equal(r.forView, undefined);
});

test('a tool with a view also gets the cut result unfenced for its view', () => {
  const withView = tool('chart', { _meta: { ui: { resourceUri: 'ui://chart' } } });
  const r = agentResultOf({ server: entry.server, raw: withView }, { content: [{ type: 'text', text: 'hi' }] }, 'op_2');
  assert.deepEqual(r.forView, { content: [{ type: 'text', text: 'hi' }] });
  assert.notEqual((r.result.content[0] as unknown as { text: string }).text, 'hi');
});
