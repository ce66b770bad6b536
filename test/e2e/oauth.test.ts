/**
 * OAuth servers in the running extension (SPEC E2, E9–E11, F1–F3, K1): an OAuth server added in
 * the panel waits in `needs-auth` with no tools; "Authorize" opens the real authorization
 * window (chrome.identity.launchWebAuthFlow) on a real oidc-provider; closing it says the
 * authorization was cancelled; approving it makes the server ready and its tool callable with
 * the issued token; no access or refresh token is left in plaintext in storage.local or
 * IndexedDB; the request log shows the token request with no secret; "Forget authorization" revokes at the AS and returns the server to `needs-auth`.
 * Also: a token the resource server stops accepting mid-session is refreshed once and handed to
 * the live session, and the call runs once (E9); a tool needing more scope offers "Grant more
 * access", whose step-up lets the user's re-run succeed with both scopes (E7, H3); a refresh the
 * AS refuses with no user present leaves "Sign-in expired — click Re-authorize" on the card (E9).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetType, type Page, type Target } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { DETAIL, DETAIL_TOOLS, SETTINGS, openServer, openTool, row } from '../support/panel-views.js';
import { dumpExtensionStorage } from '../support/storage-dump.js';
import { ADMIN_SCOPE, OAUTH_SCOPE, startOAuthServers, type OAuthServers } from '../support/oauth-servers.js';
import { panelRequest } from '../support/panel-request.js';

let as: OAuthServers;
let ext: ExtensionBrowser;
let panel: Page;

const CARD = row('secure');

/** Opens the server's detail and its Settings section. */
async function openSettings() {
  await openServer(panel, 'secure');
  const section = 'mcp-server-detail >>> details[data-section="settings"]';
  if (!(await panel.$eval(section, (el) => el.open))) await panel.click(`${section} > summary`);
}

before(async () => {
  as = await startOAuthServers({ approval: 'button' });
  ext = await launchExtension();
  panel = await ext.openPanel();
  await setTrapCookies(panel);
});

/**
 * The cookie trap (SPEC N2): the browser holds cookies for the MCP and authorization-server
 * hosts (ports do not separate cookies), and the test servers refuse with 403 any API request
 * that carries one, as Origin-checking auth frameworks do. Every test below runs through it.
 */
async function setTrapCookies(page: Page) {
  const cdp = await page.createCDPSession();
  for (const domain of ['127.0.0.1', 'localhost']) {
    await cdp.send('Network.setCookie', { name: 'trap_lax', value: '1', domain, path: '/', sameSite: 'Lax' });
    await cdp.send('Network.setCookie', { name: 'trap_none', value: '1', domain, path: '/', sameSite: 'None', secure: true });
  }
  const { cookies } = await cdp.send('Network.getCookies', { urls: [as.mcpUrl, as.issuer] });
  assert.ok(cookies.filter((c) => c.name.startsWith('trap_')).length >= 2, 'the trap cookies are set');
  await cdp.detach();
}

after(async () => {
  await ext?.close();
  await as?.close();
  assert.deepEqual(as?.cookieSightings ?? [], [], 'no request of the extension carried a cookie');
});

/** The authorization window: a new page target on the authorization server. */
async function authWindow(): Promise<Page> {
  const target: Target = await ext.browser.waitForTarget(
    (t) => t.type() === TargetType.PAGE && t.url().startsWith(`${as.issuer}/interaction/`),
    {
      timeout: 15_000,
    },
  );
  return await target.asPage();
}

async function clickAuthorize() {
  await openServer(panel, 'secure');
  await (await waitFor(panel, `${DETAIL} >>> button[data-action="authorize"]`)).click();
}

test('an added OAuth server waits for authorization and shows no tools', async () => {
  await addServerInPanel(panel, { name: 'Secure', url: as.mcpUrl, authKind: 'oauth' });
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  await openServer(panel, 'secure');
  assert.equal(await panel.$(`${DETAIL_TOOLS} >>> input[data-tool]`), null, 'no tools before authorization');
  assert.equal(as.stats.toolCalls, 0);
  assert.equal(as.issued.accessTokens.length, 0);
});

