import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolUi } from '../../../src/protocol/mcp-apps.js';

test('toolUi reads the view and the visibility from _meta.ui, and the deprecated flat key', () => {
  assert.deepEqual(toolUi({}), { model: true, app: true });
  assert.deepEqual(toolUi({ _meta: { ui: { resourceUri: 'ui://a/b' } } }), { resourceUri: 'ui://a/b', model: true, app: true });
  assert.deepEqual(toolUi({ _meta: { 'ui/resourceUri': 'ui://a/c' } }), { resourceUri: 'ui://a/c', model: true, app: true });
  assert.deepEqual(toolUi({ _meta: { ui: { visibility: ['app'] } } }), { model: false, app: true });
  assert.deepEqual(toolUi({ _meta: { ui: { visibility: ['model'] } } }), { model: true, app: false });
  // Only ui:// names a view; a malformed `ui` counts as absent.
  assert.deepEqual(toolUi({ _meta: { ui: { resourceUri: 'https://x.example/v' } } }), { model: true, app: true });
  assert.deepEqual(toolUi({ _meta: { ui: 'nonsense' } }), { model: true, app: true });
});
