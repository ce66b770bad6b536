/**
 * Upgrades keep everything (B1, F2): a profile written by the previous storage version
 * (test/fixtures/upgrade/v1, the extension's real storage files, so its secrets are sealed with
 * that profile's own non-extractable key) is loaded by the current build. Its servers and their
 * settings, the sealed bearer token, static header and provider key (still decryptable), the
 * "always allow" grant and the chat survive, also after the worker sleeps. The OAuth server
 * "Secure" keeps its client registration and sealed refresh token (E10): the new build refreshes
 * once, with no new authorization, the access token stays in session storage only (F1), and the
 * server still works after the worker sleeps; its AS is a new process that knows the fixture's
 * client and refresh token (test/support/oauth-known-grant.ts). A corrupt entry is
 * shown and kept while the others work; a configuration from a newer version (a downgrade) gets
 * a clear message, in en and zh_CN, and is never written over.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { launchExtension, runToolInPanel, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { dumpExtensionStorage } from '../support/storage-dump.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { panelRequest } from '../support/panel-request.js';
import { nudgePanel, openView, row } from '../support/panel-views.js';
import { CHAT, lastAssistantText, sendChat } from '../support/chat-panel.js';
import { evaluateInWorker, stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { UPGRADE } from '../support/upgrade-fixture.js';
import { CURRENT_SCHEMA_VERSION } from '../../src/storage/config-schema.js';

const FIXTURE = 'test/fixtures/upgrade/v1';

let vault: DemoServer;
let keyed: DemoServer;
let provider: ProviderServer;
let secure: OAuthServers;
let profile: string;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  vault = await startDemoServer({ port: UPGRADE.bearerPort, bearerToken: UPGRADE.bearerToken, name: 'vault' });
  keyed = await startDemoServer({ port: UPGRADE.headerPort, requiredHeader: UPGRADE.header, name: 'keyed' });
  provider = await startProviderServer(UPGRADE.providerPort);
  secure = await startOAuthServers({
    approval: 'auto',
    ports: { mcp: UPGRADE.oauthMcpPort, as: UPGRADE.oauthAsPort },
    knownGrant: { ...UPGRADE.oauthGrant, stored: true },
  });
  profile = await mkdtemp(join(tmpdir(), 'remote-mcp-upgrade-'));
  await cp(FIXTURE, profile, { recursive: true, filter: (src) => !src.endsWith('.md') && !src.endsWith('.json') });
  ext = await launchExtension({ workerDevTools: false, profileDir: profile });
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await Promise.all([vault?.close(), keyed?.close(), provider?.close(), secure?.close()]);
  if (profile) await rm(profile, { recursive: true, force: true });
});

interface Ok<T> {
  ok: boolean;
  value: T;
}
type State = {
  servers: { id: string; name: string; status: string; connectOnStartup: boolean; disabledTools: string[] }[];
  configErrors: { message: string }[];
};
const state = async () => (await panelRequest<Ok<State>>(panel, 'panel:get-state', {})).value;
const stored = () => panel.evaluate(`chrome.storage.local.get(['mcp_servers', 'mcp_schema_version'])`) as Promise<Record<string, unknown>>;

/** The panel's config error lines; nudges first, so a panel whose Port slept gets the latest state. */
async function configErrorTexts(page: Page): Promise<string[]> {
  await nudgePanel(page);
  return page.$$eval('#config-errors p.error', (els) => els.map((e) => e.textContent ?? ''));
}

async function agentCall(name: string, args: unknown): Promise<{ ok: boolean; text?: string; code?: string }> {
  await state(); // wakes the worker if it slept
  return evaluateInWorker(
    ext,
    `globalThis.remoteMcp.agentTools.call(${JSON.stringify(name)}, ${JSON.stringify(args)}).then(
      (r) => ({ ok: true, text: JSON.stringify(r.result.content) }),
      (e) => ({ ok: false, code: e.code }))`,
  );
}

/** Everything the fixture holds, checked as a user would see it; run before and after the worker sleeps. */
async function checkServers(label: string) {
  await openView(panel, 'servers');
  await waitFor(panel, `${row('vault')} >>> mcp-status-badge[status="ready"]`, 20_000);
  const { servers } = await state();
  const byId = new Map(servers.map((s) => [s.id, s]));
  assert.deepEqual([...byId.keys()].sort(), ['keyed', 'secure', 'vault'], label);
  assert.equal(byId.get('vault')!.connectOnStartup, true);
  assert.deepEqual(byId.get('vault')!.disabledTools, [UPGRADE.disabledTool], 'the disabled tool stays disabled');
  assert.equal(byId.get('keyed')!.connectOnStartup, false, 'connect on start-up stays off');
  const result = await runToolInPanel(panel, 'vault', 'echo', { text: `after ${label}` });
  assert.match(result.text ?? '', new RegExp(`after ${label}`), JSON.stringify(result));
}