test('closing the authorization window leaves the server in needs-auth, saying it was cancelled', async () => {
  await clickAuthorize();
  const popup = await authWindow();
  await waitFor(popup, '#approve');
  await popup.close();
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="needs-auth"]`);
  const deadline = Date.now() + 10_000;
  let reason = '';
  while (Date.now() < deadline && !/cancelled/i.test(reason)) {
    reason = await textOf(panel, `${DETAIL} >>> .reason`).catch(() => '');
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(reason, /Authorization cancelled/);
  assert.equal(as.issued.accessTokens.length, 0);
});

test('approving in the authorization window makes the server ready and its tool callable', async () => {
  await clickAuthorize();
  const popup = await authWindow();
  await (await waitFor(popup, '#approve')).click();
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  await waitFor(panel, `${DETAIL_TOOLS} >>> input[data-tool="whoami"]`);
  assert.equal(as.issued.accessTokens.length, 1);
  assert.equal(as.issued.refreshTokens.length, 1);

  const result = await panelRequest<{
    ok: boolean;
    value?: { content: { type: string; text: string }[] };
  }>(panel, 'panel:call-tool', { serverId: 'secure', tool: 'whoami', arguments: {} });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.match(result.value!.content[0]!.text, /^client=\S+/);
  assert.equal(as.stats.toolCalls, 1);
});

test('the whole flow and the tool call sent no cookie to the MCP or authorization server (credentials omitted, N2)', async () => {
  assert.ok(as.issued.accessTokens.length >= 1, 'discovery, registration and token requests ran');
  assert.ok(as.stats.toolCalls >= 1, 'the MCP transport ran');
  assert.deepEqual(as.cookieSightings, []);
});

test("the request log shows the authorization's discovery, registration and token requests, with no secret in any row (J2)", async () => {
  const log = await panelRequest<{
    ok: boolean;
    value: { entries: { method: string; status: unknown; request?: { httpMethod: string; url: string } }[] };
  }>(panel, 'panel:get-log', { serverId: 'secure' });
  assert.equal(log.ok, true);
  const steps = log.value.entries.map((e) => e.method);
  for (const step of ['oauth:discovery', 'oauth:register', 'oauth:token']) assert.ok(steps.includes(step), `${step} in ${steps.join(',')}`);
  const token = log.value.entries.find((e) => e.method === 'oauth:token' && e.status === 200);
  assert.deepEqual(token?.request, { httpMethod: 'POST', url: `${as.issuer}/token` });
  const text = JSON.stringify(log);
  for (const secret of [...as.issued.accessTokens, ...as.issued.refreshTokens]) assert.ok(!text.includes(secret), 'a token in the log');
  assert.ok(!/code_verifier|client_secret|"code"|refresh_token|access_token/.test(text), text);
});

test('no access or refresh token is stored in plaintext in chrome.storage.local or IndexedDB', async () => {
  const worker = await ext.serviceWorker();
  const dump = await dumpExtensionStorage(worker);
  const atRest = JSON.stringify({ local: dump.local, idb: dump.idb });
  const tokens = [...as.issued.accessTokens, ...as.issued.refreshTokens];
  assert.ok(tokens.length >= 2);
  for (const token of tokens) assert.equal(atRest.includes(token), false, 'a token was found at rest');
  // The access token lives in session storage only (F1); the refresh token is sealed in the entry (F2).
  assert.ok(JSON.stringify(dump.session).includes(as.issued.accessTokens.at(-1)!), 'the access token is in chrome.storage.session');
  const entry = (
    dump.local as { mcp_servers: { id: string; auth: { kind: string; binding?: unknown; tokens?: { refresh?: object } } }[] }
  ).mcp_servers.find((s) => s.id === 'secure')!;
  assert.equal(entry.auth.kind, 'oauth');
  assert.deepEqual(entry.auth.binding, { resource: as.mcpUrl, issuer: as.issuer });
  assert.deepEqual(Object.keys(entry.auth.tokens!.refresh!).sort(), ['ct', 'iv', 'v']);
});

test('a rejected access token is refreshed once with the sealed refresh token and the server reconnects (E9)', async () => {
  const worker = await ext.serviceWorker();
  // Spoil the session-stored access token, as an expiry or a server-side revocation would.
  await worker.evaluate(async () => {
    const all = await chrome.storage.session.get(null);
    for (const [k, v] of Object.entries(all)) {
      if (k.startsWith('mcp_token_') && k !== 'mcp_token_owners')
        await chrome.storage.session.set({ [k]: { ...(v as object), accessToken: 'spoiled-token' } });
    }
  });
  const send = (type: string) => panelRequest(panel, type, { serverId: 'secure' });
  await send('panel:disconnect');
  const unauthorizedBefore = as.stats.unauthorized;
  const connected = (await send('panel:connect')) as { ok: boolean };
  assert.equal(connected.ok, true, JSON.stringify(connected));
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  assert.ok(as.stats.unauthorized > unauthorizedBefore, 'the spoiled token was sent and refused');
  assert.equal(as.issued.refreshTokens.length, 2, 'one refresh, with rotation');
  assert.equal(as.issued.accessTokens.length, 2);
  const local = JSON.stringify(await worker.evaluate(() => chrome.storage.local.get(null)));
  for (const token of [...as.issued.accessTokens, ...as.issued.refreshTokens]) assert.equal(local.includes(token), false);
});

/** Runs a tool the way a user does: pick it in the runner, click Run. */
async function runInPanel(tool: string) {
  await openTool(panel, 'secure', tool);
  const select = await waitFor(panel, 'mcp-tool-runner >>> select[name="tool"]');
  const value = JSON.stringify(['secure', tool]);
  const deadline = Date.now() + 15_000;
  while (!(await panel.$$eval('mcp-tool-runner >>> option', (els) => els.map((e) => e.value))).includes(value)) {
    if (Date.now() > deadline) throw new Error(`${tool} is not offered by the runner`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await select.select(value);
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

/** The runner's output once the call finished (not the "running" placeholder). */
async function runnerOutput(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await panel.$eval('mcp-tool-runner >>> .output', (el) => el.textContent ?? '');
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`runner output never matched ${pattern}: ${text}`);
}

/** The authorization window, if the AS shows one, is approved like a user would; a silent one needs nothing. */
function approveIfShown(): { stop(): void } {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const target = ext.browser.targets().find((t) => t.type() === TargetType.PAGE && t.url().startsWith(`${as.issuer}/interaction/`));
      const popup = target ? await target.asPage().catch(() => null) : null;
      const approve = popup ? await popup.$('#approve').catch(() => null) : null;
      if (approve) await approve.click().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { stop: () => void (stopped = true) };
}

/** Still waiting: the offer's text is the refusal or the "asking…" line. */
const stepUpBusy = (text: string) => /Grant more access|Asking the authorization server/.test(text);

const scopesOf = (jwt: string) =>
  String((JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { scope?: string }).scope ?? '').split(' ');

test('a token the resource server stops accepting mid-session is refreshed once and handed to the live session; the call runs once (E9)', async () => {
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 20_000);
  const before = { calls: as.stats.toolCalls, refreshes: as.issued.refreshTokens.length, unauthorized: as.stats.unauthorized };
  as.rejectIssuedAccessTokens(); // a server-side revocation while the session is live
  const result = await panelRequest<{
    ok: boolean;
    value?: { content: { text: string }[] };
  }>(panel, 'panel:call-tool', { serverId: 'secure', tool: 'whoami', arguments: {} });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.match(result.value!.content[0]!.text, /^client=\S+/);
  assert.equal(as.stats.toolCalls, before.calls + 1, 'the tool ran exactly once at the server');
  assert.equal(as.issued.refreshTokens.length, before.refreshes + 1, 'exactly one refresh');
  assert.equal(as.stats.unauthorized, before.unauthorized + 1, 'one 401, then the refreshed token was accepted');
  assert.equal(
    ext.browser.targets().some((t) => t.url().startsWith(`${as.issuer}/interaction/`)),
    false,
    'no window: the user was not needed',
  );
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`);
});

