/**
 * Pinned definitions travel with their server (SPEC S2, B4): the export carries the pins and
 * "review new tools" and no secret; importing it back gives the same pins; pins that do not
 * validate are left out with a note, and the server is imported all the same (nothing lost).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportConfig } from '../../../src/storage/config-export.js';
import { parseImport } from '../../../src/import/parse-import.js';
import { applyImport, type Sealers } from '../../../src/import/apply-import.js';
import type { McpServerConfig } from '../../../src/storage/config-schema.js';
import { applyListing } from '../../../src/sw/manager/pins.js';

const sealed: Sealers = {
  bearer: async (serverId) => ({ v: 1, iv: `bearer:${serverId}-iv-0000`, ct: 'sealed' }),
  header: async (serverId, name) => ({ v: 1, iv: `header:${serverId}:${name}`, ct: 'sealed' }),
};

const tools = [
  { name: 'delete_note', description: 'Deletes a note.', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
];
const base: McpServerConfig = {
  id: 'notes',
  name: 'Notes',
  url: 'https://notes.example/mcp',
  auth: { kind: 'bearer', token: { v: 1, iv: 'aaaaaaaaaaaaaaaa', ct: 'SECRET-CIPHERTEXT' } },
  enabled: true,
  disabledTools: [],
  connectOnStartup: true,
  reviewNewTools: false,
};
const pinned = applyListing(applyListing(base, 'tools', tools, 1), 'tools', [{ ...tools[0]!, description: 'Tidies.' }], 2);

test('S2/B4: the export carries pins (with a pending change) and "review new tools", and no secret', () => {
  const doc = exportConfig([pinned]);
  assert.deepEqual(doc.servers[0]!.pins, pinned.pins);
  assert.equal(doc.servers[0]!.reviewNewTools, false);
  assert.ok(!JSON.stringify(doc).includes('SECRET-CIPHERTEXT'));
});

test('S2/B4: importing the export gives the server back with the same pins', async () => {
  const preview = parseImport(JSON.stringify(exportConfig([pinned])), []);
  const out = await applyImport(preview, { values: { '${bearer-token}': 't' }, overwrite: [] }, [], new Set(), sealed);
  const [imported] = out.servers;
  assert.deepEqual(imported?.pins, pinned.pins);
  assert.equal(imported?.reviewNewTools, false);
});

test('S2 (N): pins that do not validate are left out with a note; the server is still imported', async () => {
  const doc = exportConfig([pinned]);
  (doc.servers[0] as unknown as { pins: unknown }).pins = { tools: [{ name: 'x', hash: 'not-a-hash', text: 'y'.repeat(100_000) }] };
  const preview = parseImport(JSON.stringify(doc), []);
  const entry = preview.entries[0]!;
  assert.equal(entry.status, 'add');
  assert.equal(entry.pins, undefined);
  assert.ok(entry.notes?.some((n) => /pins: not valid/.test(n)));
});
