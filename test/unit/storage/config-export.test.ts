import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, server } from './helpers.js';
import { exportConfig } from '../../../src/storage/config-export.js';
import { purposeFor, seal } from '../../../src/storage/seal.js';
import type { McpServerConfig } from '../../../src/storage/config-schema.js';

beforeEach(freshIndexedDb);

async function serversWithSecrets(): Promise<McpServerConfig[]> {
  const s = (t: string) => seal(t, 'p');
  return [
    server('bearer', {
      auth: { kind: 'bearer', token: await s('BEARER-SECRET') },
      headers: [{ name: 'X-Api-Key', value: await s('HEADER-SECRET') }],
    }),
    server('oauth', {
      timeoutMs: 30_000,
      disabledTools: ['delete_repo'],
      auth: {
        kind: 'oauth',
        clientId: 'public-client',
        clientSecret: await s('CLIENT-SECRET'),
        scopes: ['repo', 'read:user'],
        binding: { resource: 'https://oauth.example.com/mcp', issuer: 'https://as.example.com' },
        registration: { clientId: 'dcr-id', clientSecret: await s('DCR-SECRET') },
        tokens: {
          refresh: await seal('REFRESH-SECRET', purposeFor('refresh', { serverId: 'oauth', binding: { resource: 'r', issuer: 'i' } })),
          scope: 'repo',
        },
      },
    }),
    server('plain', { enabled: false, connectOnStartup: true }),
  ];
}

test('the export carries no secret, sealed or not, and no binding or registration', async () => {
  const servers = await serversWithSecrets();
  const text = JSON.stringify(exportConfig(servers));
  for (const s of servers) {
    for (const blob of JSON.stringify(s).match(/"ct":"[^"]+"/g) ?? []) assert.ok(!text.includes(blob.slice(6, -1)), 'sealed blob leaked');
  }
  assert.doesNotMatch(text, /SECRET|"iv"|"ct"|"token"|clientSecret|registration|dcr-id|binding|as\.example|refresh/);
  const doc = exportConfig(servers);
  assert.equal(doc.format, 'remote-mcp-for-chrome');
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.servers[0], {
    name: 'Server bearer',
    url: 'https://bearer.example.com/mcp',
    auth: { kind: 'bearer' },
    headerNames: ['X-Api-Key'],
    enabled: true,
    disabledTools: [],
    connectOnStartup: false,
  });
  assert.deepEqual(doc.servers[1]!.auth, { kind: 'oauth', clientId: 'public-client', scopes: ['repo', 'read:user'] });
});

test('an allow-list not settled yet (the server never listed its tools) is exported, so a re-import keeps it', () => {
  const doc = exportConfig([server('gemini', { includeTools: ['search'] }), server('plain')]);
  assert.deepEqual(doc.servers[0]!.includeTools, ['search']);
  assert.equal('includeTools' in doc.servers[1]!, false);
});
