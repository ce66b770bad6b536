/**
 * An imported allow-list (Gemini `includeTools`) on the manager's catalog path: the tools it
 * leaves out start disabled once the tool list is first known — in the views and for calls at
 * once, and through the `saveIncludeTools` port for the stored entry — and the allow-list is
 * then dropped, so a tool the server adds later starts enabled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settleIncludeTools } from '../../../../src/sw/manager/include-tools.js';
import { TOOL, cfg, flush, harness, routine } from './harness.js';

const tools = [TOOL('search'), TOOL('fetch'), TOOL('delete_all')];
const withTools = (list: unknown[]) => (method: string, params: Record<string, unknown>) =>
  method === 'offscreen:list-category' && params.category === 'tools' ? { category: 'tools', items: list } : routine(method, params);

test('settleIncludeTools disables what the allow-list leaves out and keeps what the user disabled', () => {
  const settled = settleIncludeTools(cfg('a', { includeTools: ['search', 'gone'], disabledTools: ['search', 'x'] }), [
    'search',
    'fetch',
    'delete_all',
  ]);
  assert.deepEqual(settled.disabledTools, ['search', 'x', 'fetch', 'delete_all']);
  assert.equal('includeTools' in settled, false);
  const plain = cfg('b');
  assert.equal(settleIncludeTools(plain, ['fetch']), plain);
});

test('the tools includeTools leaves out are disabled once the catalog is first known, and the stored entry is told', async () => {
  const saved: Array<[string, string[]]> = [];
  const h = harness(withTools(tools), { refreshIntervalMs: 0 }, { saveIncludeTools: (id, names) => saved.push([id, names]) });
  h.manager.reconcile([cfg('g', { includeTools: ['search'], disabledTools: ['excluded'] })]);
  assert.deepEqual(h.view('g').disabledTools, ['excluded'], 'nothing is decided before the tools are known');
  assert.deepEqual(saved, []);
  await h.manager.connect('g');
  assert.deepEqual(h.view('g').disabledTools, ['excluded', 'fetch', 'delete_all']);
  assert.deepEqual(saved, [['g', ['search', 'fetch', 'delete_all']]]);
  await assert.rejects(h.manager.callTool('g', 'fetch', {}, 'op1'), { code: 'tool-disabled' });
});

test('a reconcile with the stored entry not yet settled keeps the settled tools; a later tool starts enabled', async () => {
  let list: unknown[] = tools;
  const h = harness((method, params) => withTools(list)(method, params), { refreshIntervalMs: 0 }, { saveIncludeTools: () => undefined });
  const stored = cfg('g', { includeTools: ['search'] });
  h.manager.reconcile([stored]);
  await h.manager.connect('g');
  h.manager.reconcile([stored]);
  assert.deepEqual(h.view('g').disabledTools, ['fetch', 'delete_all']);

  const settled = settleIncludeTools(stored, ['search', 'fetch', 'delete_all']);
  h.manager.reconcile([settled]);
  list = [...tools, TOOL('new_tool')];
  h.manager.handleEvent({ type: 'offscreen:list-changed', connectionId: 'c1', category: 'tools' });
  await flush();
  assert.deepEqual(
    h.view('g').tools.map((t) => t.name),
    ['search', 'fetch', 'delete_all', 'new_tool'],
  );
  assert.deepEqual(h.view('g').disabledTools, ['fetch', 'delete_all']);
});

test('a server whose tools could not be listed keeps its allow-list for the next connect', async () => {
  const saved: string[] = [];
  const h = harness(
    (method, params) => {
      if (method === 'offscreen:list-category' && params.category === 'tools') throw new Error('boom');
      return routine(method, params);
    },
    { refreshIntervalMs: 0 },
    { saveIncludeTools: (id) => saved.push(id) },
  );
  h.manager.reconcile([cfg('g', { includeTools: ['search'] })]);
  await h.manager.connect('g');
  assert.equal(h.view('g').status, 'ready');
  assert.deepEqual(h.view('g').disabledTools, []);
  assert.deepEqual(saved, [], 'nothing settled without a tool list');
});
