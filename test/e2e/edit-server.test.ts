/**
 * Editing a saved server in the running extension (section K): a rename, a timeout and
 * connect-on-startup keep the id, the disabled tools, the "always allow" grants and the live
 * session; a stored bearer token is shown as unchanged and never sent to the panel; a move to
 * another server lists what it drops, saves only once confirmed, and reconnects there.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openServer, row } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';

let first: DemoServer;
let second: DemoServer;
let guarded: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

const card = row;
const settings = 'mcp-server-detail >>> mcp-server-settings';

before(async () => {
  first = await startDemoServer();
  second = await startDemoServer();
  guarded = await startDemoServer({ bearerToken: 'tok-edit' });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await first?.close();
  await second?.close();
  await guarded?.close();
});

type Stored = { id: string; name: string; url: string; disabledTools: string[]; connectTimeoutMs?: number; connectOnStartup: boolean };
const stored = async (id: string) =>
  ((await panel.evaluate(`chrome.storage.local.get('mcp_servers').then((r) => r.mcp_servers)`)) as Stored[]).find((s) => s.id === id)!;

/** Opens the server's detail and its Settings section, as a user does. */
async function openSettings(serverId: string) {
  await openServer(panel, serverId);
  const section = 'mcp-server-detail >>> details[data-section="settings"]';
  if (!(await panel.$eval(section, (el) => el.open))) await panel.click(`${section} > summary`);
  await waitFor(panel, `${settings} >>> form:not([hidden])`);
}

async function setField(name: string, value: string) {
  await panel.$eval(`${settings} >>> input[name="${name}"]`, (el) => (el.value = ''));
  if (value) await panel.type(`${settings} >>> input[name="${name}"]`, value);
}

test('a rename, a timeout and connect-on-startup keep the id, disabled tools, grants and the live session', async () => {
  await addServerInPanel(panel, { name: 'Demo', url: first.url });
  await waitFor(panel, `${card('demo')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await panelRequest(panel, 'panel:set-tool-enabled', { serverId: 'demo', tool: 'add', enabled: false });
  // An "always allow" grant for echo, as the approval card records it.
  await panel.evaluate(
    `chrome.storage.local.set({ mcp_tool_approvals: { ['demo\\u0000echo']: { url: ${JSON.stringify(first.url)}, schemaHash: 'x', grantedAt: 1 } } })`,
  );
  await openSettings('demo');
  assert.equal(await panel.$eval(`${settings} >>> input[name="name"]`, (el) => el.value), 'Demo');
  await setField('name', 'Demo renamed');
  await setField('connect-timeout', '45');
  await panel.click(`${settings} >>> button[name="save"]`);
  await until('the save', async () => (await textOf(panel, `${settings} >>> .message`)) === 'Saved.');
  const after = await stored('demo');
  assert.equal(after.name, 'Demo renamed');
  assert.equal(after.connectTimeoutMs, 45_000);
  assert.deepEqual(after.disabledTools, ['add']);
  const grants = (await panel.evaluate(
    `chrome.storage.local.get('mcp_tool_approvals').then((r) => Object.keys(r.mcp_tool_approvals))`,
  )) as string[];
  assert.equal(grants.length, 1, 'the grant stays');
  assert.equal(first.stats.sessionsOpened, 1, 'no reconnect for a change outside the binding');
  await waitFor(panel, `${card('demo')} >>> mcp-status-badge[status="ready"]`);
});

test('moving to another server lists what it drops, saves only once confirmed, and reconnects there', async () => {
  await openSettings('demo');
  await setField('url', second.url);
  await panel.click(`${settings} >>> button[name="save"]`);
  const drops = await textOf(panel, `${settings} >>> .drops`);
  assert.match(drops, /"Always allow" approvals of its tools \(1\)/);
  assert.match(drops, /Chrome will ask for access to http:\/\/127\.0\.0\.1:/);
  assert.equal((await stored('demo')).url, first.url, 'nothing saved before the confirmation');
  await panel.click(`${settings} >>> button[name="confirm-drops"]`);
  await until('the move', async () => (await stored('demo')).url === second.url);
  await until('a session on the new server', async () => second.stats.sessionsOpened === 1);
  await until('the old session closed', async () => first.stats.sessionsClosed === 1);
  await waitFor(panel, `${card('demo')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await until('the grant dropped', async () => {
    const g = (await panel.evaluate(`chrome.storage.local.get('mcp_tool_approvals').then((r) => r.mcp_tool_approvals ?? {})`)) as object;
    return Object.keys(g).length === 0;
  });
  assert.deepEqual((await stored('demo')).disabledTools, ['add'], 'disabled tools always stay');
});

test('a stored bearer token shows as unchanged, never reaches the panel, and keeps working after a save', async () => {
  await addServerInPanel(panel, { name: 'Guarded', url: guarded.url, authKind: 'bearer', token: 'tok-edit' });
  await waitFor(panel, `${card('guarded')} >>> mcp-status-badge[status="ready"]`, 20_000);
  const raw = JSON.stringify(await panelRequest(panel, 'panel:get-server-settings', { serverId: 'guarded' }));
  assert.doesNotMatch(raw, /tok-edit/);
  await openSettings('guarded');
  assert.deepEqual(await panel.$eval(`${settings} >>> input[name="token"]`, (el) => [el.value, el.placeholder]), [
    '',
    'Unchanged (type to replace)',
  ]);
  await panel.click(`${settings} >>> input[name="connect-on-startup"]`);
  await panel.click(`${settings} >>> button[name="save"]`);
  await until('the save', async () => (await textOf(panel, `${settings} >>> .message`)) === 'Saved.');
  assert.equal((await stored('guarded')).connectOnStartup, false);
  const r = await panelRequest<{ ok: boolean }>(panel, 'panel:call-tool', { serverId: 'guarded', tool: 'echo', arguments: { text: 'hi' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(ext.errors, []);
});
