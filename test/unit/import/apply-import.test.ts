import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseImport } from '../../../src/import/parse-import.js';
import type { McpServerConfig, SealedBlob } from '../../../src/storage/config-schema.js';
import { applyImport, type Sealers } from '../../../src/import/apply-import.js';

/** Marks what was sealed with what purpose, so a test can see no secret stayed in plaintext. */
const sealed: Sealers = {
  bearer: async (serverId, token) => ({ v: 1, iv: `bearer:${serverId}`, ct: `sealed(${token.length})` }) as unknown as SealedBlob,
  header: async (serverId, name, value) =>
    ({ v: 1, iv: `header:${serverId}:${name}`, ct: `sealed(${value.length})` }) as unknown as SealedBlob,
};

const saved: McpServerConfig = {
  id: 'demo',
  name: 'Demo',
  url: 'http://127.0.0.1:3939/mcp',
  auth: { kind: 'none' },
  enabled: true,
  disabledTools: ['x'],
  connectOnStartup: true,
};

const paste = JSON.stringify({
  mcpServers: {
    Demo: { url: 'http://127.0.0.1:3939/mcp', headers: { Authorization: 'Bearer ${DEMO_TOKEN}' } },
    api: { url: 'https://api.example.com/mcp', headers: { 'X-Api-Key': 'k-123', Authorization: 'Bearer abc' } },
    local: { command: 'npx', args: ['x'] },
  },
});

describe('applying an import (SPEC B2)', () => {
  it('adds new entries with sealed secrets and skips stdio with its reason', async () => {
    const preview = parseImport(paste, [saved]);
    const out = await applyImport(preview, { values: {}, overwrite: [] }, [saved], new Set(['demo']), sealed);
    assert.deepEqual(out.added, ['api']);
    const api = out.servers.find((s) => s.id === 'api')!;
    assert.deepEqual(api.auth, { kind: 'bearer', token: { v: 1, iv: 'bearer:api', ct: 'sealed(3)' } });
    assert.deepEqual(api.headers, [{ name: 'X-Api-Key', value: { v: 1, iv: 'header:api:X-Api-Key', ct: 'sealed(5)' } }]);
    assert.ok(!JSON.stringify(out.servers).includes('k-123') && !JSON.stringify(out.servers).includes('abc"'));
    assert.ok(out.skipped.some((s) => s.name === 'local'));
  });

  it("keeps Gemini's includeTools with the saved server, next to excludeTools as disabled tools", async () => {
    const gemini = JSON.stringify({
      mcpServers: { docs: { httpUrl: 'https://docs.example.com/mcp', includeTools: ['search'], excludeTools: ['drop'] } },
    });
    const out = await applyImport(parseImport(gemini, []), { values: {}, overwrite: [] }, [], new Set(), sealed);
    const docs = out.servers.find((s) => s.id === 'docs')!;
    assert.deepEqual(docs.includeTools, ['search']);
    assert.deepEqual(docs.disabledTools, ['drop']);
  });

  it('never overwrites an existing server without the confirmation flag', async () => {
    const preview = parseImport(paste, [saved]);
    const out = await applyImport(preview, { values: { '${DEMO_TOKEN}': 't0k' }, overwrite: [] }, [saved], new Set(['demo']), sealed);
    assert.deepEqual(out.replaced, []);
    assert.deepEqual(
      out.servers.find((s) => s.id === 'demo'),
      saved,
    );
    assert.ok(out.skipped.some((s) => s.name === 'Demo'));
  });

  it('overwrites in place, keeping the id, when the user confirmed it', async () => {
    const preview = parseImport(paste, [saved]);
    const out = await applyImport(preview, { values: { '${DEMO_TOKEN}': 't0k' }, overwrite: ['Demo'] }, [saved], new Set(['demo']), sealed);
    assert.deepEqual(out.replaced, ['demo']);
    const demo = out.servers.filter((s) => s.url === saved.url);
    assert.equal(demo.length, 1);
    assert.equal(demo[0]!.id, 'demo');
    assert.equal(demo[0]!.auth.kind, 'bearer');
  });

  it('skips an entry whose placeholder was not filled, saying which', async () => {
    const preview = parseImport(paste, []);
    const out = await applyImport(preview, { values: {}, overwrite: [] }, [], new Set(), sealed);
    assert.deepEqual(out.added, ['api']);
    assert.match(out.skipped.find((s) => s.name === 'Demo')!.reason, /DEMO_TOKEN/);
  });
});
