/**
 * The chat and the worker's lifecycle (section P): the worker is stopped in the middle of a run,
 * without DevTools on it, as Chrome may stop it. A run lives in the worker, so it cannot go on;
 * the product ends it honestly instead of leaving silence: the open panel notices the dropped
 * link while its chat is answering and reconnects at once, the new worker closes the chat with an
 * "interrupted" entry (the step that waited is cancelled, its card says nothing was run), and the
 * chat takes the next message.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { stopWorker, watchWorker, workerRunning } from '../support/worker-lifecycle.js';
import { lastAssistantText as lastAssistantTextOf, saveOpenAiProvider } from '../support/chat-panel.js';
import { storeServersFromPanel } from '../support/panel-views.js';

let demo: DemoServer;
let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;

const V = 'mcp-chat-view >>> ';

before(async () => {
  demo = await startDemoServer();
  provider = await startProviderServer();
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: demo.url }]);
  await saveOpenAiProvider(panel, provider.openAiBase);
});

after(async () => {
  await ext?.close();
  await demo?.close();
  await provider?.close();
});

const lastAssistantText = () => lastAssistantTextOf(panel);

test('a worker stopped mid-run: the open chat ends with an "interrupted" entry by itself, never silence, and takes the next message', async () => {
  provider.script({
    kind: 'stream',
    text: ['Calling echo.'],
    toolCalls: [{ id: 'w1', name: 'mcp__demo__echo', arguments: '{"text":"lost"}' }],
  });
  await panel.type(`${V}mcp-composer >>> textarea`, 'Echo, then the worker stops');
  await panel.keyboard.press('Enter');
  await waitFor(panel, `${V}mcp-approval-card >>> button[data-decision="once"]`);
  assert.equal(await panel.$eval(`${V}button.stop`, (el) => (el as HTMLElement).hidden), false, 'the chat is answering');
  const watch = await watchWorker(ext);

  await stopWorker(ext);
  // No user action: the panel sees its link drop while the chat is answering and reconnects.
  await until('the worker to start again', async () => (watch.starts > 0 && (await workerRunning(ext))) || undefined, 20_000);
  await waitFor(panel, `${V}li.notice[data-notice="interrupted"]`, 20_000);
  assert.match(await textOf(panel, `${V}li.notice[data-notice="interrupted"]`), /interrupted|stopped/i);
  assert.deepEqual(await panel.$$eval(`${V}details.step`, (els) => els.map((e) => (e as HTMLElement).dataset.status)), ['cancelled']);
  assert.equal(await panel.$eval(`${V}button.stop`, (el) => (el as HTMLElement).hidden), true, 'no longer shown as answering');
  // The card stays in this chat, saying nothing was run; the call never reached the server.
  await waitFor(panel, `${V}mcp-approval-card >>> .gone`);
  assert.equal(await panel.$(`${V}mcp-approval-card >>> button[data-decision]`), null);
  assert.equal(demo.stats.toolCalls.filter((c) => c === 'echo').length, 0);
  await watch.close();

  provider.script({ kind: 'stream', text: ['Still here.'] });
  await panel.type(`${V}mcp-composer >>> textarea`, 'Are you there?');
  await panel.keyboard.press('Enter');
  await until('the next answer', async () => ((await lastAssistantText()).includes('Still here.') ? true : undefined));
  const last = provider.requests.at(-1)!.body.messages as { role: string; content: string; tool_call_id?: string }[];
  assert.match(last.find((m) => m.tool_call_id === 'w1')!.content, /Interrupted/);
  assert.deepEqual(ext.errors, []);
});
