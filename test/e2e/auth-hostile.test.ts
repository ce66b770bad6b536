/**
 * Authorization against hostile or broken servers, in the running extension (SPEC E9, N5):
 * - a server that refuses every token, also the one its own authorization server has just
 *   issued: one authorization, a bounded number of token requests, then a terminal attributed
 *   error with Retry as the primary action (Re-authorize only as the user's explicit second
 *   choice) — also after the worker was stopped;
 * - an authorization that fails (the token endpoint refuses the code): the server's stored
 *   reason is the specific one in the Servers row and in a reopened panel.
 * The browser runs without DevTools on the worker, so stopping it is real.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { DETAIL, openServer, row } from '../support/panel-views.js';
import { startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { stopWorker, workerRunning } from '../support/worker-lifecycle.js';

let refuser: OAuthServers;
let broken: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

const FRESH_REFUSED = /refused the token its own authorization server had just issued/;

before(async () => {
  refuser = await startOAuthServers({ rejectEveryToken: true });
  broken = await startOAuthServers();
  broken.refuseTokenRequests = true;
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await refuser?.close();
  await broken?.close();
});

/** The detail header's status, reason and whether Authorize is its primary button. */
async function detailOf(page: Page, serverId: string) {
  await openServer(page, serverId);
  await waitFor(page, `${DETAIL} >>> mcp-status-badge`);
  return page.$eval(DETAIL, (el) => {
    const root = el.shadowRoot!;
    return {
      status: root.querySelector('mcp-status-badge')?.getAttribute('status') ?? '',
      reason: root.querySelector('.reason')?.textContent?.trim() ?? '',
      primary: root.querySelector('button[data-role="primary"]')?.getAttribute('data-action') ?? '',
      authorize: !!root.querySelector('button[data-action="authorize"]'),
    };
  });
}

async function addAndAuthorize(name: string, url: string, id: string) {
  await addServerInPanel(panel, { name, url, authKind: 'oauth' });
  await waitFor(panel, `${row(id)} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, id);
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`)).click();
}

async function afterWorkerStop(): Promise<void> {
  await stopWorker(ext);
  assert.equal(await workerRunning(ext), false, 'the worker is gone');
  await panel.close();
  panel = await ext.openPanel();
}

test('N5: a server refusing every fresh token: one authorization, bounded token requests, a terminal error without Authorize as the way on', async () => {
  await addAndAuthorize('Refuser', refuser.mcpUrl, 'refuser');
  await waitFor(panel, `${row('refuser')} >>> mcp-status-badge[status="error"]`, 30_000);
  const d = await detailOf(panel, 'refuser');
  assert.match(d.reason, FRESH_REFUSED);
  assert.equal(d.primary, 'connect', 'Retry is the primary action, not Authorize');
  assert.ok(d.authorize, 'Re-authorize stays available as the explicit second choice');
  assert.equal(refuser.stats.authorizeRequests, 1);
  assert.equal(refuser.issued.accessTokens.length, 1, 'the seconds-old token was not refreshed');
  assert.ok(refuser.stats.tokenRequests <= 2, `${refuser.stats.tokenRequests} token requests`);

  // Retry meets the same refusal without asking the authorization server again.
  const tokenRequests = refuser.stats.tokenRequests;
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="connect"]`)).click();
  await waitFor(panel, `${row('refuser')} >>> mcp-status-badge[status="error"]`, 20_000);
  assert.match((await detailOf(panel, 'refuser')).reason, FRESH_REFUSED);
  assert.equal(refuser.stats.tokenRequests, tokenRequests);
  assert.equal(refuser.stats.authorizeRequests, 1);
});

test('N5: after the worker stops, the refusing server still ends in the same terminal error, with no new authorization', async () => {
  await afterWorkerStop();
  await waitFor(panel, `${row('refuser')} >>> mcp-status-badge[status="error"]`, 30_000);
  const d = await detailOf(panel, 'refuser');
  assert.match(d.reason, FRESH_REFUSED);
  assert.notEqual(d.primary, 'authorize');
  assert.equal(refuser.stats.authorizeRequests, 1, 'no authorization without the user');
  assert.ok(refuser.stats.tokenRequests <= 4, `${refuser.stats.tokenRequests} token requests (a new worker may refresh once)`);
});

test('E9: a failed authorization leaves its specific reason in the Servers row and in a reopened panel', async () => {
  await addAndAuthorize('Broken', broken.mcpUrl, 'broken');
  const specific = async () => {
    const d = await detailOf(panel, 'broken');
    assert.equal(d.status, 'needs-auth');
    assert.match(d.reason, /invalid_grant/, d.reason);
    assert.doesNotMatch(d.reason, /^\S+ needs authorization\.$/);
  };
  await waitFor(panel, `${row('broken')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  // The attempt ends with the token endpoint's refusal; wait for the request to settle.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !/invalid_grant/.test(await textOf(panel, `${DETAIL} >>> .reason`).catch(() => ''))) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await specific();
  const rowReason = await textOf(panel, `${row('broken')} >>> .reason`).catch(() => '');
  if (rowReason) assert.match(rowReason, /invalid_grant/);
  await panel.close();
  panel = await ext.openPanel();
  await specific();
  assert.equal(broken.stats.authorizeRequests, 1);
});
