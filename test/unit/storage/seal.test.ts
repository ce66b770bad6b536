import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, simulateWorkerRestart } from './helpers.js';
import { DB_NAME, STORE_KEYS, idbRequest, openStorageDb } from '../../../src/storage/idb.js';
import { SealError, bindingOnlyPurpose, open, purposeFor, resetKeyCacheForTests, seal, sealHeader } from '../../../src/storage/seal.js';

beforeEach(freshIndexedDb);

const binding = { resource: 'https://mcp.example.com/mcp', issuer: 'https://auth.example.com' };

async function storedKeys(): Promise<unknown[]> {
  const db = await openStorageDb();
  return idbRequest(db.transaction(STORE_KEYS).objectStore(STORE_KEYS).getAll());
}

test('a sealed secret opens with the same purpose', async () => {
  const purpose = purposeFor('bearer', { serverId: 'github' });
  const blob = await seal('s3cr3t-token', purpose);
  assert.equal(blob.v, 1);
  assert.ok(!JSON.stringify(blob).includes('s3cr3t'));
  assert.equal(await open(blob, purpose), 's3cr3t-token');
});

test('each seal uses a fresh 96-bit IV', async () => {
  const a = await seal('same', 'p');
  const b = await seal('same', 'p');
  assert.notEqual(a.iv, b.iv);
  assert.notEqual(a.ct, b.ct);
  assert.equal(Buffer.from(a.iv, 'base64').length, 12);
});

test('opening with another purpose fails with SealError', async () => {
  const blob = await seal('refresh-abc', purposeFor('refresh', { serverId: 'x', binding }));
  const otherIssuer = purposeFor('refresh', { serverId: 'x', binding: { ...binding, issuer: 'https://evil.example.com' } });
  await assert.rejects(open(blob, otherIssuer), SealError);
  await assert.rejects(open(blob, purposeFor('refresh', { serverId: 'y', binding })), SealError, 'another account on the same URL');
  await assert.rejects(open(blob, bindingOnlyPurpose('refresh', binding)), SealError, "storage version 1's purpose");
  await assert.rejects(open(blob, purposeFor('bearer', { serverId: 'x' })), { name: 'SealError' });
});

test('tampered ciphertext or IV fails with SealError', async () => {
  const blob = await seal('hello world', 'p');
  const ct = Buffer.from(blob.ct, 'base64');
  ct[0] = ct[0]! ^ 1;
  await assert.rejects(open({ ...blob, ct: ct.toString('base64') }, 'p'), SealError);
  const iv = Buffer.from(blob.iv, 'base64');
  iv[11] = iv[11]! ^ 0x80;
  await assert.rejects(open({ ...blob, iv: iv.toString('base64') }, 'p'), SealError);
  await assert.rejects(open({ ...blob, ct: '!!not base64!!' }, 'p'), SealError);
  await assert.rejects(open({ v: 2 } as never, 'p'), SealError);
});

test('the key in IndexedDB is non-extractable', async () => {
  await seal('x', 'p');
  const [key] = (await storedKeys()) as CryptoKey[];
  assert.ok(key instanceof CryptoKey);
  assert.equal(key.extractable, false);
  await assert.rejects(crypto.subtle.exportKey('raw', key));
  await assert.rejects(crypto.subtle.exportKey('jwk', key));
});

test('after a worker restart the persisted key is reused, not replaced', async () => {
  const blob = await seal('survives', 'p');
  await simulateWorkerRestart();
  assert.equal(await open(blob, 'p'), 'survives');
  assert.equal((await storedKeys()).length, 1);
});

test('concurrent first seals create exactly one key', async () => {
  const blobs = await Promise.all(Array.from({ length: 8 }, (_, i) => seal(`v${i}`, 'p')));
  assert.equal((await storedKeys()).length, 1);
  await simulateWorkerRestart();
  for (const [i, blob] of blobs.entries()) assert.equal(await open(blob, 'p'), `v${i}`);
});

test('two contexts racing to create the key agree on one key', async () => {
  // The cache reset between the calls makes the second a separate load, as another context would be.
  const first = seal('from-a', 'p');
  resetKeyCacheForTests();
  const second = seal('from-b', 'p');
  const [a, b] = await Promise.all([first, second]);
  await simulateWorkerRestart();
  assert.equal(await open(a, 'p'), 'from-a');
  assert.equal(await open(b, 'p'), 'from-b');
  assert.equal((await storedKeys()).length, 1);
});

test('a lost key database makes old blobs fail to open rather than decrypt wrongly', async () => {
  const blob = await seal('gone', 'p');
  await simulateWorkerRestart();
  await new Promise<void>((resolve, reject) => {
    const r = indexedDB.deleteDatabase(DB_NAME);
    r.onsuccess = () => resolve();
    r.onerror = () => reject(r.error ?? new Error('deleteDatabase failed'));
  });
  await assert.rejects(open(blob, 'p'), SealError);
});

test('purposes are deterministic, distinct per kind and owner, and refuse missing parts', () => {
  assert.equal(purposeFor('refresh', { serverId: 's', binding }), purposeFor('refresh', { serverId: 's', binding: { ...binding } }));
  assert.notEqual(purposeFor('refresh', { serverId: 's', binding }), purposeFor('client-secret', { serverId: 's', binding }));
  assert.notEqual(purposeFor('refresh', { serverId: 's', binding }), purposeFor('refresh', { serverId: 't', binding }));
  assert.notEqual(purposeFor('bearer', { serverId: 'a' }), purposeFor('bearer', { serverId: 'b' }));
  assert.equal(
    purposeFor('header', { serverId: 'a', headerName: 'X-Api-Key' }),
    purposeFor('header', { serverId: 'a', headerName: 'x-api-key' }),
  );
  assert.notEqual(
    purposeFor('refresh', { serverId: 's', binding: { resource: 'a\nb', issuer: 'c' } }),
    purposeFor('refresh', { serverId: 's', binding: { resource: 'a', issuer: 'b\nc' } }),
  );
  assert.throws(() => purposeFor('refresh', { serverId: 'a' }), TypeError);
  assert.throws(() => purposeFor('refresh', { binding }), TypeError, 'a refresh token is sealed for its server too (S3)');
  assert.throws(() => purposeFor('client-secret', { binding }), TypeError);
  assert.throws(() => purposeFor('header', { serverId: 'a' }), TypeError);
  assert.throws(() => purposeFor('bearer', {}), TypeError);
});

test('a sealed header opens with its server and header name, in any case, and no other', async () => {
  const blob = await sealHeader('github', 'X-Api-Key', 'k3y');
  assert.equal(await open(blob, purposeFor('header', { serverId: 'github', headerName: 'x-api-key' })), 'k3y');
  await assert.rejects(open(blob, purposeFor('header', { serverId: 'gitlab', headerName: 'X-Api-Key' })), SealError);
  await assert.rejects(open(blob, purposeFor('header', { serverId: 'github', headerName: 'X-Other' })), SealError);
  const purposes: string[] = [];
  await sealHeader('github', 'X-Api-Key', 'k3y', async (_plaintext, purpose) => (purposes.push(purpose), blob));
  assert.deepEqual(purposes, [purposeFor('header', { serverId: 'github', headerName: 'X-Api-Key' })]);
});
