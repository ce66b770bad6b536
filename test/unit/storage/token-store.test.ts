import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from './helpers.js';
import { MemoryArea } from '../../support/memory-area.js';
import { TOKEN_KEY_PREFIX, TokenStore, openRefreshToken, sealRefreshToken, tokenKey } from '../../../src/storage/token-store.js';
import { SealError } from '../../../src/storage/seal.js';

beforeEach(freshIndexedDb);

const b1 = { resource: 'https://mcp.example.com/mcp', issuer: 'https://as1.example.com' };
const b2 = { resource: 'https://mcp.example.com/mcp', issuer: 'https://as2.example.com' };
const own = (serverId: string, binding = b1) => ({ serverId, ...binding });
const token = (accessToken: string) => ({ accessToken, tokenType: 'Bearer', expiresAt: 1_900_000_000_000, scope: 'read' });

test('access tokens are keyed by a digest of (server, resource, issuer)', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put(own('srv'), token('AT-1'));
  assert.deepEqual(await store.get(own('srv')), token('AT-1'));
  assert.equal(await store.get(own('srv', b2)), undefined, 'another issuer never sees the token');
  assert.equal(await store.get(own('srv', { ...b1, resource: 'https://mcp.example.com/other' })), undefined);

  const key = await tokenKey(own('srv'));
  assert.match(key, new RegExp(`^${TOKEN_KEY_PREFIX}[0-9a-f]{32}$`));
  assert.notEqual(key, await tokenKey(own('srv', b2)));
  assert.ok(!key.includes('example') && !key.includes('srv'), 'the key does not reveal the owner');
  assert.deepEqual(area.dump()[key], token('AT-1'));
});

test('two entries on one URL and issuer (two accounts, S3) each keep their own token', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put(own('work'), token('AT-WORK'));
  await store.put(own('personal'), token('AT-HOME'));
  assert.notEqual(await tokenKey(own('work')), await tokenKey(own('personal')));
  assert.deepEqual(await store.get(own('work')), token('AT-WORK'));
  assert.deepEqual(await store.get(own('personal')), token('AT-HOME'));
  await store.remove(own('work'));
  assert.equal(await store.get(own('work')), undefined);
  assert.deepEqual(await store.get(own('personal')), token('AT-HOME'), "removing one account's token leaves the other's");
  assert.equal(await store.dropOtherBindings('work'), 0);
  assert.deepEqual(await store.get(own('personal')), token('AT-HOME'));
  assert.equal(await store.dropOtherBindings('personal'), 1);
  assert.deepEqual(Object.keys(area.dump()), ['mcp_token_owners']);
});

test('the key parts cannot run into each other', async () => {
  assert.notEqual(
    await tokenKey({ serverId: 'a', resource: 'b\nc', issuer: 'd' }),
    await tokenKey({ serverId: 'a\nb', resource: 'c', issuer: 'd' }),
  );
});

test('changing the binding deletes the tokens of the old one', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put(own('srv'), token('OLD'));
  await store.put(own('srv', b2), token('NEW'));
  assert.equal(await store.dropOtherBindings('srv', b2), 1);
  assert.equal(await store.get(own('srv')), undefined);
  assert.deepEqual(await store.get(own('srv', b2)), token('NEW'));
  assert.ok(!JSON.stringify(area.dump()).includes('OLD'));
});

test('remove deletes the owner token; a corrupt stored value reads as absent', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put(own('srv'), token('X'));
  await store.remove(own('srv'));
  assert.equal(await store.get(own('srv')), undefined);
  await area.set({ [await tokenKey(own('srv', b2))]: { accessToken: '' } });
  assert.equal(await store.get(own('srv', b2)), undefined);
});

test('concurrent puts for different bindings keep every owner record', async () => {
  const store = new TokenStore(new MemoryArea());
  const bindings = Array.from({ length: 10 }, (_, i) => ({ resource: `https://r${i}`, issuer: 'https://as' }));
  await Promise.all(bindings.map((b, i) => store.put(own('srv', b), token(`T${i}`))));
  assert.equal(await store.dropOtherBindings('srv'), 10);
});

test('a refresh token opens only for the entry and binding it was sealed for', async () => {
  const blob = await sealRefreshToken(own('srv'), 'RT-secret');
  assert.ok(!JSON.stringify(blob).includes('RT-secret'));
  assert.equal(await openRefreshToken(own('srv'), blob), 'RT-secret');
  await assert.rejects(openRefreshToken(own('srv', b2), blob), SealError);
  await assert.rejects(openRefreshToken(own('other'), blob), SealError, "another account's entry on the same URL cannot open it");
});
