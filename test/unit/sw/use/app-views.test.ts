import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appViewHandlers, type AppViewsDeps } from '../../../../src/sw/use/app-views.js';
import { AgentToolRegistry } from '../../../../src/sw/use/tool-registry.js';
import type { ApprovalRequest } from '../../../../src/sw/use/approval-broker.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { server, tool } from './fakes.js';

const VIEW = 'ui://demo/view.html';
const views = () => [
  server('demo', [
    tool('show', { _meta: { ui: { resourceUri: VIEW } } }),
    tool('refresh', { _meta: { ui: { visibility: ['app'] } }, annotations: { readOnlyHint: true } }),
    tool('save', { _meta: { ui: { visibility: ['app'] } } }),
    tool('model-only', { _meta: { ui: { visibility: ['model'] } } }),
    tool('legacy', { _meta: { 'ui/resourceUri': VIEW } }),
  ]),
];

function harness(answer: (r: ApprovalRequest, signal: AbortSignal) => Promise<boolean> = async () => true) {
  const approvals: ApprovalRequest[] = [];
  const calls: string[] = [];
  const reads: string[] = [];
  const ended: string[] = [];
  let contents: unknown[] = [
    {
      uri: VIEW,
      mimeType: 'text/html;profile=mcp-app',
      text: '<p>hi</p>',
      _meta: { ui: { csp: { connectDomains: ['https://api.example'] } } },
    },
  ];
  const deps: AppViewsDeps = {
    views,
    live: async () => ({ connectionId: 'c1' }),
    request: (async (_m: string, p: { uri: string }) => {
      reads.push(p.uri);
      return { contents };
    }) as AppViewsDeps['request'],
    callTool: async (_s, name, _a, operationId) => {
      calls.push(`${name}:${operationId}`);
      return { content: [{ type: 'text', text: 'x'.repeat(200_000) }] };
    },
    approve: async (r, signal) => {
      approvals.push(r);
      return answer(r, signal);
    },
    endViewSession: async (id) => void ended.push(id),
  };
  return { app: appViewHandlers(deps), approvals, calls, reads, ended, setContents: (c: unknown[]) => (contents = c) };
}

const call = (tool: string, operationId = 'op1') => ({ serverId: 'demo', viewTool: 'show', tool, arguments: {}, operationId });

test('the view of a tool is its ui:// resource of the MCP App MIME type, with its declared CSP', async () => {
  const h = harness();
  const view = await h.app.handlers['panel:app-view']({ serverId: 'demo', tool: 'show' });
  assert.equal(view.html, '<p>hi</p>');
  assert.deepEqual(view.meta.csp?.connectDomains, ['https://api.example']);
  assert.deepEqual(h.reads, [VIEW]);
  // The deprecated flat key names a view too.
  assert.equal((await h.app.handlers['panel:app-view']({ serverId: 'demo', tool: 'legacy' })).html, '<p>hi</p>');
  await assert.rejects(h.app.handlers['panel:app-view']({ serverId: 'demo', tool: 'save' }), /has no view/);
  h.setContents([{ uri: VIEW, mimeType: 'text/html', text: '<p>plain</p>' }]);
  await assert.rejects(h.app.handlers['panel:app-view']({ serverId: 'demo', tool: 'show' }), /no view \(text\/html;profile=mcp-app\)/);
});

test("U1: every call of a view waits for the user's approval; a read-only claim does not spare the card", async () => {
  const h = harness();
  await h.app.handlers['panel:app-call-tool'](call('save'));
  assert.equal(h.approvals.length, 1);
  assert.equal(h.approvals[0]!.tool.name, 'save');
  assert.equal(h.approvals[0]!.agentName, 'The view of "show"');
  assert.deepEqual(
    h.approvals[0]!.agentWording,
    { code: 'reasonAgentView', params: { tool: 'show' } },
    'named in the user’s language on the card',
  );
  await h.app.handlers['panel:app-call-tool']({ ...call('refresh', 'op2'), viewSession: 'view-session-1' });
  assert.equal(h.approvals.length, 2, 'readOnlyHint: true still asks');
  assert.equal(h.approvals[1]!.viewSession, 'view-session-1', 'the card can offer the per-view grant');
  assert.equal(h.approvals[0]!.viewSession, undefined);
  assert.deepEqual(h.calls, ['save:op1', 'refresh:op2']);
});

test("U1: a view's close ends its session's grants", async () => {
  const h = harness();
  assert.deepEqual(await h.app.handlers['panel:app-view-closed']({ viewSession: 'view-session-1' }), {});
  assert.deepEqual(h.ended, ['view-session-1']);
});

test('a view cannot call model-only or unknown tools, nor tools of a denied approval; results are cut to the budget', async () => {
  const h = harness(async (r) => r.tool.name !== 'show');
  await assert.rejects(h.app.handlers['panel:app-call-tool'](call('model-only')), /not callable from a view/);
  await assert.rejects(h.app.handlers['panel:app-call-tool'](call('nope')), /No enabled tool/);
  await assert.rejects(h.app.handlers['panel:app-call-tool']({ ...call('save'), viewTool: 'save' }), /has no view/);
  await assert.rejects(h.app.handlers['panel:app-call-tool'](call('show')), (e) => e instanceof RemoteError && e.code === 'denied');
  const r = await h.app.handlers['panel:app-call-tool'](call('save'));
  assert.match(String(r.content[0]!.text), /truncated/);
});

test("cancelling a view's call that waits for approval withdraws the card; nothing is called", async () => {
  const h = harness((_r, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(false))));
  const pending = h.app.handlers['panel:app-call-tool'](call('save', 'op9'));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(h.app.cancelWaiting('op9'), true);
  await assert.rejects(pending, (e) => e instanceof RemoteError && e.code === 'cancelled');
  assert.equal(h.app.cancelWaiting('op9'), false);
  assert.deepEqual(h.calls, []);
});

test('app-only tools are never offered to the agent', () => {
  const registry = new AgentToolRegistry({
    views,
    wakeLazyServers: () => undefined,
    onChange: () => () => undefined,
    callTool: async () => ({ content: [] }),
    cancel: async () => true,
    approve: async () => true,
    newOperationId: () => 'op',
  });
  assert.deepEqual(
    registry.list().map((t) => t.toolName),
    ['legacy', 'model-only', 'show'],
  );
});
