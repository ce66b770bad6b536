import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshIndexedDb, server } from './helpers.js';
import { MemoryArea } from '../../support/memory-area.js';
import { ConfigStore, ConfigStoreError } from '../../../src/storage/config-store.js';
import { CURRENT_SCHEMA_VERSION, SCHEMA_VERSION_KEY, SERVERS_KEY, type McpServerConfig } from '../../../src/storage/config-schema.js';
import { SealError, bindingOnlyPurpose, open, purposeFor, seal } from '../../../src/storage/seal.js';

beforeEach(freshIndexedDb);

async function storeWith(items: Record<string, unknown>) {
  const area = new MemoryArea();
  await area.set(items);
  return { area, store: new ConfigStore(area) };
}

const newServer = (name: string): Omit<McpServerConfig, 'id'> => {
  const { id: _id, ...rest } = server('x', { name });
  return rest;
};

test('an empty area reads as no servers and no errors', async () => {
  const { store } = await storeWith({});
  assert.deepEqual(await store.read(), { servers: [], invalid: [] });
});

test('a v0 config is migrated to the current version with every plaintext secret sealed', async () => {
  const { area, store } = await storeWith({
    [SERVERS_KEY]: [
      { name: 'GitHub Copilot', url: 'https://gh.example.com/mcp', auth: { kind: 'bearer', token: 'ghp_PLAINTEXT' } },
      { name: 'Docs', url: 'https://docs.example.com/mcp', headers: { 'X-Api-Key': 'key-PLAINTEXT' }, enabled: false },
      { name: 'Auth', url: 'https://a.example.com/mcp', auth: { kind: 'oauth', clientId: 'c1', clientSecret: 'cs-PLAINTEXT' } },
    ],
  });
  const { servers, invalid } = await store.read();
  assert.deepEqual(invalid, []);
  assert.deepEqual(
    servers.map((s) => s.id),
    ['github-copilot', 'docs', 'auth'],
  );
  assert.equal(servers[1]!.enabled, false);
  assert.deepEqual(servers[0]!.disabledTools, []);
  assert.equal(servers[0]!.connectOnStartup, false);

  const dump = area.dump();
  assert.equal(dump[SCHEMA_VERSION_KEY], CURRENT_SCHEMA_VERSION);
  assert.ok(!JSON.stringify(dump).includes('PLAINTEXT'), 'no plaintext secret left in storage');

  const gh = servers[0]!;
  assert.equal(gh.auth.kind, 'bearer');
  if (gh.auth.kind === 'bearer')
    assert.equal(await open(gh.auth.token, purposeFor('bearer', { serverId: 'github-copilot' })), 'ghp_PLAINTEXT');
  const header = servers[1]!.headers![0]!;
  assert.equal(header.name, 'X-Api-Key');
  assert.equal(await open(header.value, purposeFor('header', { serverId: 'docs', headerName: 'X-Api-Key' })), 'key-PLAINTEXT');
  const oauth = servers[2]!.auth;
  if (oauth.kind !== 'oauth' || !oauth.clientSecret) assert.fail('oauth client secret lost');
  assert.equal(await open(oauth.clientSecret, purposeFor('client-secret', { serverId: 'auth' })), 'cs-PLAINTEXT');

  // The migration ran once: a second read sees the same sealed blobs.
  assert.deepEqual((await store.read()).servers, servers);
});

test('a corrupt entry is reported, kept, and survives writes to other entries', async () => {
  const corrupt = { id: 'broken', name: '', url: 42, auth: { kind: 'telepathy' } };
  const { area, store } = await storeWith({
    [SCHEMA_VERSION_KEY]: 1,
    [SERVERS_KEY]: [server('a'), corrupt, server('b')],
  });
  const first = await store.read();
  assert.deepEqual(
    first.servers.map((s) => s.id),
    ['a', 'b'],
  );
  assert.equal(first.invalid.length, 1);
  assert.equal(first.invalid[0]!.index, 1);
  assert.equal(first.invalid[0]!.id, 'broken');
  assert.match(first.invalid[0]!.error, /\S/);

  await store.updateServer('b', { enabled: false });
  await store.addServer(newServer('C'));
  await store.removeServer('a');

  const stored = area.dump()[SERVERS_KEY] as unknown[];
  assert.ok(
    stored.some((e) => JSON.stringify(e) === JSON.stringify(corrupt)),
    'corrupt entry written back verbatim',
  );
  const after = await store.read();
  assert.deepEqual(
    after.servers.map((s) => s.id),
    ['b', 'c'],
  );
  assert.equal(after.invalid.length, 1);
  assert.equal(after.invalid[0]!.id, 'broken');
});

