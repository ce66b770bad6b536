/**
 * The rough edges a new user meets, walked in the real panel against real servers (K1, K5, I1):
 * an OAuth server added by URL is named from its metadata and lands on its detail with Authorize
 * primary; a refused token lands on "Update token" (primary) whose click puts the focus in the
 * token field; Delete leaves the focus on the next row, never on the page; Read on a resource
 * link shows the content (the fenced form only folded); a question the server stops waiting for
 * says so in plain words, never "MCP error -32001".
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { clickFresh, DETAIL, openServer, openTool, openView, row, SETTINGS } from '../support/panel-views.js';

let demo: DemoServer;
let guarded: DemoServer;
let oauth: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  // The server gives up on its question after 1.5 s: its SDK then ends the call with "MCP error -32001".
  demo = await startDemoServer({ name: 'Demo', elicitation: true, elicitationTimeoutMs: 1500, results: true });
  guarded = await startDemoServer({ bearerToken: 'the-right-token' });
  oauth = await startOAuthServers({ approval: 'auto', resourceName: 'Team Wiki' });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await demo?.close();
  await guarded?.close();
  await oauth?.close();
});

const visibleView = () => panel.$$eval('section[data-view]', (els) => els.find((s) => !s.hidden)?.getAttribute('data-view'));
/** The element that has the focus, through shadow roots: its tag, name and data-action. */
const focused = () =>
  panel.evaluate(() => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return { tag: a?.localName, name: a?.getAttribute('name'), action: a?.getAttribute('data-action') };
  });
const primary = async () =>
  (await panel.$$eval(`${DETAIL} >>> .actions button[data-role="primary"]`, (bs) => bs.map((b) => b.textContent))).join('|');

test('an OAuth server added by URL is named from its metadata and lands on its detail with Authorize primary', async () => {
  await openView(panel, 'add');
  await panel.type('mcp-add-server >>> input[name="url"]', oauth.mcpUrl);
  await panel.click('mcp-add-server >>> button[name="continue"]');
  await waitFor(panel, 'mcp-add-server >>> .details-step:not([hidden])');
  assert.equal(await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => el.value), 'Team Wiki');
  await panel.click('mcp-add-server >>> button[name="add"]');
  await until('the new server’s detail', async () => (await visibleView()) === 'detail');
  assert.equal(await textOf(panel, `${DETAIL} >>> h2`), 'Team Wiki');
  await until('Authorize as the primary action', async () => (await primary()) === 'Authorize');
  assert.equal(await textOf(panel, 'mcp-add-server >>> .message'), '', 'no "Added." left on the Add form');
});

test('a refused token lands on "Update token", primary, whose click puts the focus in the token field', async () => {
  await addServerInPanel(panel, { name: 'Guarded', url: guarded.url, authKind: 'bearer', token: 'a-wrong-token' });
  await until(
    'the guarded server’s detail',
    async () => (await visibleView()) === 'detail' && (await textOf(panel, `${DETAIL} >>> h2`)) === 'Guarded',
  );
  await until('Update token as the primary action', async () => (await primary()) === 'Update token', 20_000);
  await panel.click(`${DETAIL} >>> button[data-action="edit"]`);
  await until('the focus in the token field', async () => (await focused()).name === 'token');
  // The token field is named "Token" only; what it is for is its description.
  const token = await panel.$eval('mcp-server-detail >>> mcp-server-settings >>> input[name="token"]', (el) => ({
    label: el.closest('label')!.textContent.trim(),
    help: (el.getRootNode() as ShadowRoot).getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
  }));
  assert.deepEqual(token, { label: 'Token', help: 'Stored encrypted; sent only to this server.' });
});

test('Delete leaves the focus on the next row of the server list, never on the page', async () => {
  await addServerInPanel(panel, { name: 'Demo', url: demo.url });
  await waitFor(panel, `${row('demo')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await openServer(panel, 'guarded');
  await panel.$eval('mcp-server-detail >>> details[data-section="settings"]', (d) => (d.open = true));
  await panel.click(`${SETTINGS} >>> button[data-action="delete"]`);
  await panel.click(`${SETTINGS} >>> button[data-action="confirm-delete"]`);
  await until('the server list', async () => (await visibleView()) === 'servers');
  await until('the guarded row gone', async () => !(await panel.$(row('guarded'))));
  const f = await focused();
  assert.notEqual(f.tag, 'body');
  assert.deepEqual([f.tag, f.action], ['button', 'open']);
  const server = await panel.evaluate(() => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return (a?.getRootNode() as ShadowRoot).host.getAttribute('server-id');
  });
  assert.equal(server, 'demo', 'the row listed after the deleted one');
});

test('Read on a resource link shows the content with its type; the fenced form only under "As the model received it"', async () => {
  await openTool(panel, 'demo', 'show_parts');
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  const link = 'mcp-tool-runner >>> mcp-result-view >>> .part-resource_link';
  await clickFresh(panel, `${link} button.read`);
  await waitFor(panel, `${link} .read-out .resource-text`, 20_000);
  const out = await panel.$eval(`${link} .read-out`, (el) => ({
    text: el.querySelector('.resource-text')!.textContent,
    mime: el.querySelector('.mime')!.textContent,
    copy: el.querySelector('.resource-part button.copy')?.getAttribute('aria-label'),
    shown: [...el.querySelectorAll('.resource-part')].map((p) => p.textContent).join(' '),
    folded: !(el.querySelector('details.as-model') as HTMLDetailsElement).open,
    fenced: el.querySelector('details.as-model pre')!.textContent,
  }));
  assert.equal(out.mime, 'Type: text/plain');
  assert.equal(out.copy, 'Copy Read me');
  assert.equal(out.folded, true);
  assert.doesNotMatch(out.shown, /mcp-untrusted/, 'the person reads the content, not the model’s wrapper');
  assert.match(out.fenced ?? '', /mcp-untrusted/);
  assert.ok(out.text && out.fenced?.includes(out.text), 'the same content, fenced for the model');
});

test('a question the server stops waiting for says so in plain words, never the raw MCP error', async () => {
  await openTool(panel, 'demo', 'confirm_booking');
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  const card = await waitFor(panel, 'mcp-elicitation-card', 20_000);
  assert.match(
    await card.evaluate((el) => el.shadowRoot!.querySelector('.may-stop')?.textContent ?? ''),
    /Demo may stop waiting for your answer; the tool call then ends\./,
  );
  const reason = await until('the card to say the server stopped waiting', async () =>
    card.evaluate((el) => el.shadowRoot!.querySelector('.reason')?.textContent ?? ''),
  );
  assert.match(reason, /^Demo stopped waiting after \d+ s and the tool call ended\. Your answer was not sent\.$/);
  assert.doesNotMatch(await card.evaluate((el) => el.shadowRoot!.textContent ?? ''), /-32001|timed out/i);
  assert.deepEqual(ext.errors, []);
});
