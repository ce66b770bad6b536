/**
 * The Activity view end to end with the built extension and the SDK demo server (SPEC J2, G1,
 * K3): a tool run from the panel appears as `tools/call echo` with its duration and an
 * expandable, redacted payload (the server's bearer token never appears); an agent call allowed
 * "always" is listed among the grants, Revoke removes it, and the next call asks again.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, WebWorker } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openView, row } from '../support/panel-views.js';
import { panelRequest } from '../support/panel-request.js';

const LOG = 'section[data-view="activity"] mcp-activity-log';
const GRANTS = 'section[data-view="activity"] mcp-approval-grants';
const TOKEN = 's3cret-bearer-token-for-activity';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;
let worker: WebWorker;

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension();
  worker = await ext.serviceWorker();
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Demo', url: server.url, authKind: 'bearer', token: TOKEN });
  await openView(panel, 'servers');
  await waitFor(panel, `${row('demo')} >>> mcp-status-badge[status="ready"]`, 20_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

const labels = () => panel.$$eval(`${LOG} >>> .method`, (els) => els.map((e) => e.textContent ?? ''));

test('a tool run from the panel shows as "tools/call echo" with its duration and a redacted, expandable payload', async () => {
  const result = await runToolInPanel(panel, 'demo', 'echo', { text: `Authorization: Bearer ${TOKEN}` });
  assert.ok(result.text, JSON.stringify(result));
  await openView(panel, 'activity');
  await until('tools/call echo in the Activity log', async () => (await labels()).includes('tools/call echo'));
  const all = await labels();
  assert.equal(all[0], 'tools/call echo', `newest first: ${all.join(', ')}`);
  assert.ok(
    all.some((l) => l.startsWith('initialize ')),
    all.join(', '),
  );
  const row = `${LOG} >>> details[data-method="tools/call"]`;
  assert.match(await textOf(panel, `${row} .duration`), /^\d+ ms$|^\d+\.\d s$/);
  assert.equal(await textOf(panel, `${row} .server`), 'Demo');
  assert.match(await textOf(panel, `${row} .outcome`), /^OK/);

  await panel.click(`${row} > summary`);
  const request = await textOf(panel, `${row} pre.request`);
  assert.match(request, /"name": "echo"/);
  assert.match(request, /Bearer \[redacted\]/);
  assert.match(await textOf(panel, `${row} pre.response`), /Bearer \[redacted\]/);
  const shown = await panel.$eval(LOG, (el) => el.shadowRoot!.textContent ?? '');
  assert.ok(!shown.includes(TOKEN), 'the bearer token is not shown');
  const stored = JSON.stringify(await panelRequest(panel, 'panel:get-log', {}));
  assert.ok(!stored.includes(TOKEN), 'nor stored');
});

test('the search narrows the rows, and Export says what it saved', async () => {
  await panel.type(`${LOG} >>> input[type="search"]`, 'echo');
  await until('only echo rows', async () => {
    const l = await labels();
    return l.length > 0 && l.every((x) => x === 'tools/call echo');
  });
  await panel.click(`${LOG} >>> button[data-action="export"]`);
  assert.match(await textOf(panel, `${LOG} >>> [role="status"]`), /^Exported \d+ entries to remote-mcp-activity\.json\.$/);
  await panel.$eval(`${LOG} >>> input[type="search"]`, (el) => {
    el.value = '';
    el.dispatchEvent(new Event('input'));
  });
});

/** Starts an agent call in the worker; its outcome lands in a global the test polls. */
async function startAgentCall(name: string, args: unknown, key: string) {
  await worker.evaluate(
    (name, args, key) => {
      const g = globalThis as unknown as Record<string, unknown>;
      g[key] = undefined;
      void globalThis.remoteMcp!.agentTools.call(name, args).then(
        (r) => (g[key] = { ok: true, content: r.result.content }),
        (e: { code?: string; message: string }) => (g[key] = { ok: false, code: e.code, message: e.message }),
      );
    },
    name,
    args,
    key,
  );
}

const outcome = (key: string) =>
  until(`outcome of ${key}`, () =>
    worker.evaluate((key) => (globalThis as unknown as Record<string, unknown>)[key] as { ok: boolean; code?: string } | undefined, key),
  );

test('"Always allow" is listed among the grants; Revoke removes it and the next agent call asks again', async () => {
  await openView(panel, 'activity');
  assert.match(await textOf(panel, `${GRANTS} >>> p.muted`), /No tool is always allowed/);
  await startAgentCall('mcp__demo__add', { a: 2, b: 3 }, '__always');
  await waitFor(panel, 'mcp-approval-card >>> details.more > summary');
  assert.match(await textOf(panel, 'mcp-approval-card >>> .claims'), /does not say whether this tool changes or deletes data/);
  await panel.click('mcp-approval-card >>> details.more > summary');
  await panel.click('mcp-approval-card >>> button[data-decision="always"]');
  assert.equal((await outcome('__always')).ok, true);

  await until('the grant in the list', async () => (await panel.$$(`${GRANTS} >>> li[data-tool="add"]`)).length === 1);
  assert.equal(await textOf(panel, `${GRANTS} >>> li .tool`), 'Add numbers (add)');
  assert.equal(await textOf(panel, `${GRANTS} >>> li .server`), 'Demo');
  const revoke = await waitFor(panel, `${GRANTS} >>> li button[data-action="revoke"]`);
  assert.equal(await revoke.evaluate((b) => b.getAttribute('aria-label')), 'Revoke Add numbers (add) on Demo');
  await revoke.click();
  await until('the list to empty', async () => (await panel.$$(`${GRANTS} >>> li`)).length === 0);
  const stored = await worker.evaluate(async () => (await chrome.storage.local.get('mcp_tool_approvals')).mcp_tool_approvals as object);
  assert.deepEqual(stored, {});

  await startAgentCall('mcp__demo__add', { a: 4, b: 5 }, '__again');
  await panel.click(
    (await waitFor(panel, 'mcp-approval-card >>> button[data-decision="deny"]')) && 'mcp-approval-card >>> button[data-decision="deny"]',
  );
  assert.equal((await outcome('__again')).code, 'denied');
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
