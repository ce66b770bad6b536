import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentToolRegistry, type RegistryDeps } from '../../../../src/sw/use/tool-registry.js';
import type { ServerView } from '../../../../src/protocol/panel.js';
import { RemoteError } from '../../../../src/protocol/result.js';
import { server, tool } from './fakes.js';

function harness(initial: ServerView[], approve: RegistryDeps['approve'] = async () => true) {
  let views = initial;
  const listeners = new Set<() => void>();
  const calls: Array<{ serverId: string; tool: string; args: unknown; operationId: string }> = [];
  const cancels: string[] = [];
  let respond: (v: unknown) => unknown = () => ({ content: [{ type: 'text', text: 'ok' }] });
  const registry = new AgentToolRegistry({
    views: () => views,
    onChange: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    callTool: async (serverId, t, args, operationId) => {
      calls.push({ serverId, tool: t, args, operationId });
      return (await respond(args)) as never;
    },
    cancel: async (_s, op) => cancels.push(op),
    approve,
    newOperationId: () => 'op_generated',
  });
  return {
    registry,
    calls,
    cancels,
    setViews(v: ServerView[]) {
      views = v;
      for (const l of listeners) l();
    },
    respondWith(fn: (args: unknown) => unknown) {
      respond = fn;
    },
  };
}

const rawSchema = {
  type: 'object',
  properties: { q: { type: 'string', 'x-custom': [1, 2] } },
  required: ['q'],
  additionalProperties: false,
};

test('every enabled tool of every ready server is listed as mcp__{server}__{tool}, write effects, no auto-retry, raw schema', () => {
  const h = harness([
    server('gh', [
      tool('search', { inputSchema: rawSchema, annotations: { readOnlyHint: true }, description: 'Find' }),
      tool('create.issue'),
    ]),
    server('off', [tool('x')], { status: 'error' }),
  ]);
  const list = h.registry.list();
  assert.deepEqual(
    list.map((t) => t.name),
    ['mcp__gh__create_issue', 'mcp__gh__search'],
  );
  const search = list.find((t) => t.toolName === 'search')!;
  assert.equal(search.jsonSchema, rawSchema, 'the very object, untouched');
  assert.equal(search.effects, 'write', 'readOnlyHint does not change the effects');
  assert.equal(search.autoRetry, false);
  assert.deepEqual(search.annotations, { readOnlyHint: true });
  assert.equal(search.description, 'Find');
});

test('a disabled tool is neither listed nor callable', async () => {
  const h = harness([server('gh', [tool('search'), tool('delete')], { disabledTools: ['delete'] })]);
  assert.deepEqual(
    h.registry.list().map((t) => t.name),
    ['mcp__gh__search'],
  );
  await assert.rejects(h.registry.call('mcp__gh__delete', {}), (e: RemoteError) => e.code === 'unknown-tool');
  assert.equal(h.calls.length, 0);
});

test('a tool disabled while its approval card was open is not called', async () => {
  let release!: () => void;
  const h = harness([server('gh', [tool('search')])], () => new Promise((r) => (release = () => r(true))));
  const pending = h.registry.call('mcp__gh__search', { q: 'x' });
  await new Promise((r) => setTimeout(r, 0));
  h.setViews([server('gh', [tool('search')], { disabledTools: ['search'] })]);
  release();
  await assert.rejects(pending, (e: RemoteError) => e.code === 'unknown-tool');
  assert.equal(h.calls.length, 0);
});

test('a denied call is not sent and says so', async () => {
  const h = harness([server('gh', [tool('search')])], async () => false);
  await assert.rejects(h.registry.call('mcp__gh__search', {}), (e: RemoteError) => e.code === 'denied');
  assert.equal(h.calls.length, 0);
});

test('an allowed call runs once with the given operationId and lenient arguments', async () => {
  const h = harness([server('gh', [tool('search')])]);
  const r = await h.registry.call('mcp__gh__search', '{"q":"mcp"}', { operationId: 'op_mine' });
  assert.deepEqual(h.calls, [{ serverId: 'gh', tool: 'search', args: { q: 'mcp' }, operationId: 'op_mine' }]);
  assert.equal(r.operationId, 'op_mine');
  assert.deepEqual(r.result.content, [{ type: 'text', text: 'ok' }]);
  await assert.rejects(h.registry.call('mcp__gh__search', '[1]'), (e: RemoteError) => e.code === 'bad-arguments');
});

test('a failing call is reported, never retried', async () => {
  const h = harness([server('gh', [tool('search')])]);
  h.respondWith(() => Promise.reject(new RemoteError({ code: 'timeout', message: 'timed out' })));
  await assert.rejects(h.registry.call('mcp__gh__search', {}), (e: RemoteError) => e.code === 'timeout');
  assert.equal(h.calls.length, 1);
});

test('results over the budget are truncated with a marker (H4)', async () => {
  const h = harness([server('gh', [tool('search')])]);
  h.respondWith(() => ({ content: [{ type: 'text', text: 'x'.repeat(300 * 1024) }] }));
  const r = await h.registry.call('mcp__gh__search', {});
  const text = (r.result.content[0] as unknown as { text: string }).text;
  assert.ok(text.length < 110 * 1024);
  assert.match(text, /truncated/);
  assert.ok(r.truncated && r.truncated.cutBytes > 0);
});

test('aborting the signal cancels the running call with its operationId', async () => {
  const h = harness([server('gh', [tool('search')])]);
  const ac = new AbortController();
  h.respondWith(
    () =>
      new Promise((_, reject) =>
        ac.signal.addEventListener('abort', () => reject(new RemoteError({ code: 'cancelled', message: 'cancelled' }))),
      ),
  );
  const p = h.registry.call('mcp__gh__search', {}, { operationId: 'op_abort', signal: ac.signal });
  await new Promise((r) => setTimeout(r, 0));
  ac.abort();
  await assert.rejects(p);
  assert.deepEqual(h.cancels, ['op_abort']);
});

test('change events fire when the tool set or a schema changes, not on unrelated updates', () => {
  const h = harness([server('gh', [tool('search')])]);
  const seen: string[][] = [];
  h.registry.onChange((list) => seen.push(list.map((t) => t.name)));
  h.setViews([server('gh', [tool('search')])]);
  assert.equal(seen.length, 0);
  h.setViews([server('gh', [tool('search'), tool('more')])]);
  h.setViews([server('gh', [tool('search', { inputSchema: { type: 'object' } }), tool('more')])]);
  h.setViews([server('gh', [tool('search'), tool('more')], { disabledTools: ['more'] })]);
  assert.deepEqual(seen, [['mcp__gh__more', 'mcp__gh__search'], ['mcp__gh__more', 'mcp__gh__search'], ['mcp__gh__search']]);
});