test('the servers are listed with their settings, and the sealed bearer token still opens (a tool call succeeds)', async () => {
  await checkServers('upgrade');
  const settings = await panelRequest<Ok<{ headers: string[]; authKind?: string; connectOnStartup: boolean; alwaysGrants: number }>>(
    panel,
    'panel:get-server-settings',
    { serverId: 'keyed' },
  );
  assert.deepEqual(settings.value.headers, [UPGRADE.header.name]);
  assert.equal(settings.value.connectOnStartup, false);
  assert.equal(keyed.stats.sessionsOpened, 0, 'connect on start-up off: not connected at launch');
});

test('the sealed static header still opens: the server that requires it becomes ready', async () => {
  assert.equal((await panelRequest<Ok<unknown>>(panel, 'panel:connect', { serverId: 'keyed' })).ok, true);
  await waitFor(panel, `${row('keyed')} >>> mcp-status-badge[status="ready"]`, 20_000);
  assert.equal(keyed.stats.sessionsOpened, 1);
});

test('the "always allow" grant still holds: the agent call runs without a card and the grants list the Activity view shows still has it', async () => {
  const grants = await panelRequest<Ok<{ grants: { serverId: string; tool: string }[] }>>(panel, 'panel:list-grants', {});
  assert.deepEqual(
    grants.value.grants.map((g) => `${g.serverId}/${g.tool}`),
    [`vault/${UPGRADE.grantedTool}`],
  );
  const call = await agentCall(`mcp__vault__${UPGRADE.grantedTool}`, { text: 'granted still' });
  assert.equal(call.ok, true, JSON.stringify(call));
  assert.match(call.text!, /granted still/);
  assert.equal(await panel.$('mcp-approval-card'), null, 'no approval card was shown');
});

test('the chat and its entries are in the history, and the sealed provider key still reaches the provider', async () => {
  const list = await panelRequest<Ok<{ chats: { id: string; title: string }[] }>>(panel, 'panel:chat-list', {});
  assert.equal(list.value.chats.length, 1, JSON.stringify(list));
  await openView(panel, 'chat');
  await until('the stored entries', async () => {
    const texts = await panel.$$eval(`${CHAT}ol.log > li`, (els) => els.map((e) => e.textContent ?? ''));
    return (
      UPGRADE.chatTurns.every((t) => texts.some((x) => x.includes(t))) && UPGRADE.answers.every((a) => texts.some((x) => x.includes(a)))
    );
  });
  provider.script({ kind: 'stream', text: ['Still unlocked.'] });
  await sendChat(panel, 'Does the key still open?');
  await until('the answer', async () => (await lastAssistantText(panel)).includes('Still unlocked.'));
  assert.equal(provider.requests.at(-1)!.headers.authorization, `Bearer ${UPGRADE.providerKey}`);
});

test('after the worker sleeps, every server, setting, grant and chat is still there', async () => {
  await stopWorker(ext);
  assert.equal(await workerRunning(ext), false);
  await nudgePanel(panel);
  await checkServers('sleep');
  const grants = await panelRequest<Ok<{ grants: unknown[] }>>(panel, 'panel:list-grants', {});
  assert.equal(grants.value.grants.length, 1);
  const list = await panelRequest<Ok<{ chats: unknown[] }>>(panel, 'panel:chat-list', {});
  assert.equal(list.value.chats.length, 1);
});

test('the OAuth server becomes ready with its stored refresh token, no new authorization, also after the worker sleeps (E9, E10)', async () => {
  await waitFor(panel, `${row('secure')} >>> mcp-status-badge[status="ready"]`, 30_000);
  assert.equal(secure.stats.authorizeRequests, 0, 'no authorization window');
  assert.equal(secure.stats.refreshGrants, 1, 'exactly one refresh, with the stored refresh token');
  const expected = new RegExp(`^client=${UPGRADE.oauthGrant.clientId}\\b`);
  const first = await runToolInPanel(panel, 'secure', 'whoami', {});
  assert.match(first.text ?? '', expected, 'the stored client registration is used');
  await sleepWorker(ext, panel);
  await nudgePanel(panel);
  const again = await runToolInPanel(panel, 'secure', 'whoami', {});
  assert.match(again.text ?? '', expected, JSON.stringify(again));
  await assertNewWorker(ext);
  assert.equal(secure.stats.refreshGrants, 1, 'the access token in session storage outlives the worker: no second refresh');
  assert.equal(secure.stats.authorizeRequests, 0);
});

