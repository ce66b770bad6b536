/**
 * The chat's tool budget end to end (T2) in Chromium with the built extension: a real SDK server
 * offering a thousand tools (the demo server with raw catalog entries) next to the plain demo
 * server, and the scripted provider counting the tools of every request. The panel shows the
 * estimate with its method and, above the provider's limit, says so before anything is sent;
 * a tool-search turn loads `echo` and calls it; a per-chat server choice holds after the worker
 * is stopped (used, worker stopped, used again) and in a reopened panel.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, toolNamesOf, type ProviderServer } from '../support/provider-server.js';
import { stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { lastAssistantText, newChat, saveOpenAiProvider, sendChat } from '../support/chat-panel.js';
import { clickFresh, openView, storeServersFromPanel } from '../support/panel-views.js';

let big: DemoServer;
let demo: DemoServer;
let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;

const V = 'mcp-chat-view >>> ';
const BIG_TOOLS = 1000;

before(async () => {
  // A thousand tools in all: the demo's own, then raw entries up to the catalog's limit.
  const raw = Array.from({ length: BIG_TOOLS }, (_, i) => ({
    name: `op_${String(i).padStart(4, '0')}`,
    description: `Runs operation ${i} of the inventory system.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  }));
  big = await startDemoServer({ name: 'big', rawTools: raw });
  demo = await startDemoServer();
  provider = await startProviderServer();
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [
    { id: 'big', name: 'Big', url: big.url },
    { id: 'demo', name: 'Demo', url: demo.url },
  ]);
  await saveOpenAiProvider(panel, provider.openAiBase);
});

after(async () => {
  await ext?.close();
  await big?.close();
  await demo?.close();
  await provider?.close();
});

const budgetText = () => textOf(panel, `${V}details.tools .tool-budget`);
const numberIn = (text: string, pattern: RegExp) => Number((pattern.exec(text)?.[1] ?? 'NaN').replace(/[^\d]/g, ''));

test('the estimate and the limit show before sending; a tool-search turn loads echo, calls it, and never offers more than 128', async () => {
  await newChat(panel);
  const limit = await until('the over-limit message', async () => {
    const text = await textOf(panel, `${V}.tool-limit .message`).catch(() => '');
    return /accepts at most 128/.test(text) ? text : undefined;
  });
  assert.match(limit, /^This chat offers 1,0\d\d tools; OpenAI-compatible accepts at most 128\. Choose servers or turn on tool search\.$/);
  assert.match(await budgetText(), /^Tool search: 1 search tool at first, ≈ [\d,]+ tokens \(bytes of the tool definitions as sent ÷ 4\)/);
  // The view may draw the message again while the first listing settles (its pins are written): click the current button.
  await clickFresh(panel, `${V}.tool-limit button.use-search`);
  await until(
    'the limit message to go',
    async () => (await panel.$eval(`${V}.tool-limit`, (el) => (el as HTMLElement).hidden)) || undefined,
  );
  assert.equal(await panel.$eval(`${V}input[name="tool-search"]`, (el) => el.checked), true);

  provider.script(
    { kind: 'stream', toolCalls: [{ id: 's1', name: 'search_tools', arguments: '{"query":"echo text"}' }] },
    { kind: 'stream', toolCalls: [{ id: 'e1', name: 'mcp__demo__echo', arguments: '{"text":"found"}' }] },
    { kind: 'stream', text: ['Echo said found.'] },
  );
  const from = provider.requests.length;
  await sendChat(panel, 'Echo "found" with whatever tool does that');
  const loaded = await textOf(panel, `${V}li.tools-loaded`);
  assert.match(loaded, /^Loaded \d+ tools for “echo text”: .*Echo · Demo/);
  assert.match(await textOf(panel, `${V}li.tool-search-on`), /Tool search is on for this chat/);
  await (await waitFor(panel, `${V}mcp-approval-card >>> button[data-decision="once"]`)).click();
  await until('the answer', async () => ((await lastAssistantText(panel)).includes('Echo said found.') ? true : undefined));

  const requests = provider.requests.slice(from);
  assert.equal(requests.length, 3);
  for (const r of requests) assert.ok(toolNamesOf(r).length <= 128, `${toolNamesOf(r).length} tools in one request`);
  assert.deepEqual(toolNamesOf(requests[0]!), ['search_tools']);
  assert.ok(toolNamesOf(requests[1]!).includes('mcp__demo__echo'));
  assert.equal(demo.stats.toolCalls.filter((c) => c === 'echo').length, 1);
  assert.equal(big.stats.toolCalls.length, 0);
});

test('a per-chat server choice: the estimate is what is sent, and it holds after the worker stops and in a reopened panel', async () => {
  await panel.click(`${V}details.tools summary`);
  await panel.click(`${V}input[data-server="big"]`);
  await panel.click(`${V}input[name="tool-search"]`);
  const estimate = await until('the estimate of the demo tools', async () => {
    const text = await budgetText();
    return text.startsWith('Tools offered:') ? text : undefined;
  });
  assert.match(estimate, /^Tools offered: \d+ · ≈ [\d,]+ tokens \(bytes of the tool definitions as sent ÷ 4\)$/);
  assert.equal(await panel.$eval(`${V}.tool-limit`, (el) => (el as HTMLElement).hidden), true, 'under the limit: no message');

  provider.script({ kind: 'stream', text: ['first'] });
  let from = provider.requests.length;
  await sendChat(panel, 'one');
  await until('the first answer', async () => ((await lastAssistantText(panel)).includes('first') ? true : undefined));
  const sent = toolNamesOf(provider.requests[from]!);
  assert.ok(sent.length > 0 && sent.every((n) => n.startsWith('mcp__demo__')), sent.join(', '));
  assert.equal(numberIn(estimate, /offered: (\d+)/), sent.length);
  const bytes = Buffer.byteLength(JSON.stringify(provider.requests[from]!.body.tools), 'utf8');
  assert.equal(numberIn(estimate, /≈ ([\d,]+) tokens/), Math.ceil(bytes / 4), 'the estimate is the size of the tools as received');

  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)) || undefined);
  provider.script({ kind: 'stream', text: ['second'] });
  from = provider.requests.length;
  await sendChat(panel, 'two');
  await until('the second answer', async () => ((await lastAssistantText(panel)).includes('second') ? true : undefined));
  assert.deepEqual(toolNamesOf(provider.requests[from]!), sent, 'the same choice after the worker stopped');

  await panel.close();
  panel = await ext.openPanel();
  await openView(panel, 'chat');
  await panel.click(`${V}details.tools summary`);
  await until('the chat’s choice in the reopened panel', async () => {
    const box = await panel.$(`${V}input[data-server="big"]`);
    return box && (await box.evaluate((el) => !el.checked)) ? true : undefined;
  });
  assert.equal(await panel.$eval(`${V}input[name="tool-search"]`, (el) => el.checked), false);
  assert.deepEqual(ext.errors, []);
});
