import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server } from '../../storage/helpers.js';
import { serverPanelHandlers, withToolEnabled, type ServerHandlerDeps } from '../../../../src/sw/handlers/panel-servers.js';
import { server as view, tool } from '../use/fakes.js';
import { RunnerCalls } from '../../../../src/sw/use/runner-calls.js';
import { TEXT_BUDGET_BYTES } from '../../../../src/sw/use/truncate.js';

test('a tool is disabled once and enabled again on its own server only', () => {
  const servers = [server('a', { disabledTools: ['x'] }), server('b')];
  const off = withToolEnabled(servers, { serverId: 'a', tool: 'y', enabled: false });
  assert.deepEqual(off[0]!.disabledTools, ['x', 'y']);
  assert.equal(off[1], servers[1]);
  assert.deepEqual(withToolEnabled(off, { serverId: 'a', tool: 'y', enabled: false })[0]!.disabledTools, ['x', 'y']);
  assert.deepEqual(withToolEnabled(off, { serverId: 'a', tool: 'x', enabled: true })[0]!.disabledTools, ['y']);
  assert.deepEqual(servers[0]!.disabledTools, ['x'], 'the input is not changed');
});

function runner() {
  const runnerCalls = new RunnerCalls();
  const calls: unknown[] = [];
  const tracked: string[] = [];
  const deps = {
    manager: {
      listedTool: (serverId: string, name: string) =>
        [view('gh', [tool('search'), tool('refresh', { _meta: { ui: { visibility: ['app'] } } })])]
          .find((v) => v.id === serverId)
          ?.tools.find((t) => t.name === name),
      callTool: async (serverId: string, t: string, args: Record<string, unknown>, operationId: string) => {
        calls.push([serverId, t, args, operationId, runnerCalls.has(operationId)]);
        return { content: [{ type: 'text', text: 'a'.repeat(TEXT_BUDGET_BYTES + 1) }] };
      },
    },
    stepUps: {
      track: <T>(serverId: string, t: string, run: () => Promise<T>) => (tracked.push(`${serverId}/${t}`), run()),
    },
    newOperationId: () => 'op_new',
    runnerCalls,
  } as unknown as ServerHandlerDeps;
  return { handlers: serverPanelHandlers(deps), calls, tracked, runnerCalls };
}

test("the runner's call goes through the step-up tracker with a new operationId, cut to the budget and not fenced", async () => {
  const { handlers, calls, tracked, runnerCalls } = runner();
  const result = await handlers['panel:call-tool']({ serverId: 'gh', tool: 'search', arguments: { q: 1 } });
  // Known as the runner's while it runs (its progress is pushed to the panels, H1), forgotten after.
  assert.deepEqual(calls, [['gh', 'search', { q: 1 }, 'op_new', true]]);
  assert.equal(runnerCalls.has('op_new'), false);
  assert.deepEqual(tracked, ['gh/search']);
  const text = (result.content[0] as unknown as { text: string }).text;
  assert.match(text, /^a+\n\[… truncated/);
  await handlers['panel:call-tool']({ serverId: 'gh', tool: 'search', arguments: {}, operationId: 'op_panel' });
  assert.equal((calls[1] as unknown[])[3], 'op_panel');
});

test('a tool only its view may call is refused to the runner and never called', async () => {
  const { handlers, calls } = runner();
  await assert.rejects(handlers['panel:call-tool']({ serverId: 'gh', tool: 'refresh', arguments: {} }), /callable only from its view/);
  assert.deepEqual(calls, []);
});