test('the refresh token stays sealed and no access token is in chrome.storage.local (F1, F2)', async () => {
  const dump = await dumpExtensionStorage(panel);
  const local = JSON.stringify(dump.local);
  const atRest = JSON.stringify({ local: dump.local, idb: dump.idb });
  assert.equal(secure.issued.refreshTokens.length, 1, 'the refresh rotated the token once');
  for (const token of [UPGRADE.oauthGrant.refreshToken, ...secure.issued.refreshTokens])
    assert.equal(atRest.includes(token), false, 'a refresh token in plain text at rest');
  for (const token of secure.issued.accessTokens) assert.equal(local.includes(token), false, 'an access token in chrome.storage.local');
  assert.doesNotMatch(local, /eyJ[\w-]+\.eyJ/, 'no JWT in chrome.storage.local, not even the access token the fixture was written with');
  assert.ok(JSON.stringify(dump.session).includes(secure.issued.accessTokens.at(-1)!), 'the access token is in chrome.storage.session');
  const entry = (
    dump.local as { mcp_servers: { id: string; auth: { registration?: { clientId: string }; tokens?: { refresh?: object } } }[] }
  ).mcp_servers.find((s) => s.id === 'secure')!;
  assert.equal(entry.auth.registration?.clientId, UPGRADE.oauthGrant.clientId);
  assert.deepEqual(Object.keys(entry.auth.tokens!.refresh!).sort(), ['ct', 'iv', 'v'], 'the refresh token is sealed');
  assert.equal(
    (dump.local as { mcp_schema_version: number }).mcp_schema_version,
    CURRENT_SCHEMA_VERSION,
    'migrated to the current version',
  );
});

test('a corrupt server entry is shown as an error and kept; the other servers still work and a write keeps it', async () => {
  const before = (await stored()).mcp_servers as unknown[];
  const broken = { id: 'broken', name: 42, url: 'not a url' };
  await panel.evaluate(`chrome.storage.local.set({ mcp_servers: ${JSON.stringify([...before, broken])} }).then(() => true)`);
  await until('the config error', async () => (await configErrorTexts(panel)).join(' ').includes('"broken"'));
  const text = await panel.$eval('#config-errors p.error', (e) => e.textContent ?? '');
  assert.match(text, /A stored server entry is invalid and was kept as it is: Stored server #4 \("broken"\)/);
  const result = await runToolInPanel(panel, 'vault', 'echo', { text: 'beside a broken one' });
  assert.match(result.text ?? '', /beside a broken one/);
  const toggled = await panelRequest<Ok<unknown>>(panel, 'panel:set-tool-enabled', { serverId: 'keyed', tool: 'echo', enabled: false });
  assert.equal(toggled.ok, true);
  const after = (await stored()).mcp_servers as unknown[];
  assert.deepEqual(after.at(-1), broken, 'the corrupt entry is written back as it was');
  assert.equal(after.length, 4);
});

test('a configuration from a newer version gets a clear message and is never written over', async () => {
  await panel.evaluate(`chrome.storage.local.set({ mcp_schema_version: 99 }).then(() => true)`);
  // The version alone changes no server key: a restarted worker reads it, as after a downgrade.
  await stopWorker(ext);
  await nudgePanel(panel);
  await until('the version message', async () => (await configErrorTexts(panel)).join(' ').includes('newer version'));
  const message = await panel.$$eval('#config-errors p.error', (els) => els[0]?.textContent ?? '');
  assert.match(message, /saved by a newer version of this extension \(storage version 99\)\. They are kept as they are/);
  const before = JSON.stringify(await stored());
  const refused = await panelRequest<Ok<unknown>>(panel, 'panel:set-tool-enabled', { serverId: 'vault', tool: 'echo', enabled: false });
  assert.equal(refused.ok, false, 'a write over a newer version is refused');
  assert.equal(JSON.stringify(await stored()), before, 'the stored data is unchanged');
  assert.deepEqual(ext.errors, []);
});

test('the newer-version message is translated (zh_CN)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'remote-mcp-downgrade-'));
  const zh = await launchExtension({ workerDevTools: false, profileDir: dir, locale: 'zh_CN' });
  try {
    const page = await zh.openPanel();
    const written = JSON.parse(await readFile(join(FIXTURE, 'WRITTEN-BY.json'), 'utf8')) as { mcp_schema_version: number };
    assert.ok(written.mcp_schema_version < CURRENT_SCHEMA_VERSION, 'the fixture is from an older storage version');
    const newer = CURRENT_SCHEMA_VERSION + 1;
    await page.evaluate(
      `chrome.storage.local.set({ mcp_schema_version: ${newer}, mcp_servers: [{ id: 'later', name: 'Later', url: 'http://127.0.0.1:9/mcp', auth: { kind: 'none' }, enabled: false, disabledTools: [], connectOnStartup: false, futureField: true }] }).then(() => true)`,
    );
    await until('the translated message', async () => (await configErrorTexts(page)).join(' ').includes('较新版本'));
    assert.match(await page.$eval('#config-errors p.error', (e) => e.textContent ?? ''), new RegExp(`存储版本 ${newer}`));
  } finally {
    await zh.close();
    await rm(dir, { recursive: true, force: true });
  }
});
