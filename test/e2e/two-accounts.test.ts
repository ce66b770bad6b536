/**
 * Several accounts on one server URL (SPEC S3), through the real panel: an OAuth server is added
 * and authorized as alice; the guided add on the same URL says "You already have Work for this
 * URL — add another account?" and proposes "Work (2)"; the second entry's authorization asks the
 * real oidc-provider for a fresh sign-in (`prompt=login`, its metadata lists no prompt values), where
 * the user signs in as bob. Each tool call carries its own entry's token (the resource server
 * records the subject and token of every call), also after the worker sleeps; deleting one
 * account leaves the other working. Two bearer-token entries on one URL send their own tokens.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetType, type Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { DETAIL, SETTINGS, nudgePanel, openServer, openView, row } from '../support/panel-views.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { panelRequest } from '../support/panel-request.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let as: OAuthServers;
let vault: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  as = await startOAuthServers({ approval: 'button' });
  vault = await startDemoServer({ name: 'vault', bearerTokens: ['tok-work', 'tok-home'] });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await Promise.all([as?.close(), vault?.close()]);
  assert.deepEqual(as?.cookieSightings ?? [], [], 'no API request of the extension carried a cookie');
});

/** The authorization window: a new page target on the authorization server. */
async function authWindow(): Promise<Page> {
  const target = await ext.browser.waitForTarget((t) => t.type() === TargetType.PAGE && t.url().startsWith(`${as.issuer}/interaction/`), {
    timeout: 15_000,
  });
  return await target.asPage();
}

async function authorizeAs(serverId: string, button: '#approve' | '#approve-bob') {
  await openServer(panel, serverId);
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`)).click();
  const popup = await authWindow();
  await (await waitFor(popup, button)).click();
  await waitFor(panel, `${row(serverId)} >>> mcp-status-badge[status="ready"]`, 20_000);
}

interface CallResult {
  ok: boolean;
  value?: { content: { type: string; text: string }[] };
}
async function call(serverId: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await panelRequest<CallResult>(panel, 'panel:call-tool', { serverId, tool, arguments: args });
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.value!.content[0]!.text;
}

/** Calls whoami on each server and returns the subject the resource server saw for each call. */
async function subjects(...serverIds: string[]): Promise<{ subs: string[]; tokens: string[]; texts: string[] }> {
  const before = as.calls.length;
  const texts: string[] = [];
  for (const id of serverIds) texts.push(await call(id, 'whoami'));
  const seen = as.calls.slice(before);
  assert.equal(seen.length, serverIds.length, 'one call each reached the server');
  return { subs: seen.map((c) => c.sub), tokens: seen.map((c) => c.token), texts };
}

/** The guided add with the probe answered as the add helper does (the OAuth server's own probe is tested elsewhere). */
async function continueGuidedAdd(url: string) {
  await openView(panel, 'add');
  await panel.$eval('mcp-add-server >>> .details-step', (el) => {
    if (!(el as HTMLElement).hidden) (el.querySelector('button[name="change-url"]') as HTMLButtonElement).click();
  });
  await panel.$eval('mcp-add-server >>> input[name="url"]', (el) => (el.value = ''));
  await panel.type('mcp-add-server >>> input[name="url"]', url);
  await panel.evaluate(`(() => {
    const form = document.querySelector('mcp-add-server');
    form.addEventListener('mcp-probe-server', (e) => { e.stopPropagation(); form.showProbe({ ok: true, authKind: 'oauth' }); }, { once: true });
  })()`);
  await panel.click('mcp-add-server >>> button[name="continue"]');
  await waitFor(panel, 'mcp-add-server >>> .details-step:not([hidden])');
}

test('the first account is added and authorized as alice, with no prompt (it is alone on its URL)', async () => {
  await addServerInPanel(panel, { name: 'Work', url: as.mcpUrl, authKind: 'oauth' });
  await waitFor(panel, `${row('work')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await authorizeAs('work', '#approve');
  assert.deepEqual(as.authorizePrompts, [null]);
});

