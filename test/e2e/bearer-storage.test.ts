/**
 * Bearer servers end to end (SPEC E1) and secrets at rest (SPEC F1–F3): a token entered in the
 * panel reaches the server as `Authorization: Bearer`, a wrong one gives an attributed error,
 * and a dump of `chrome.storage.local` and every IndexedDB store contains no token in plaintext.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, textOf, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { dumpExtensionStorage } from '../support/storage-dump.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { DETAIL, openServer } from '../support/panel-views.js';

const GOOD = 'tok-GOOD-7c1f0e5b9a2d4c68';
const WRONG = 'tok-WRONG-3b8e2a9f6d1c0e47';

let good: DemoServer;
let strict: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  good = await startDemoServer({ bearerToken: GOOD });
  strict = await startDemoServer({ bearerToken: 'something-else' });
  ext = await launchExtension();
  panel = await ext.openPanel();
});

after(async () => {
  await ext?.close();
  await good?.close();
  await strict?.close();
});

function addBearer(name: string, url: string, token: string) {
  return addServerInPanel(panel, { name, url, authKind: 'bearer', token });
}

test('a bearer token entered in the panel authorizes the server', async () => {
  await addBearer('Good', good.url, GOOD);
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="good"] >>> mcp-status-badge[status="ready"]', 20_000);
  assert.equal(good.stats.sessionsOpened, 1);
});

test('a rejected token is an attributed auth error that says to update the token', async () => {
  await addBearer('Strict', strict.url, WRONG);
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card[server-id="strict"] >>> mcp-status-badge[status="error"]', 20_000);
  await openServer(panel, 'strict');
  const reason = await textOf(panel, `${DETAIL} >>> .reason`);
  assert.match(reason, /HTTP 401/);
  assert.match(reason, /token was rejected/);
  assert.equal(strict.stats.sessionsOpened, 0);
});

test('no token appears in plaintext in chrome.storage.local or IndexedDB', async () => {
  const worker = await ext.serviceWorker();
  const dump = await dumpExtensionStorage(worker);
  const atRest = JSON.stringify({ local: dump.local, idb: dump.idb });
  for (const secret of [GOOD, WRONG]) assert.equal(atRest.includes(secret), false, `${secret} found at rest`);

  const servers = (dump.local as { mcp_servers: { id: string; auth: { kind: string; token?: { v: number; iv: string; ct: string } } }[] })
    .mcp_servers;
  const stored = servers.find((s) => s.id === 'good')!;
  assert.equal(stored.auth.kind, 'bearer');
  assert.deepEqual(Object.keys(stored.auth.token!).sort(), ['ct', 'iv', 'v']);
  assert.match(JSON.stringify(dump.idb), /"cryptoKey":"secret","extractable":false/, 'the sealing key is a non-extractable CryptoKey');
});
