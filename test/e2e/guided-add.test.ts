/**
 * The guided add against real servers (section K): the URL typed without a scheme, Continue, the
 * worker's probe proposing the authorization and the name from the server's own answer, the
 * probe's session ended at once, errors at the field, and a server that cannot be reached.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { openView } from '../support/panel-views.js';

let open: DemoServer;
let bearer: DemoServer;
let oauth: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  open = await startDemoServer({ name: 'Open Demo' });
  bearer = await startDemoServer({ bearerToken: 'tok-guided' });
  oauth = await startOAuthServers({ approval: 'auto' });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await open?.close();
  await bearer?.close();
  await oauth?.close();
});

const value = (selector: string) => panel.$eval(selector, (el) => (el as HTMLInputElement).value);
const stepShown = () => waitFor(panel, 'mcp-add-server >>> .details-step:not([hidden])');

/** Types the URL as given and clicks Continue; resolves once the details step shows. */
async function continueWith(url: string) {
  await openView(panel, 'add');
  await panel.$eval('mcp-add-server >>> .details-step', (el) => {
    if (!(el as HTMLElement).hidden) (el.querySelector('button[name="change-url"]') as HTMLButtonElement).click();
  });
  await panel.$eval('mcp-add-server >>> input[name="url"]', (el) => (el.value = ''));
  await panel.type('mcp-add-server >>> input[name="url"]', url);
  await panel.click('mcp-add-server >>> button[name="continue"]');
  await stepShown();
}

test('a URL without a scheme gets http:// on loopback; the probe proposes no auth and the server name, and closes its session', async () => {
  await continueWith(open.url.replace(/^http:\/\//, ''));
  assert.equal(await textOf(panel, 'mcp-add-server >>> .summary .url'), open.url);
  assert.equal(await value('mcp-add-server >>> input[name="name"]'), 'Open Demo');
  assert.equal(await value('mcp-add-server >>> select[name="auth-kind"]'), 'none');
  assert.match(await textOf(panel, 'mcp-add-server >>> .note'), /without asking for authorization/);
  assert.equal(open.stats.sessionsOpened, 1);
  await until('the probe session to be closed', async () => open.stats.sessionsClosed === 1);
  await panel.click('mcp-add-server >>> button[name="add"]');
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="open-demo"] >>> mcp-status-badge[status="ready"]', 20_000);
  // Added: the panel shows the new server's detail, not an Add form saying "Added." (K1).
  await until('the new server’s detail', async () =>
    panel.$eval('section[data-view="detail"]', (s) => !s.hidden && s.querySelector('mcp-server-detail')!.server?.id === 'open-demo'),
  );
  assert.equal(await textOf(panel, 'mcp-add-server >>> .message'), '');
});

test('a 401 without protected resource metadata proposes a bearer token', async () => {
  await continueWith(bearer.url);
  assert.equal(await value('mcp-add-server >>> select[name="auth-kind"]'), 'bearer');
  assert.match(await textOf(panel, 'mcp-add-server >>> .note'), /asks for a token/);
  await panel.type('mcp-add-server >>> input[name="token"]', 'tok-guided');
  await panel.$eval('mcp-add-server >>> input[name="name"]', (el) => (el.value = 'Guarded'));
  await panel.click('mcp-add-server >>> button[name="add"]');
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="guarded"] >>> mcp-status-badge[status="ready"]', 20_000);
});

test('a 401 whose metadata names an authorization server proposes OAuth', async () => {
  await continueWith(oauth.mcpUrl);
  assert.equal(await value('mcp-add-server >>> select[name="auth-kind"]'), 'oauth');
  assert.match(await textOf(panel, 'mcp-add-server >>> .note'), /OAuth sign-in/);
  assert.equal(oauth.stats.authorizeRequests, 0, 'the probe never starts an authorization');
});

test('an invalid URL is reported at the field, and an unreachable server can still be added', async () => {
  await panel.$eval('mcp-add-server >>> .details-step', (el) => {
    if (!(el as HTMLElement).hidden) (el.querySelector('button[name="change-url"]') as HTMLButtonElement).click();
  });
  await panel.$eval('mcp-add-server >>> input[name="url"]', (el) => (el.value = ''));
  await panel.type('mcp-add-server >>> input[name="url"]', 'http://example.com/mcp');
  await panel.click('mcp-add-server >>> button[name="continue"]');
  const invalid = await panel.$eval('mcp-add-server >>> input[name="url"]', (el) => {
    const id = el.getAttribute('aria-describedby');
    return {
      invalid: el.getAttribute('aria-invalid'),
      error: id ? (el.getRootNode() as ShadowRoot).getElementById(id)?.textContent : null,
    };
  });
  assert.deepEqual(invalid, { invalid: 'true', error: 'Use https://. Plain http:// is allowed only for localhost, 127.0.0.1 or [::1].' });

  await continueWith('127.0.0.1:9/mcp');
  assert.match(await textOf(panel, 'mcp-add-server >>> .note'), /could not be checked: Could not reach http:\/\/127\.0\.0\.1:9/);
  assert.equal(await value('mcp-add-server >>> input[name="name"]'), '127.0.0.1');
  assert.deepEqual(ext.errors, []);
});
