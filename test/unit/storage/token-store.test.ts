import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb } from './helpers.js';
import { MemoryArea } from '../../support/memory-area.js';
import { TOKEN_KEY_PREFIX, TokenStore, openRefreshToken, sealRefreshToken, tokenKey } from '../../../src/storage/token-store.js';
import { SealError } from '../../../src/storage/seal.js';

beforeEach(freshIndexedDb);

const b1 = { resource: 'https://mcp.example.com/mcp', issuer: 'https://as1.example.com' };
const b2 = { resource: 'https://mcp.example.com/mcp', issuer: 'https://as2.example.com' };
const token = (accessToken: string) => ({ accessToken, tokenType: 'Bearer', expiresAt: 1_900_000_000_000, scope: 'read' });

test('access tokens are keyed by a digest of (resource, issuer), not by server', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put('srv', b1, token('AT-1'));
  assert.deepEqual(await store.get(b1), token('AT-1'));
  assert.equal(await store.get(b2), undefined, 'another issuer never sees the token');
  assert.equal(await store.get({ ...b1, resource: 'https://mcp.example.com/other' }), undefined);

  const key = await tokenKey(b1);
  assert.match(key, new RegExp(`^${TOKEN_KEY_PREFIX}[0-9a-f]{32}$`));
  assert.notEqual(key, await tokenKey(b2));
  assert.ok(!key.includes('example'), 'the key does not reveal the binding');
  assert.deepEqual(area.dump()[key], token('AT-1'));
});

test('changing the binding deletes the tokens of the old one', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put('srv', b1, token('OLD'));
  await store.put('srv', b2, token('NEW'));
  assert.equal(await store.dropOtherBindings('srv', b2), 1);
  assert.equal(await store.get(b1), undefined);
  assert.deepEqual(await store.get(b2), token('NEW'));
  assert.ok(!JSON.stringify(area.dump()).includes('OLD'));
});

test('a token shared by two servers survives until its last owner drops it', async () => {
  const store = new TokenStore(new MemoryArea());
  await store.put('a', b1, token('SHARED'));
  await store.put('b', b1, token('SHARED'));
  assert.equal(await store.dropOtherBindings('a'), 0);
  assert.deepEqual(await store.get(b1), token('SHARED'));
  assert.equal(await store.dropOtherBindings('b'), 1);
  assert.equal(await store.get(b1), undefined);
});

test('remove deletes the binding token; a corrupt stored value reads as absent', async () => {
  const area = new MemoryArea();
  const store = new TokenStore(area);
  await store.put('srv', b1, token('X'));
  await store.remove(b1);
  assert.equal(await store.get(b1), undefined);
  await area.set({ [await tokenKey(b2)]: { accessToken: '' } });
  assert.equal(await store.get(b2), undefined);
});

test('concurrent puts for different bindings keep every owner record', async () => {
  const store = new TokenStore(new MemoryArea());
  const bindings = Array.from({ length: 10 }, (_, i) => ({ resource: `https://r${i}`, issuer: 'https://as' }));
  await Promise.all(bindings.map((b, i) => store.put('srv', b, token(`T${i}`))));
  assert.equal(await store.dropOtherBindings('srv'), 10);
});

test('a refresh token opens only for the binding it was sealed for', async () => {
  const blob = await sealRefreshToken(b1, 'RT-secret');
  assert.ok(!JSON.stringify(blob).includes('RT-secret'));
  assert.equal(await openRefreshToken(b1, blob), 'RT-secret');
  await assert.rejects(openRefreshToken(b2, blob), SealError);
});
