import { test } from 'node:test';
import assert from 'node:assert/strict';
import { server } from './helpers.js';
import { diffConfigs, watchConfig, type ConfigChange } from '../../../src/storage/config-diff.js';
import { MemoryArea } from '../../../src/storage/ports.js';
import { SERVERS_KEY, type McpServerConfig } from '../../../src/storage/config-schema.js';

const blob = (ct: string) => ({ v: 1 as const, iv: 'AAAAAAAAAAAAAAAA', ct });
const kinds = (changes: ConfigChange[]) => changes.map((c) => `${c.id}:${c.kind}`).sort();

test('identical lists produce no changes, whatever the key order', () => {
  const a = server('a', { timeoutMs: 5000 });
  const reordered = Object.fromEntries(Object.entries(a).reverse()) as McpServerConfig;
  assert.deepEqual(diffConfigs([a], [reordered]), []);
});

test('added and removed servers', () => {
  assert.deepEqual(kinds(diffConfigs([server('a')], [server('b')])), ['a:removed', 'b:added']);
});

test('a URL change', () => {
  const [change] = diffConfigs([server('a')], [server('a', { url: 'https://new.example.com/mcp' })]);
  assert.deepEqual(change, { kind: 'url-changed', id: 'a', before: 'https://a.example.com/mcp', after: 'https://new.example.com/mcp' });
});

test('auth binding changes: kind, bearer token, oauth binding, client id, registration', () => {
  const bearer = server('a', { auth: { kind: 'bearer', token: blob('one') } });
  const oauth = server('a', { auth: { kind: 'oauth', clientId: 'c1', binding: { resource: 'r', issuer: 'i' } } });
  const cases: [McpServerConfig, McpServerConfig, string[]][] = [
    [server('a'), bearer, ['auth.kind', 'auth.token']],
    [bearer, server('a', { auth: { kind: 'bearer', token: blob('two') } }), ['auth.token']],
    [
      oauth,
      server('a', { auth: { ...oauth.auth, binding: { resource: 'r', issuer: 'other' } } as McpServerConfig['auth'] }),
      ['auth.binding'],
    ],
    [oauth, server('a', { auth: { ...oauth.auth, clientId: 'c2' } as McpServerConfig['auth'] }), ['auth.clientId']],
    [oauth, server('a', { auth: { ...oauth.auth, registration: { clientId: 'dcr' } } as McpServerConfig['auth'] }), ['auth.registration']],
  ];
  for (const [before, after, fields] of cases) {
    assert.deepEqual(diffConfigs([before], [after]), [{ kind: 'auth-binding-changed', id: 'a', fields }]);
  }
});

test('toggles: enabled, connectOnStartup and which tools were disabled or re-enabled', () => {
  const before = server('a', { disabledTools: ['x', 'y'] });
  const after = server('a', { enabled: false, disabledTools: ['y', 'z'] });
  assert.deepEqual(diffConfigs([before], [after]), [
    { kind: 'toggles-changed', id: 'a', enabled: false, toolsDisabled: ['z'], toolsEnabled: ['x'] },
  ]);
  assert.deepEqual(diffConfigs([before], [{ ...before, connectOnStartup: true }]), [
    { kind: 'toggles-changed', id: 'a', connectOnStartup: true, toolsDisabled: [], toolsEnabled: [] },
  ]);
});

test('other changes name their fields; a rotated refresh token is not a binding change', () => {
  const oauth = server('a', { auth: { kind: 'oauth', scopes: ['read'] } });
  const after = server('a', {
    name: 'Renamed',
    timeoutMs: 9000,
    auth: { kind: 'oauth', scopes: ['read', 'write'], tokens: { refresh: blob('r') } },
  });
  assert.deepEqual(diffConfigs([oauth], [after]), [
    { kind: 'other-changed', id: 'a', fields: ['auth.scopes', 'auth.tokens', 'name', 'timeoutMs'] },
  ]);
});

test('several kinds for one server are all reported', () => {
  const after = server('a', { url: 'https://b.example.com', enabled: false, name: 'N' });
  assert.deepEqual(kinds(diffConfigs([server('a')], [after])), ['a:other-changed', 'a:toggles-changed', 'a:url-changed']);
});

test('watchConfig turns area writes into diffs and ignores other keys and invalid entries', async () => {
  const area = new MemoryArea();
  const seen: ConfigChange[][] = [];
  const stop = watchConfig(area, (c) => seen.push(c));
  await area.set({ [SERVERS_KEY]: [server('a')] });
  await area.set({ other_key: 1 });
  await area.set({ [SERVERS_KEY]: [server('a', { enabled: false }), { broken: true }] });
  await area.set({ [SERVERS_KEY]: [server('a', { enabled: false })] });
  stop();
  await area.set({ [SERVERS_KEY]: [] });
  assert.deepEqual(seen.map(kinds), [['a:added'], ['a:toggles-changed']]);
});
