import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewCallTools } from '../../../../src/sw/use/app-views.js';
import { server, tool } from './fakes.js';

const chart = tool('chart', { _meta: { ui: { resourceUri: 'ui://chart' } } });
const refresh = tool('refresh', { _meta: { ui: { visibility: ['app'] } } });
const modelOnly = tool('summarise', { _meta: { ui: { visibility: ['model'] } } });
const plain = tool('plain');
const gh = server('gh', [chart, refresh, modelOnly, plain], { disabledTools: ['plain'] });

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no refusal';
};

test('a view calls an enabled tool visible to apps on its own server', () => {
  assert.deepEqual(viewCallTools(gh, { viewTool: 'chart', tool: 'refresh' }), { viewTool: chart, tool: refresh });
  assert.deepEqual(viewCallTools(gh, { viewTool: 'chart', tool: 'chart' }), { viewTool: chart, tool: chart });
});

test('the calling tool must have a view, the called one must be enabled and visible to apps', () => {
  assert.equal(
    refusal(() => viewCallTools(gh, { viewTool: 'refresh', tool: 'chart' })),
    '"refresh" on "GH" has no view.',
  );
  assert.equal(
    refusal(() => viewCallTools(gh, { viewTool: 'chart', tool: 'plain' })),
    'No enabled tool is called "plain" on "GH".',
  );
  assert.equal(
    refusal(() => viewCallTools(gh, { viewTool: 'chart', tool: 'gone' })),
    'No enabled tool is called "gone" on "GH".',
  );
  assert.equal(
    refusal(() => viewCallTools(gh, { viewTool: 'chart', tool: 'summarise' })),
    '"summarise" on "GH" is not callable from a view.',
  );
});