test('a tool needing more scope: refused with 403, "Grant more access" steps up, the user re-runs it and the token carries both scopes (E7, H3)', async () => {
  await openServer(panel, 'secure');
  assert.equal(
    (await textOf(panel, `${DETAIL} >>> button[data-action="authorize"]`)).trim(),
    'Re-authorize',
    'a ready OAuth card offers Re-authorize',
  );
  const tokensBefore = as.issued.accessTokens.length;
  await runInPanel('admin-op');
  await runnerOutput(/Grant more access/);
  assert.equal(as.stats.forbidden, 1);
  assert.equal(as.stats.adminCalls, 0);
  assert.equal(as.issued.accessTokens.length, tokensBefore, 'no authorization without the user');
  const grant = await waitFor(panel, '#step-up:not([hidden]) button[data-action="grant-more-access"]');
  const approver = approveIfShown();
  try {
    await grant.click();
    const deadline = Date.now() + 30_000;
    let outcome = { granted: false, text: '' };
    while (Date.now() < deadline) {
      outcome = await panel.$eval('#step-up .step-up-text', (el) => ({
        granted: el.classList.contains('granted'),
        text: el.textContent ?? '',
      }));
      if (outcome.granted || !stepUpBusy(outcome.text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(outcome.granted, `step-up did not succeed: ${outcome.text}`);
  } finally {
    approver.stop();
  }
  assert.equal(as.stats.adminCalls, 0, 'granting does not re-send the call');
  assert.equal(as.stats.forbidden, 1);
  const stepped = as.issued.accessTokens.at(-1)!;
  assert.equal(as.issued.accessTokens.length, tokensBefore + 1);
  for (const scope of [OAUTH_SCOPE, ADMIN_SCOPE])
    assert.ok(scopesOf(stepped).includes(scope), `the new token carries ${scope}: ${scopesOf(stepped).join(' ')}`);

  await runInPanel('admin-op');
  const out = await runnerOutput(/admin ok/);
  assert.match(out, new RegExp(`scopes=.*${OAUTH_SCOPE}`));
  assert.match(out, new RegExp(`scopes=.*${ADMIN_SCOPE}`));
  assert.equal(as.stats.adminCalls, 1, 'the re-run ran once');
  assert.equal(as.stats.forbidden, 1);
  assert.equal(await panel.$eval('#step-up', (el) => (el as HTMLElement).hidden), true, 'the offer is gone after a new run');
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`);
});

test('"Forget authorization" revokes at the authorization server and returns the server to needs-auth', async () => {
  await openSettings();
  await (await waitFor(panel, `${SETTINGS} >>> button[data-action="forget-auth"]`)).click();
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
  assert.ok(as.stats.revocations >= 1, 'the tokens were revoked at the AS');
  const worker = await ext.serviceWorker();
  const local = JSON.stringify(await worker.evaluate(() => chrome.storage.local.get(null)));
  assert.equal(local.includes('"tokens"'), false, 'no sealed refresh token is left');
  assert.equal(ext.errors.filter((e) => !/Failed to load resource/.test(e)).length, 0, ext.errors.join('\n'));
});

test('a refresh refused with no user present: needs-auth, and the card says "Sign-in expired — click Re-authorize" next to that button (E9)', async () => {
  // Authorize again after "Forget authorization".
  const approver = approveIfShown();
  try {
    await clickAuthorize();
    await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 30_000);
  } finally {
    approver.stop();
  }
  await panelRequest(panel, 'panel:disconnect', { serverId: 'secure' });
  as.rejectIssuedAccessTokens();
  as.refuseTokenRequests = true;
  try {
    const connected = await panelRequest<{ ok: boolean }>(panel, 'panel:connect', { serverId: 'secure' });
    assert.equal(connected.ok, false);
    await waitFor(panel, `${CARD} >>> mcp-status-badge[status="needs-auth"]`, 20_000);
    await openServer(panel, 'secure');
    const reason = await textOf(panel, `${DETAIL} >>> .reason`);
    assert.ok(reason.startsWith('Sign-in expired — click Re-authorize.'), reason);
    assert.match(reason, /invalid_grant/);
    assert.equal((await textOf(panel, `${DETAIL} >>> button[data-action="authorize"]`)).trim(), 'Re-authorize');
    const badge = await (await ext.serviceWorker()).evaluate(() => chrome.action.getBadgeText({}));
    assert.notEqual(badge, '', 'the toolbar badge counts the server that needs attention');
  } finally {
    as.refuseTokenRequests = false;
  }
  assert.equal(ext.errors.filter((e) => !/Failed to load resource/.test(e)).length, 0, ext.errors.join('\n'));
});
