import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVER_ID_PATTERN, ServerIdSchema } from '../../../src/protocol/server-id.js';
import { McpServerConfigSchema } from '../../../src/storage/config-schema.js';
import { PanelRequestSchemas } from '../../../src/protocol/panel.js';
import { OAuthPanelRequestSchemas } from '../../../src/protocol/panel-oauth.js';

test('a server id is 1 to 32 of [a-z0-9_-]', () => {
  for (const id of ['a', 'github', 'my-server_2', 'x'.repeat(32)]) assert.equal(ServerIdSchema.safeParse(id).success, true, id);
  for (const id of ['', 'x'.repeat(33), 'GitHub', 'a b', 'a.b', 'ü', 'a/b', 7])
    assert.equal(ServerIdSchema.safeParse(id).success, false, String(id));
  assert.match('abc', SERVER_ID_PATTERN);
});

test('the stored config and the panel messages use the same rule', () => {
  assert.equal(McpServerConfigSchema.shape.id.safeParse('Bad Id').success, false);
  assert.equal(McpServerConfigSchema.shape.id.safeParse('good-id').success, true);
  for (const schema of [PanelRequestSchemas['panel:remove-server'], OAuthPanelRequestSchemas['panel:forget-authorization']]) {
    assert.equal(schema.safeParse({ serverId: 'good-id' }).success, true);
    assert.equal(schema.safeParse({ serverId: 'Bad Id' }).success, false);
  }
});