test('a new server never takes the id of a corrupt entry', async () => {
  const { store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: [{ id: 'docs', broken: true }] });
  const added = await store.addServer(newServer('Docs'));
  assert.equal(added.id, 'docs-2');
});

test('a stored value that is not an array is kept as an invalid entry', async () => {
  const { area, store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: { oops: true } });
  assert.equal((await store.read()).invalid.length, 1);
  await store.addServer(newServer('New'));
  const stored = area.dump()[SERVERS_KEY] as unknown[];
  assert.deepEqual(stored[0], { oops: true });
  assert.equal((await store.read()).servers[0]!.id, 'new');
});

test('duplicate ids: the first wins, the second is reported', async () => {
  const { store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: [server('a'), server('a', { name: 'Other' })] });
  const { servers, invalid } = await store.read();
  assert.equal(servers.length, 1);
  assert.equal(servers[0]!.name, 'Server a');
  assert.deepEqual(
    invalid.map((i) => [i.index, i.id]),
    [[1, 'a']],
  );
  assert.match(invalid[0]!.error, /duplicate/);
});

test('concurrent updates lose nothing', async () => {
  const { store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: [server('a')] });
  // Each updater yields mid-way, so without the queue every one would read the same old list.
  const tick = () => new Promise((r) => setTimeout(r, 1));
  await Promise.all([
    ...Array.from({ length: 10 }, (_, i) =>
      store.update(async (servers) => {
        await tick();
        return [...servers, server(`s${i}`)];
      }),
    ),
    store.update(async (servers) => {
      await tick();
      return servers.map((s) => (s.id === 'a' ? { ...s, disabledTools: ['t1'] } : s));
    }),
    store.addServer(newServer('Added')),
  ]);
  const { servers } = await store.read();
  assert.equal(servers.length, 12);
  assert.deepEqual(servers.find((s) => s.id === 'a')!.disabledTools, ['t1']);
  assert.ok(servers.some((s) => s.id === 'added'));
});

test('a failing update rejects alone and the next one still runs', async () => {
  const { store } = await storeWith({});
  const failing = store.update(() => {
    throw new Error('boom');
  });
  const next = store.addServer(newServer('Ok'));
  await assert.rejects(failing, /boom/);
  assert.equal((await next).id, 'ok');
});

test('an invalid write is refused and nothing is stored', async () => {
  const { area, store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: [server('a')] });
  await assert.rejects(
    store.update((s) => [...s, { ...server('b'), url: '' }]),
    ConfigStoreError,
  );
  await assert.rejects(
    store.update((s) => [...s, server('a')]),
    /Duplicate/,
  );
  await assert.rejects(store.updateServer('missing', { enabled: false }), ConfigStoreError);
  assert.equal((area.dump()[SERVERS_KEY] as unknown[]).length, 1);
});

test('a config from a newer version is read but never written over', async () => {
  const { area, store } = await storeWith({ [SCHEMA_VERSION_KEY]: CURRENT_SCHEMA_VERSION + 1, [SERVERS_KEY]: [server('a')] });
  assert.equal((await store.read()).servers.length, 1);
  await assert.rejects(store.addServer(newServer('B')), ConfigStoreError);
  assert.equal(area.dump()[SCHEMA_VERSION_KEY], CURRENT_SCHEMA_VERSION + 1);
});

test('a read says which newer version stored the config (the panel shows it, B1); a current one says nothing', async () => {
  const newer = await storeWith({ [SCHEMA_VERSION_KEY]: CURRENT_SCHEMA_VERSION + 1, [SERVERS_KEY]: [server('a')] });
  assert.equal((await newer.store.read()).newerVersion, String(CURRENT_SCHEMA_VERSION + 1));
  const odd = await storeWith({ [SCHEMA_VERSION_KEY]: 'next', [SERVERS_KEY]: [server('a')] });
  assert.equal((await odd.store.read()).newerVersion, 'next');
  const current = await storeWith({ [SCHEMA_VERSION_KEY]: 1, [SERVERS_KEY]: [server('a')] });
  assert.equal('newerVersion' in (await current.store.read()), false);
});

