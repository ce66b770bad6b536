import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from '../../storage/helpers.js';
import { MemoryArea } from '../../../support/memory-area.js';
import { ConfigStore } from '../../../../src/storage/config-store.js';
import { headersFor } from '../../../../src/sw/chrome/credentials.js';
import { addServer, newServerConfig } from '../../../../src/sw/handlers/new-server.js';
import { RemoteError } from '../../../../src/protocol/result.js';

beforeEach(freshIndexedDb);

test('a new server is enabled, connects at start, keeps its timeout, and stores its secrets sealed', async () => {
  const config = await newServerConfig('demo', 'https://demo.example/mcp', {
    name: '  Demo  ',
    url: 'https://demo.example/mcp',
    auth: { kind: 'bearer', token: 'tok-secret' },
    headers: [{ name: 'X-Key', value: 'key-secret' }],
    connectTimeoutMs: 30_000,
  });
  assert.equal(config.name, 'Demo');
  assert.equal(config.enabled, true);
  assert.equal(config.connectOnStartup, true);
  assert.deepEqual(config.disabledTools, []);
  assert.equal(config.connectTimeoutMs, 30_000);
  assert.doesNotMatch(JSON.stringify(config), /tok-secret|key-secret/);
  assert.deepEqual(await headersFor(config), { 'X-Key': 'key-secret', Authorization: 'Bearer tok-secret' });
});

test('no auth and no headers store none; no timeout stores none', async () => {
  const config = await newServerConfig('a', 'https://a.example/', { name: 'A', url: 'https://a.example/', auth: { kind: 'none' } });
  assert.deepEqual(config.auth, { kind: 'none' });
  assert.equal('headers' in config, false);
  assert.equal('connectTimeoutMs' in config, false);
});

test('adding slugs the id from the name, and refuses a bad URL or the same URL under the same name', async () => {
  const store = new ConfigStore(new MemoryArea());
  const first = await addServer(store, { name: 'My Server', url: 'https://s.example/mcp', auth: { kind: 'none' } });
  assert.deepEqual(first, { serverId: 'my-server' });
  const second = await addServer(store, { name: 'My Server', url: 'https://t.example/mcp', auth: { kind: 'none' } });
  assert.notEqual(second.serverId, 'my-server');
  assert.equal((await store.read()).servers.length, 2);
  const refusal = async (name: string, url: string) =>
    addServer(store, { name, url, auth: { kind: 'none' } }).then(
      () => 'added',
      (e: unknown) => (e instanceof RemoteError ? `${e.code}: ${e.message}` : 'other'),
    );
  assert.equal(
    await refusal('  my server ', 'https://S.example/mcp/'),
    'duplicate: "My Server" already uses this URL under this name. Give another account a different name.',
    'the same canonical URL under the same name (case and spaces ignored) is a duplicate',
  );
  assert.match(await refusal('x', 'ftp://s.example/'), /^invalid-url/);
  assert.equal((await store.read()).servers.length, 2);
});

test('the same URL under another name is another account, with its own id (S3)', async () => {
  const store = new ConfigStore(new MemoryArea());
  await addServer(store, { name: 'GitHub', url: 'https://gh.example/mcp', auth: { kind: 'bearer', token: 'tok-work' } });
  const other = await addServer(store, { name: 'GitHub (2)', url: 'https://gh.example/mcp', auth: { kind: 'bearer', token: 'tok-home' } });
  assert.deepEqual(other, { serverId: 'github-2' });
  const [a, b] = (await store.read()).servers;
  assert.equal(a!.url, b!.url);
  assert.deepEqual(await headersFor(a!), { Authorization: 'Bearer tok-work' });
  assert.deepEqual(await headersFor(b!), { Authorization: 'Bearer tok-home' }, 'each account sends its own token');
});
