/**
 * The server's own 401 drives authorization in the running extension (SPEC E3, E7, C1):
 * a server whose protected-resource metadata is announced only in its `WWW-Authenticate`
 * challenge (no well-known document) is authorized with one authorization and the challenge's
 * scope; and a failed authorization keeps its real reason — the authorization server's own
 * `error` and `error_description` — instead of a generic "needs authorization" once the
 * registration write has been stored. A server added with auth "None" that answers 401 Bearer
 * waits for sign-in with one button that switches it to OAuth and authorizes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { DETAIL, SETTINGS, openServer, row } from '../support/panel-views.js';
import { ADMIN_SCOPE, OAUTH_SCOPE, startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { panelRequest } from '../support/panel-request.js';

let challengeOnly: OAuthServers;
let failing: OAuthServers;
let addedAsNone: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

const card = row;

before(async () => {
  challengeOnly = await startOAuthServers({ approval: 'auto', prmOnlyInChallenge: true });
  failing = await startOAuthServers({ approval: 'auto' });
  addedAsNone = await startOAuthServers({ approval: 'auto' });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await challengeOnly?.close();
  await failing?.close();
  await addedAsNone?.close();
});

const scopesOf = (jwt: string) =>
  String((JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { scope?: string }).scope ?? '').split(' ');

test('PRM announced only in the 401 challenge: one authorization, with the challenge scope, and the tool works', async () => {
  await addServerInPanel(panel, { name: 'Challenge', url: challengeOnly.mcpUrl, authKind: 'oauth' });
  await waitFor(panel, `${card('challenge')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, 'challenge');
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`)).click();
  await waitFor(panel, `${card('challenge')} >>> mcp-status-badge[status="ready"]`, 20_000);
  assert.equal(challengeOnly.stats.authorizeRequests, 1, 'one authorization');
  assert.equal(challengeOnly.issued.accessTokens.length, 1);
  const scopes = scopesOf(challengeOnly.issued.accessTokens[0]!);
  assert.ok(scopes.includes(OAUTH_SCOPE), scopes.join(' '));
  assert.ok(!scopes.includes(ADMIN_SCOPE), `the challenge scope, not every scopes_supported: ${scopes.join(' ')}`);
  const result = await panelRequest<{
    ok: boolean;
  }>(panel, 'panel:call-tool', { serverId: 'challenge', tool: 'whoami', arguments: {} });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(challengeOnly.stats.toolCalls, 1);
});

test("a failed authorization shows the authorization server's own error as the reason, and it stays", async () => {
  failing.refuseTokenRequests = true;
  await addServerInPanel(panel, { name: 'Failing', url: failing.mcpUrl, authKind: 'oauth' });
  await waitFor(panel, `${card('failing')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, 'failing');
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`)).click();
  const reason = await until('the token error as the reason', async () => {
    const text = await textOf(panel, `${DETAIL} >>> .reason`).catch(() => '');
    return /invalid_grant/.test(text) && text;
  });
  // The registration was stored mid-flow; whatever that write triggers must not replace the reason.
  await new Promise((r) => setTimeout(r, 2000));
  assert.equal(await textOf(panel, `${DETAIL} >>> .reason`), reason);
  assert.match(reason, /refused the request \(HTTP 400: invalid_grant — grant request is invalid\)/);
  console.log(`REASON: ${reason}`);
});

test('a server added as "None" that answers 401 Bearer needs sign-in; one click switches it to OAuth and it becomes ready', async () => {
  await addServerInPanel(panel, { name: 'Plain', url: addedAsNone.mcpUrl, authKind: 'none' });
  await waitFor(panel, `${card('plain')} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, 'plain');
  assert.match(await textOf(panel, `${DETAIL} >>> .reason`), /Bearer challenge.*Switch it to OAuth/);
  const button = await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`);
  assert.equal(await button.evaluate((b) => b.textContent), 'Switch to OAuth and authorize');
  await button.click();
  await waitFor(panel, `${card('plain')} >>> mcp-status-badge[status="ready"]`, 20_000);
  assert.equal(addedAsNone.stats.authorizeRequests, 1, 'one authorization');
  // Stored as an OAuth server now: its card offers Forget authorization like any other.
  await waitFor(panel, `${SETTINGS} >>> button[data-action="forget-auth"]`);
  const result = await panelRequest<{ ok: boolean }>(panel, 'panel:call-tool', { serverId: 'plain', tool: 'whoami', arguments: {} });
  assert.equal(result.ok, true, JSON.stringify(result));
});
