/**
 * Issue 13 (c): the worker stops while an agent call waits for approval. Without DevTools on the
 * worker, as for users. The card must not vanish: after the restart it is still there, says that
 * the call that asked ended and nothing was run, and stays until the user dismisses it. The
 * toolbar badge counts the waiting approval while it waits.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { evaluateInWorker, stopWorker, watchWorker, workerRunning } from '../support/worker-lifecycle.js';
import { nudgePanel, storeServersFromPanel } from '../support/panel-views.js';

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension({ workerDevTools: false });
  // The configuration is written from the panel page: the worker is only reached when it must be.
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

const title = () => panel.evaluate('chrome.action.getTitle({})') as Promise<string>;
const badge = () => panel.evaluate('chrome.action.getBadgeText({})') as Promise<string>;

test('an approval card left open while the worker stops is shown again, saying the call ended and nothing ran', async () => {
  await until('the registry to list the demo tools', () =>
    evaluateInWorker<number>(ext, 'globalThis.remoteMcp.agentTools.list().length').then(
      (n) => n > 0,
      () => false,
    ),
  );
  await evaluateInWorker(
    ext,
    `void globalThis.remoteMcp.agentTools.call('mcp__demo__echo', { text: 'asked before the restart' }).catch(() => undefined); true`,
  );
  await waitFor(panel, 'mcp-approval-card >>> button[data-decision="once"]');
  const watch = await watchWorker(ext);
  await until('the badge to count the waiting approval', async () => (await badge()) === '1' && (await title()) === '1 approval waiting');

  await stopWorker(ext);
  // The panel reconnects on the user's next action (its Port dropped), which starts the worker again.
  await nudgePanel(panel);
  await until('the worker to start again', () => workerRunning(ext));
  await waitFor(panel, 'mcp-approval-card >>> .gone', 20_000);
  assert.equal(
    await textOf(panel, 'mcp-approval-card >>> .gone'),
    'The request that asked for this approval ended when the extension restarted; nothing was run.',
  );
  assert.equal(await textOf(panel, 'mcp-approval-card >>> h3'), 'This tool call did not run');
  assert.deepEqual(JSON.parse(await textOf(panel, 'mcp-approval-card >>> pre.arguments')), { text: 'asked before the restart' });
  assert.equal(await panel.$('mcp-approval-card >>> button[data-decision]'), null, 'nothing left to allow');
  assert.equal(server.stats.toolCalls.filter((c) => c === 'echo').length, 0, 'the call never reached the server');
  await until('the badge to stop counting it: no decision waits', async () => (await badge()) === '');

  // It stays across a second restart, until dismissed.
  await stopWorker(ext);
  await nudgePanel(panel);
  await until('the worker to start again', () => workerRunning(ext));
  await waitFor(panel, 'mcp-server-list >>> mcp-server-card >>> mcp-status-badge[status="ready"]', 20_000);
  assert.equal((await panel.$$('mcp-approval-card')).length, 1);
  assert.ok(watch.stops >= 2, `the worker really stopped twice (stops seen: ${watch.stops})`);
  await watch.close();
  await panel.click('mcp-approval-card >>> button[data-action="dismiss"]');
  await until('the card to go', async () => (await panel.$$('mcp-approval-card')).length === 0);
  const kept = await until('the dismissal to be stored', () =>
    evaluateInWorker<unknown[]>(ext, `chrome.storage.session.get('mcp_pending_approvals').then((r) => r.mcp_pending_approvals)`).then(
      (list) => (list?.length === 0 ? list : undefined),
      () => undefined,
    ),
  );
  assert.deepEqual(kept, []);
});
