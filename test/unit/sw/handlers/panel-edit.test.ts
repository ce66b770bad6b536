import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, server } from '../../storage/helpers.js';
import { MemoryArea } from '../../../support/memory-area.js';
import { ConfigStore } from '../../../../src/storage/config-store.js';
import { open, purposeFor } from '../../../../src/storage/seal.js';
import { sealBearer } from '../../../../src/sw/chrome/credentials.js';
import { editPanelHandlers } from '../../../../src/sw/handlers/panel-edit.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import type { PanelParams } from '../../../../src/protocol/panel.js';

beforeEach(freshIndexedDb);

async function setUp(config: McpServerConfig, grants = 0) {
  const configStore = new ConfigStore(new MemoryArea());
  await configStore.update(() => [config]);
  const forgotten: string[] = [];
  const handlers = editPanelHandlers({
    configStore,
    auth: {
      forget: async (c) => {
        forgotten.push(c.url);
        return { revoked: true };
      },
    },
    approvals: {
      list: async () =>
        Array.from({ length: grants }, (_, i) => ({ serverId: config.id, tool: `t${i}`, url: config.url, schemaHash: 'h', grantedAt: 0 })),
    },
    probeFetch: () => Promise.reject(new Error('no network in this test')),
  });
  const stored = async () => (await configStore.read()).servers[0]!;
  return { handlers, stored, forgotten };
}

const edit = (c: McpServerConfig, patch: Partial<PanelParams<'panel:update-server'>> = {}): PanelParams<'panel:update-server'> => ({
  serverId: c.id,
  name: c.name,
  url: c.url,
  auth: { kind: 'none' },
  connectTimeoutMs: null,
  connectOnStartup: c.connectOnStartup,
  ...patch,
});

test('the settings report secrets only as present, never their values', async () => {
  const c = server('demo', { auth: { kind: 'bearer', token: await sealBearer('demo', 'tok-secret') }, connectTimeoutMs: 45_000 });
  const { handlers } = await setUp(c, 1);
  const s = await handlers['panel:get-server-settings']({ serverId: 'demo' });
  assert.deepEqual(s, {
    name: c.name,
    url: c.url,
    authKind: 'bearer',
    hasClientSecret: false,
    authorized: false,
    headers: [],
    connectTimeoutMs: 45_000,
    connectOnStartup: false,
    alwaysGrants: 1,
  });
  assert.doesNotMatch(JSON.stringify(s), /tok-secret/);
});

test('a rename, a timeout and connect-on-startup keep the id, the disabled tools and the stored token', async () => {
  const token = await sealBearer('demo', 'tok');
  const c = server('demo', { auth: { kind: 'bearer', token }, disabledTools: ['rm'] });
  const { handlers, stored } = await setUp(c, 2);
  const r = await handlers['panel:update-server'](
    edit(c, { name: 'Renamed', auth: { kind: 'bearer' }, connectTimeoutMs: 90_000, connectOnStartup: true }),
  );
  assert.deepEqual(r, { dropped: [] });
  const after = await stored();
  assert.equal(after.id, 'demo');
  assert.equal(after.name, 'Renamed');
  assert.deepEqual(after.disabledTools, ['rm']);
  assert.deepEqual(after.auth, { kind: 'bearer', token });
  assert.equal(after.connectTimeoutMs, 90_000);
  assert.equal(after.connectOnStartup, true);
  await handlers['panel:update-server'](edit(after, { auth: { kind: 'bearer' }, connectTimeoutMs: null }));
  assert.equal((await stored()).connectTimeoutMs, undefined);
});

test('an edit that would drop approvals or authorization is refused until confirmed, then revokes first', async () => {
  const c = server('sec', {
    auth: { kind: 'oauth', binding: { resource: 'https://sec.example.com/mcp', issuer: 'https://as.example.com' }, tokens: {} },
  });
  const { handlers, stored, forgotten } = await setUp(c, 1);
  const moved = edit(c, { url: 'https://other.example.com/mcp', auth: { kind: 'oauth' } });
  await assert.rejects(handlers['panel:update-server'](moved), /would drop: authorization, approvals/);
  assert.equal((await stored()).url, c.url);
  assert.deepEqual(await handlers['panel:update-server']({ ...moved, confirmDrops: true }), { dropped: ['authorization', 'approvals'] });
  assert.deepEqual(forgotten, [c.url]);
  assert.deepEqual((await stored()).auth, { kind: 'oauth' });
});

test('changing only the scopes keeps the OAuth authorization', async () => {
  const auth = {
    kind: 'oauth' as const,
    binding: { resource: 'https://sec.example.com/mcp', issuer: 'https://as.example.com' },
    tokens: { scope: 'a' },
  };
  const c = server('sec', { auth });
  const { handlers, stored, forgotten } = await setUp(c);
  assert.deepEqual(await handlers['panel:update-server'](edit(c, { auth: { kind: 'oauth', scopes: ['a', 'b'] } })), { dropped: [] });
  assert.deepEqual((await stored()).auth, { ...auth, scopes: ['a', 'b'] });
  assert.deepEqual(forgotten, []);
});

test('a bearer token is not carried to another origin, and a new one is sealed', async () => {
  const c = server('demo', { auth: { kind: 'bearer', token: await sealBearer('demo', 'old') } });
  const { handlers, stored } = await setUp(c);
  await assert.rejects(
    handlers['panel:update-server'](edit(c, { url: 'https://elsewhere.example.com/mcp', auth: { kind: 'bearer' } })),
    /Enter the bearer token/,
  );
  await handlers['panel:update-server'](edit(c, { url: 'https://elsewhere.example.com/mcp', auth: { kind: 'bearer', token: 'new' } }));
  const after = await stored();
  assert.equal(after.auth.kind === 'bearer' && (await open(after.auth.token, purposeFor('bearer', { serverId: 'demo' }))), 'new');
});

test('headers: a blank value keeps the stored one, a new value is sealed, a left-out header is removed', async () => {
  const { seal } = await import('../../../../src/storage/seal.js');
  const sealed = (name: string, v: string) => seal(v, purposeFor('header', { serverId: 'demo', headerName: name }));
  const c = server('demo', {
    headers: [
      { name: 'X-A', value: await sealed('X-A', 'a') },
      { name: 'X-B', value: await sealed('X-B', 'b') },
    ],
  });
  const { handlers, stored } = await setUp(c);
  assert.deepEqual((await handlers['panel:get-server-settings']({ serverId: 'demo' })).headers, ['X-A', 'X-B']);
  await handlers['panel:update-server'](edit(c, { headers: [{ name: 'X-A', value: 'a2' }] }));
  const after = await stored();
  assert.deepEqual(
    after.headers?.map((h) => h.name),
    ['X-A'],
  );
  assert.equal(await open(after.headers[0]!.value, purposeFor('header', { serverId: 'demo', headerName: 'X-A' })), 'a2');
});

test('an invalid URL or an unknown server is refused', async () => {
  const c = server('demo');
  const { handlers } = await setUp(c);
  await assert.rejects(handlers['panel:update-server'](edit(c, { url: 'http://example.com/mcp' })), /must use https/);
  await assert.rejects(handlers['panel:update-server'](edit(c, { serverId: 'nope' })), /No server with id "nope"/);
});
