/**
 * The directory's request against the registry stand-in over real HTTP (SPEC S1, N1, N2): the
 * query it sends, paging on the cursor, and each way a registry can fail — no permission, HTTP
 * 500, a stall, HTML, a redirect, a refused connection, a body over the cap — as an error in words.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_REGISTRY_BODY,
  RegistryError,
  searchRegistry,
  searchUrl,
  type RegistryPorts,
} from '../../../../src/sw/directory/registry-client.js';
import { outgoingFetch } from '../../../../src/common/outgoing-fetch.js';
import { packageEntry, startRegistryServer, streamableEntry, type RegistryServer } from '../../../support/registry-server.js';

let reg: RegistryServer;
const granted: RegistryPorts = { fetch: outgoingFetch, contains: async () => true, timeoutMs: 1500 };

before(async () => {
  const entries = Array.from({ length: 45 }, (_, i) => streamableEntry(`io.example/s${i}`, `https://s${i}.example/mcp`));
  reg = await startRegistryServer([...entries, packageEntry('io.example/files')]);
});
after(() => reg.close());

async function failure(p: Promise<unknown>): Promise<RegistryError> {
  const e = await p.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error,
  );
  assert.ok(e instanceof RegistryError, String(e));
  return e;
}

test('the search URL keeps a base path and asks for the latest versions only', () => {
  assert.equal(
    searchUrl('https://corp.example/registry/', ' files ', 'c1'),
    'https://corp.example/registry/v0.1/servers?limit=30&version=latest&search=files&cursor=c1',
  );
});

test('pages follow the cursor to the end; search is sent as typed', async () => {
  const first = await searchRegistry(granted, reg.url, { search: '' });
  assert.equal(first.entries.length, 30);
  assert.ok(first.nextCursor);
  const second = await searchRegistry(granted, reg.url, { search: '', cursor: first.nextCursor });
  assert.equal(second.entries.length, 16);
  assert.equal(second.nextCursor, undefined);
  assert.equal(second.entries.at(-1)!.unusable?.wording?.code, 'reasonDirectoryOnlyPackages');
  const found = await searchRegistry(granted, reg.url, { search: 'FILES' });
  assert.deepEqual(
    found.entries.map((e) => e.name),
    ['io.example/files'],
  );
  assert.deepEqual(
    reg.requests.slice(-3).map((r) => [r.path, r.search, r.cursor !== null, r.limit]),
    [
      ['/v0.1/servers', null, false, '30'],
      ['/v0.1/servers', null, true, '30'],
      ['/v0.1/servers', 'FILES', false, '30'],
    ],
  );
});

test('without the origin granted nothing is sent', async () => {
  const before = reg.requests.length;
  const e = await failure(searchRegistry({ ...granted, contains: async () => false }, reg.url, { search: '' }));
  assert.equal(e.code, 'permission');
  assert.equal(e.wording?.code, 'reasonRegistryNoPermission');
  assert.equal(reg.requests.length, before);
});

const cases: [string, Parameters<RegistryServer['setMode']>[0], string, string][] = [
  ['HTTP 500', 'error-500', 'http-status', 'reasonRegistryHttpStatus'],
  ['a stall', 'stall', 'timeout', 'reasonRegistryTimeout'],
  ['an HTML page', 'html', 'bad-response', 'reasonRegistryNotJson'],
  ['a redirect to another origin', 'redirect', 'network', 'reasonRegistryUnreachable'],
  ['a refused connection', 'refused', 'network', 'reasonRegistryUnreachable'],
];
for (const [what, mode, code, wording] of cases) {
  test(`a registry that answers with ${what} is an error in words naming it`, async () => {
    await reg.setMode(mode);
    try {
      const e = await failure(searchRegistry(granted, reg.url, { search: '' }));
      assert.equal(e.code, code);
      assert.equal(e.wording?.code, wording);
      assert.equal(e.wording?.params?.['origin'], reg.origin);
    } finally {
      await reg.setMode('ok');
    }
  });
}

test('10,000 entries in one page: 100 kept, the rest counted, the oversized cursor not kept', async () => {
  await reg.setMode('flood');
  try {
    const page = await searchRegistry(granted, reg.url, { search: '' });
    assert.equal(page.entries.length, 100);
    assert.equal(page.dropped, 9_900);
    assert.equal(page.nextCursor, undefined);
  } finally {
    await reg.setMode('ok');
  }
});

test('a body over the cap is not read', async () => {
  const big: RegistryPorts = {
    ...granted,
    fetch: async () => new Response(new Uint8Array(MAX_REGISTRY_BODY + 1), { headers: { 'content-type': 'application/json' } }),
  };
  const e = await failure(searchRegistry(big, reg.url, { search: '' }));
  assert.equal(e.code, 'response-too-large');
  const malformed = await failure(searchRegistry({ ...granted, fetch: async () => Response.json({ items: [] }) }, reg.url, { search: '' }));
  assert.equal(malformed.wording?.code, 'reasonRegistryMalformed');
});
