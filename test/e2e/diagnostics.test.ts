/**
 * V3, "Copy diagnostics" through the real panel: the report is previewed before copying, copied
 * only on the click, names each server's state without its URL's query string, and contains no
 * secret the extension stores — neither the tokens the user typed nor any sealed blob. After the
 * worker is stopped (no DevTools on it) the report still comes, and counts the new start and the
 * session it adopted.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openView, row } from '../support/panel-views.js';
import { stopWorker, workerRunning } from '../support/worker-lifecycle.js';

const TOKEN = 'tok-DIAG-GOOD-5d0c9e2a7b14f3e8';
const WRONG = 'tok-DIAG-WRONG-8a41c7e0d92b6f35';
const QUERY = 'QUERY-SECRET-4f1e9b7c2a';
const DIAG = 'mcp-diagnostics >>> ';

let good: DemoServer;
let strict: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  good = await startDemoServer({ bearerToken: TOKEN });
  strict = await startDemoServer({ bearerToken: 'another-token' });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Good', url: `${good.url}?api_key=${QUERY}`, authKind: 'bearer', token: TOKEN });
  await waitFor(panel, `${row('good')} >>> mcp-status-badge[status="ready"]`, 20_000);
  await addServerInPanel(panel, { name: 'Strict', url: strict.url, authKind: 'bearer', token: WRONG });
  await waitFor(panel, `${row('strict')} >>> mcp-status-badge[status="error"]`, 20_000);
});

after(async () => {
  await ext?.close();
  await good?.close();
  await strict?.close();
});

/** Every string the extension keeps, read from the panel page (same origin as the worker, no DevTools on it). */
/**
 * Every string the extension keeps, read from the panel page (same origin as the worker, no DevTools
 * on it). A string expression: tsx-compiled functions do not survive serialisation.
 */
const STORED_STRINGS = `(async () => {
  const out = [];
  const walk = (v) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(await chrome.storage.local.get(null));
  walk(await chrome.storage.session.get(null));
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open(info.name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    for (const store of Array.from(db.objectStoreNames)) {
      walk(await new Promise((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      }));
    }
    db.close();
  }
  return out;
})()`;

async function storedStrings(): Promise<string[]> {
  return (await panel.evaluate(STORED_STRINGS)) as string[];
}

async function report(): Promise<string> {
  await openView(panel, 'activity');
  const close = await panel.$(`${DIAG}button[data-action="close"]`);
  if (close && (await close.boundingBox())) await close.click();
  await panel.click(`${DIAG}button[data-action="show"]`);
  return until('the report preview', async () => {
    const text = await panel.$eval(`${DIAG}pre`, (pre) => (pre.closest<HTMLElement>('.open')?.hidden ? '' : (pre.textContent ?? '')));
    return text.includes('Recent errors') ? text : undefined;
  });
}

test('V3: the report says what a maintainer needs and nothing the extension keeps secret', async () => {
  const text = await report();
  assert.match(text, /^Remote MCP for Chrome — diagnostics\nExtension 0\.1\.0 · /);
  assert.match(text, /- Good \[good\] — ready · auth bearer · http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
  assert.match(text, /- Strict \[strict\] — error · auth bearer/);
  assert.match(text, /reason \[auth HTTP 401\]/);
  assert.match(text, /Offscreen document: open; JS heap [\d.]+ MiB used of [\d.]+ MiB/);
  for (const secret of [TOKEN, WRONG, QUERY, 'api_key']) assert.equal(text.includes(secret), false, `${secret} is in the report`);
  const stored = (await storedStrings()).filter((s) => s.length >= 16 && /^[A-Za-z0-9+/=_-]+$/.test(s));
  assert.ok(stored.length > 0, 'the sealed tokens are in storage, as blobs');
  for (const value of stored) assert.equal(text.includes(value), false, `a stored value (${value.slice(0, 8)}…) is in the report`);
});

test('V3: Copy puts exactly the previewed report on the clipboard, only on the click', async () => {
  await ext.browser
    .defaultBrowserContext()
    .overridePermissions(`chrome-extension://${ext.extensionId}`, ['clipboard-read', 'clipboard-write']);
  await panel.bringToFront();
  await panel.evaluate(() => navigator.clipboard.writeText('before'));
  const text = await report();
  assert.equal(await panel.evaluate(() => navigator.clipboard.readText()), 'before', 'showing the report copies nothing');
  await panel.click(`${DIAG}button[data-action="copy"]`);
  await until('the copy', async () => (await panel.evaluate(() => navigator.clipboard.readText())) === text);
  assert.match(await panel.$eval(`${DIAG}.status`, (s) => s.textContent ?? ''), /Copied/);
});

test('V3 after the worker sleeps: the report still comes, with the new start and the session it adopted', async () => {
  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)));
  const text = await report();
  const starts = Number(/(\d+) start\(s\) in this browser session/.exec(text)?.[1]);
  assert.ok(starts >= 2, `starts: ${starts}`);
  assert.match(text, /: 1 live session\(s\) offered for adoption/);
  assert.match(text, /- Good \[good\] — ready/);
});
