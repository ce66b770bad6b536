/**
 * The extension's credential store over chrome storage (SPEC E10, F1, F2), with the real
 * ConfigStore and TokenStore over in-memory areas and real AES-GCM sealing (fake-indexeddb).
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, server, simulateWorkerRestart } from '../../storage/helpers.js';
import { MemoryArea } from '../../../support/memory-area.js';
import { ConfigStore } from '../../../../src/storage/config-store.js';
import { TokenStore } from '../../../../src/storage/token-store.js';
import { SERVERS_KEY } from '../../../../src/storage/config-schema.js';
import { ChromeCredentialStore } from '../../../../src/sw/chrome/chrome-credential-store.js';
import type { CredentialKey } from '../../../../src/sw/auth/ports.js';

beforeEach(freshIndexedDb);

const URL_A = 'https://mcp.example.com/mcp';
const AS1 = 'https://as1.example.com';
const AS2 = 'https://as2.example.com';
const key = (issuer: string, serverId = 'srv'): CredentialKey => ({ serverId, resource: URL_A, issuer });

async function setup() {
  const local = new MemoryArea();
  const session = new MemoryArea();
  const config = new ConfigStore(local);
  await config.update(() => [
    server('srv', { url: URL_A, auth: { kind: 'oauth' } }),
    server('other', { url: URL_A, auth: { kind: 'oauth' } }),
  ]);
  const store = new ChromeCredentialStore(config, new TokenStore(session));
  return { local, session, config, store };
}

test('credentials round-trip under the key they were stored for', async () => {
  const { store } = await setup();
  const k = key(AS1);
  await store.putClient(k, { clientId: 'dyn-client', clientSecret: 'CS-secret-1', tokenEndpointAuthMethod: 'client_secret_post' });
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putAccessToken(k, { token: 'AT-1', expiresAt: 1_900_000_000_000, scope: 'mcp:tools' });
  await store.putRefreshToken(k, { token: 'RT-1', scope: 'mcp:tools' });

  assert.deepEqual(await store.getBinding('srv'), { resource: URL_A, issuer: AS1 });
  assert.deepEqual(await store.getClient(k), {
    clientId: 'dyn-client',
    clientSecret: 'CS-secret-1',
    tokenEndpointAuthMethod: 'client_secret_post',
  });
  assert.deepEqual(await store.getAccessToken(k), { token: 'AT-1', expiresAt: 1_900_000_000_000, scope: 'mcp:tools' });
  assert.deepEqual(await store.getRefreshToken(k), { token: 'RT-1', scope: 'mcp:tools' });

  await simulateWorkerRestart();
  assert.deepEqual(await store.getRefreshToken(k), { token: 'RT-1', scope: 'mcp:tools' }, 'survives a worker restart');
});

test('nothing is found under another issuer, another resource or another server (E10)', async () => {
  const { store } = await setup();
  const k = key(AS1);
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putClient(k, { clientId: 'dyn-client', tokenEndpointAuthMethod: 'none' });
  await store.putAccessToken(k, { token: 'AT-1' });
  await store.putRefreshToken(k, { token: 'RT-1' });

  for (const other of [key(AS2), { ...k, resource: 'https://mcp.example.com/other' }, key(AS1, 'other')]) {
    assert.equal(await store.getClient(other), undefined);
    assert.equal(await store.getAccessToken(other), undefined);
    assert.equal(await store.getRefreshToken(other), undefined);
  }
  assert.equal(await store.getBinding('other'), undefined);
});

test('storing for a new issuer drops the old binding’s client and refresh token', async () => {
  const { store, local } = await setup();
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putClient(key(AS1), { clientId: 'old-client', tokenEndpointAuthMethod: 'none' });
  await store.putRefreshToken(key(AS1), { token: 'RT-OLD' });

  await store.putClient(key(AS2), { clientId: 'new-client', tokenEndpointAuthMethod: 'none' });
  assert.deepEqual(await store.getBinding('srv'), { resource: URL_A, issuer: AS2 });
  assert.equal(await store.getRefreshToken(key(AS1)), undefined);
  assert.equal(await store.getClient(key(AS1)), undefined);
  assert.equal((await store.getClient(key(AS2)))?.clientId, 'new-client');
  assert.ok(!JSON.stringify(local.dump()).includes('old-client'), 'the old registration is gone from storage');
});

test('refresh tokens and client secrets are sealed at rest; access tokens never reach the local area (F1, F2)', async () => {
  const { store, local, session } = await setup();
  const k = key(AS1);
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putClient(k, { clientId: 'dyn-client', clientSecret: 'CS-PLAINTEXT-9f2', tokenEndpointAuthMethod: 'client_secret_basic' });
  await store.putAccessToken(k, { token: 'AT-PLAINTEXT-7c1' });
  await store.putRefreshToken(k, { token: 'RT-PLAINTEXT-3b8' });

  const atRest = JSON.stringify(local.dump());
  for (const secret of ['CS-PLAINTEXT-9f2', 'AT-PLAINTEXT-7c1', 'RT-PLAINTEXT-3b8'])
    assert.equal(atRest.includes(secret), false, `${secret} in chrome.storage.local`);
  assert.ok(JSON.stringify(session.dump()).includes('AT-PLAINTEXT-7c1'), 'the access token lives in the session area');

  const entry = (
    local.dump()[SERVERS_KEY] as { id: string; auth: { tokens: { refresh: object }; registration: { clientSecret: object } } }[]
  ).find((s) => s.id === 'srv')!;
  assert.deepEqual(Object.keys(entry.auth.tokens.refresh).sort(), ['ct', 'iv', 'v']);
  assert.deepEqual(Object.keys(entry.auth.registration.clientSecret).sort(), ['ct', 'iv', 'v']);
});

test('a sealed refresh token copied to another server’s entry under another binding cannot be opened or used', async () => {
  const { store, config } = await setup();
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putRefreshToken(key(AS1), { token: 'RT-1' });
  const sealed = (await config.read()).servers.find((s) => s.id === 'srv')!.auth;
  assert.equal(sealed.kind, 'oauth');
  await config.update((servers) =>
    servers.map((s) =>
      s.id === 'other' && sealed.kind === 'oauth'
        ? { ...s, auth: { kind: 'oauth', binding: { resource: URL_A, issuer: AS2 }, tokens: sealed.tokens! } }
        : s,
    ),
  );
  assert.equal(await store.getRefreshToken(key(AS2, 'other')), undefined, 'unopenable, so unusable: needs-auth, never sent');
});

test('two entries on the same URL and issuer (two accounts, S3) keep separate tokens, clients and refresh tokens', async () => {
  const { store, config } = await setup();
  const binding = { resource: URL_A, issuer: AS1 };
  await store.putBinding('srv', binding);
  await store.putBinding('other', binding);
  await store.putClient(key(AS1), { clientId: 'client-work', clientSecret: 'CS-work', tokenEndpointAuthMethod: 'client_secret_post' });
  await store.putClient(key(AS1, 'other'), { clientId: 'client-home', tokenEndpointAuthMethod: 'none' });
  await store.putAccessToken(key(AS1), { token: 'AT-work' });
  await store.putAccessToken(key(AS1, 'other'), { token: 'AT-home' });
  await store.putRefreshToken(key(AS1), { token: 'RT-work' });
  await store.putRefreshToken(key(AS1, 'other'), { token: 'RT-home' });
  assert.equal((await store.getAccessToken(key(AS1)))?.token, 'AT-work');
  assert.equal((await store.getAccessToken(key(AS1, 'other')))?.token, 'AT-home');
  assert.equal((await store.getRefreshToken(key(AS1)))?.token, 'RT-work');
  assert.equal((await store.getRefreshToken(key(AS1, 'other')))?.token, 'RT-home');
  assert.equal((await store.getClient(key(AS1)))?.clientId, 'client-work');
  assert.equal((await store.getClient(key(AS1, 'other')))?.clientId, 'client-home');

  // Forgetting one account leaves the other's credentials where they were.
  await store.clear(key(AS1));
  assert.equal(await store.getAccessToken(key(AS1)), undefined);
  assert.equal((await store.getAccessToken(key(AS1, 'other')))?.token, 'AT-home');
  assert.equal((await store.getRefreshToken(key(AS1, 'other')))?.token, 'RT-home');

  // A refresh token and client secret copied into the other account's entry, same binding, do not open.
  await store.putClient(key(AS1), { clientId: 'client-work', clientSecret: 'CS-work', tokenEndpointAuthMethod: 'client_secret_post' });
  await store.putRefreshToken(key(AS1), { token: 'RT-work' });
  const work = (await config.read()).servers.find((s) => s.id === 'srv')!.auth;
  assert.equal(work.kind, 'oauth');
  await config.update((servers) =>
    servers.map((s) => (s.id === 'other' && work.kind === 'oauth' ? { ...s, auth: { ...work, binding } } : s)),
  );
  assert.equal(await store.getRefreshToken(key(AS1, 'other')), undefined, "another account's refresh token is never used");
  assert.equal(await store.getClient(key(AS1, 'other')), undefined, "another account's client secret is never sent");
});

test('clear and putBinding(undefined) remove every credential of the binding', async () => {
  const { store, local, session } = await setup();
  const k = key(AS1);
  await store.putBinding('srv', { resource: URL_A, issuer: AS1 });
  await store.putClient(k, { clientId: 'dyn-client', tokenEndpointAuthMethod: 'none' });
  await store.putAccessToken(k, { token: 'AT-1' });
  await store.putRefreshToken(k, { token: 'RT-1' });
  await store.clear(k);
  assert.equal(await store.getClient(k), undefined);
  assert.equal(await store.getAccessToken(k), undefined);
  assert.equal(await store.getRefreshToken(k), undefined);
  await store.putBinding('srv', undefined);
  assert.equal(await store.getBinding('srv'), undefined);
  const entry = (local.dump()[SERVERS_KEY] as { id: string; auth: object }[]).find((s) => s.id === 'srv')!;
  assert.deepEqual(entry.auth, { kind: 'oauth' });
  assert.ok(!JSON.stringify(session.dump()).includes('AT-1'));
});

test('a server that is not an OAuth server stores nothing', async () => {
  const { store, config } = await setup();
  await config.update((servers) => [...servers, server('plain', { url: 'https://plain.example.com/mcp' })]);
  await store.putBinding('plain', { resource: URL_A, issuer: AS1 });
  assert.equal(await store.getBinding('plain'), undefined);
});

test('the issuer of a configured client is pinned in its entry and unpinned by Forget (E10)', async () => {
  const local = new MemoryArea();
  const config = new ConfigStore(local);
  await config.update(() => [
    server('mine', { url: URL_A, auth: { kind: 'oauth', clientId: 'user-client' } }),
    server('dyn', { url: URL_A, auth: { kind: 'oauth' } }),
  ]);
  const store = new ChromeCredentialStore(config, new TokenStore(new MemoryArea()));
  await store.pinClientIssuer('mine', AS1);
  await store.pinClientIssuer('dyn', AS1);
  const entries = async () => (await config.read()).servers.map((s) => (s.auth.kind === 'oauth' ? s.auth.clientIssuer : 'n/a'));
  assert.deepEqual(await entries(), [AS1, undefined], 'only an entry with a configured client id is pinned');
  await store.pinClientIssuer('mine', undefined);
  assert.deepEqual(await entries(), [undefined, undefined]);
});
