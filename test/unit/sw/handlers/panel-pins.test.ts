/**
 * The pinned-definition requests (SPEC S2): Accept re-pins the stored entry, reconciles the
 * manager at once (the next agent call sees it) and gives the suspended grant back for the tool
 * as listed now; Keep disabled disables it; nothing to accept answers false and writes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pinsPanelHandlers } from '../../../../src/sw/handlers/panel-pins.js';
import { applyListing } from '../../../../src/sw/manager/pins.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import type { ServerView } from '../../../../src/protocol/panel.js';

const tool = (description: string) => ({ name: 'delete_note', description, inputSchema: { type: 'object' } });
const entry: McpServerConfig = {
  id: 'a',
  name: 'A',
  url: 'https://a.example/mcp',
  auth: { kind: 'none' },
  enabled: true,
  disabledTools: [],
  connectOnStartup: true,
};

function setUp() {
  let servers = [applyListing(applyListing(entry, 'tools', [tool('Deletes.')], 1), 'tools', [tool('Tidies.')], 2)];
  const reconciled: McpServerConfig[][] = [];
  const restored: Array<[string, string, string]> = [];
  let writes = 0;
  const handlers = pinsPanelHandlers({
    configStore: {
      update: async (fn) => {
        writes++;
        servers = await fn(structuredClone(servers), { invalid: [], takenIds: new Set() });
        return { servers, invalid: [] };
      },
    },
    manager: {
      views: () => [{ id: 'a', url: entry.url, tools: [tool('Tidies.')] } as unknown as ServerView],
      reconcile: (configs) => void reconciled.push(configs),
    },
    approvals: {
      restore: async (serverId, t, url) => {
        restored.push([serverId, t.description ?? '', url]);
        return true;
      },
    },
  });
  return { handlers, servers: () => servers, reconciled, restored, writes: () => writes };
}

test('S2: Accept re-pins, reconciles the manager at once and restores the grant for the tool as listed now', async () => {
  const s = setUp();
  assert.deepEqual(await s.handlers['panel:accept-definition']({ serverId: 'a', category: 'tools', name: 'delete_note' }), {
    accepted: true,
    grantRestored: true,
  });
  const pin = s.servers()[0]!.pins!.tools![0]!;
  assert.equal(pin.changed, undefined);
  assert.match(pin.text!, /Tidies/);
  assert.equal(s.reconciled.length, 1);
  assert.deepEqual(s.restored, [['a', 'Tidies.', entry.url]]);
  assert.deepEqual(await s.handlers['panel:accept-definition']({ serverId: 'a', category: 'tools', name: 'delete_note' }), {
    accepted: false,
    grantRestored: false,
  });
  assert.equal(s.reconciled.length, 1, 'nothing changed: no reconcile');
});

test('S2: Keep disabled disables the changed tool; review new tools is stored', async () => {
  const s = setUp();
  assert.deepEqual(await s.handlers['panel:keep-disabled']({ serverId: 'a', name: 'delete_note' }), { disabled: true });
  assert.deepEqual(s.servers()[0]!.disabledTools, ['delete_note']);
  assert.deepEqual(await s.handlers['panel:keep-disabled']({ serverId: 'a', name: 'unknown' }), { disabled: false });
  await s.handlers['panel:set-review-new-tools']({ serverId: 'a', review: true });
  assert.equal(s.servers()[0]!.reviewNewTools, true);
});
