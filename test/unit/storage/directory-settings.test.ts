/** The directory's registry setting (SPEC S1): the official registry by default, a checked base URL otherwise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DirectorySettingsStore } from '../../../src/storage/directory-settings.js';
import { DEFAULT_REGISTRY_URL } from '../../../src/protocol/panel-directory.js';
import { MemoryArea } from '../../support/memory-area.js';

test('the official registry until another is set; empty goes back; a bad URL is refused in words and nothing changes', async () => {
  const store = new DirectorySettingsStore(new MemoryArea());
  assert.deepEqual(await store.read(), { registryUrl: DEFAULT_REGISTRY_URL, isDefault: true });
  assert.deepEqual(await store.set(' https://Registry.Corp.example/mcp/ '), {
    registryUrl: 'https://registry.corp.example/mcp',
    isDefault: false,
  });
  for (const bad of ['javascript:alert(1)', 'http://corp.example', 'https://corp.example/?q=1']) {
    await assert.rejects(store.set(bad), (e: { code?: string; wording?: { code: string } }) => e.code === 'invalid-url' && !!e.wording);
  }
  assert.equal((await store.read()).registryUrl, 'https://registry.corp.example/mcp');
  assert.deepEqual(await store.set(''), { registryUrl: DEFAULT_REGISTRY_URL, isDefault: true });
});