test('the guided add on the same URL asks whether to add another account and proposes a distinct name', async () => {
  await continueGuidedAdd(as.mcpUrl);
  const note = await waitFor(panel, 'mcp-add-server >>> [data-another-account]:not([hidden])');
  assert.match(await note.evaluate((n) => n.textContent ?? ''), /You already have "Work" for this URL — add another account\?/);
  assert.equal(await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => el.value), 'Work (2)');
  assert.equal(await panel.$eval('mcp-add-server >>> button[name="add"]', (el) => el.textContent), 'Add another account');
  await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => (el.value = ''));
  await panel.type('mcp-add-server >>> input[name="name"]', 'Personal');
  await panel.click('mcp-add-server >>> button[name="add"]');
  await waitFor(panel, `${row('personal')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await waitFor(panel, `${row('work')} >>> mcp-status-badge[status="ready"]`);
});

test("the second account's authorization asks the AS for a fresh sign-in, where the user signs in as bob", async () => {
  await authorizeAs('personal', '#approve-bob');
  assert.deepEqual(as.authorizePrompts, [null, 'login'], 'prompt=login: oidc-provider lists no select_account');
});

test('each call carries its own account token: work as alice, personal as bob, each with its own client', async () => {
  const { subs, tokens, texts } = await subjects('work', 'personal', 'work');
  assert.deepEqual(subs, ['alice', 'bob', 'alice']);
  assert.notEqual(tokens[0], tokens[1]);
  assert.equal(tokens[0], tokens[2]);
  assert.notEqual(texts[0], texts[1], 'each entry registered its own client');
  for (const token of tokens) assert.ok(as.issued.accessTokens.includes(token), 'a token the AS issued');
});

test('after the worker sleeps, each account still calls with its own token', async () => {
  await sleepWorker(ext, panel);
  await nudgePanel(panel);
  const { subs } = await subjects('personal', 'work');
  assert.deepEqual(subs, ['bob', 'alice']);
  await assertNewWorker(ext);
  assert.deepEqual(as.authorizePrompts, [null, 'login'], 'no new authorization');
});

test('deleting one account leaves the other working, also after the worker sleeps', async () => {
  await openServer(panel, 'personal');
  await panel.$eval('mcp-server-detail >>> details[data-section="settings"]', (d) => (d.open = true));
  await panel.click(`${SETTINGS} >>> button[data-action="delete"]`);
  await panel.click(`${SETTINGS} >>> button[data-action="confirm-delete"]`);
  await until('the personal row gone', async () => !(await panel.$(row('personal'))));
  assert.deepEqual((await subjects('work')).subs, ['alice']);
  await sleepWorker(ext, panel);
  await nudgePanel(panel);
  assert.deepEqual((await subjects('work')).subs, ['alice']);
  await assertNewWorker(ext);
  const session = (await panel.evaluate(`chrome.storage.session.get(null)`)) as Record<string, unknown>;
  const bobTokens = as.calls.filter((c) => c.sub === 'bob').map((c) => c.token);
  assert.ok(bobTokens.length > 0);
  for (const token of bobTokens) assert.equal(JSON.stringify(session).includes(token), false, "the deleted account's token is gone");
});

test('two bearer-token entries on one URL send their own tokens', async () => {
  await addServerInPanel(panel, { name: 'Vault', url: vault.url, authKind: 'bearer', token: 'tok-work' });
  await waitFor(panel, `${row('vault')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await addServerInPanel(panel, { name: 'Vault home', url: vault.url, authKind: 'bearer', token: 'tok-home' });
  await waitFor(panel, `${row('vault-home')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await call('vault', 'echo', { text: 'a' });
  await call('vault-home', 'echo', { text: 'b' });
  assert.deepEqual(vault.stats.callAuthorizations.slice(-2), ['Bearer tok-work', 'Bearer tok-home']);
  await sleepWorker(ext, panel);
  await nudgePanel(panel);
  await call('vault-home', 'echo', { text: 'c' });
  assert.equal(vault.stats.callAuthorizations.at(-1), 'Bearer tok-home');
  await assertNewWorker(ext);
  assert.deepEqual(ext.errors, []);
});