test('updateServer keeps the id on rename; removeServer reports whether it removed', async () => {
  const { store } = await storeWith({});
  const a = await store.addServer(newServer('Alpha'));
  const renamed = await store.updateServer(a.id, { name: 'Beta' });
  assert.equal(renamed.id, 'alpha');
  assert.equal(renamed.name, 'Beta');
  assert.equal(await store.removeServer('alpha'), true);
  assert.equal(await store.removeServer('alpha'), false);
});

test('a v1 config is migrated to v2: refresh tokens and registered client secrets are sealed for their server too (S3)', async () => {
  const binding = { resource: 'https://mcp.example.com/mcp', issuer: 'https://as.example.com' };
  const v1Refresh = (token: string) => seal(token, bindingOnlyPurpose('refresh', binding));
  const oauth = async (id: string, token: string) =>
    server(id, {
      url: binding.resource,
      auth: {
        kind: 'oauth',
        binding,
        registration: { clientId: `client-${id}`, clientSecret: await seal(`CS-${id}`, bindingOnlyPurpose('client-secret', binding)) },
        tokens: { refresh: await v1Refresh(token), scope: 'mcp:tools' },
      },
    });
  const garbage = await seal('unrelated', 'p');
  const broken = server('broken', { url: binding.resource, auth: { kind: 'oauth', binding, tokens: { refresh: garbage } } });
  const { area, store } = await storeWith({
    [SCHEMA_VERSION_KEY]: 1,
    [SERVERS_KEY]: [await oauth('work', 'RT-work'), server('plain'), broken, { id: 'odd', auth: 'nonsense' }],
  });
  const { servers, invalid } = await store.read();
  assert.equal(area.dump()[SCHEMA_VERSION_KEY], CURRENT_SCHEMA_VERSION);
  assert.deepEqual(
    invalid.map((i) => i.id),
    ['odd'],
    'an entry the migration cannot read is carried as it was',
  );
  const work = servers.find((s) => s.id === 'work')!.auth;
  if (work.kind !== 'oauth' || !work.tokens?.refresh || !work.registration?.clientSecret)
    assert.fail('the oauth entry lost its credentials');
  assert.equal(await open(work.tokens.refresh, purposeFor('refresh', { serverId: 'work', binding })), 'RT-work');
  assert.equal(await open(work.registration.clientSecret, purposeFor('client-secret', { serverId: 'work', binding })), 'CS-work');
  await assert.rejects(open(work.tokens.refresh, bindingOnlyPurpose('refresh', binding)), SealError, 'the old purpose opens it no more');
  await assert.rejects(open(work.tokens.refresh, purposeFor('refresh', { serverId: 'home', binding })), SealError);
  assert.equal(work.tokens.scope, 'mcp:tools');
  assert.equal(work.registration.clientId, 'client-work');
  const kept = servers.find((s) => s.id === 'broken')!.auth;
  assert.deepEqual(kept.kind === 'oauth' ? kept.tokens?.refresh : undefined, garbage, 'a blob that does not open is kept, not lost');
  assert.deepEqual(
    servers.find((s) => s.id === 'plain'),
    server('plain'),
  );
});

test('a v1 area with no server list stays empty after the migration', async () => {
  const { area, store } = await storeWith({ [SCHEMA_VERSION_KEY]: 1 });
  assert.deepEqual(await store.read(), { servers: [], invalid: [] });
  assert.deepEqual(area.dump()[SERVERS_KEY], []);
});

test('updateIfChanged writes nothing when its updater answers undefined; update writes even the list it was given back (changed in place)', async () => {
  const { area, store } = await storeWith({ [SERVERS_KEY]: [server('a')], [SCHEMA_VERSION_KEY]: CURRENT_SCHEMA_VERSION });
  let sets = 0;
  const set = area.set.bind(area);
  area.set = async (items) => {
    sets++;
    return set(items);
  };
  const same = await store.updateIfChanged(() => undefined);
  assert.equal(sets, 0);
  assert.deepEqual(
    same.servers.map((s) => s.id),
    ['a'],
  );
  await store.update((servers) => {
    servers[0]!.enabled = false;
    return servers;
  });
  assert.equal(sets, 1);
  assert.equal((await store.read()).servers[0]!.enabled, false);
});
