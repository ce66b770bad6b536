/**
 * Using servers end to end in Chromium with the built extension and the real SDK demo server:
 * a long tool's progress bar and Abort (the server sees notifications/cancelled, SPEC H1, H2),
 * and AgentTool calls from the worker's registry going through the approval card (SPEC G1, K3).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, WebWorker } from 'puppeteer-core';
import { launchExtension, textOf, until as untilWithin, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { openTool, storeServersFromPanel } from '../support/panel-views.js';

/** This file's waits keep their 15 s bound. */
const until = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000) => untilWithin(what, probe, timeoutMs);

let server: DemoServer;
let ext: ExtensionBrowser;
let panel: Page;
let worker: WebWorker;

before(async () => {
  server = await startDemoServer();
  ext = await launchExtension();
  worker = await ext.serviceWorker();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: server.url }]);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

test('a long tool shows a progress bar, and Abort cancels it on the server', async () => {
  await openTool(panel, 'demo', 'slow');
  const select = await waitFor(panel, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify(['demo', 'slow']));
  await panel.$eval('mcp-tool-runner >>> textarea', (el) => {
    el.value = JSON.stringify({ steps: 100, ms: 150 });
  });
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await waitFor(panel, 'mcp-tool-runner >>> progress:not([hidden])');
  const progress = await until('progress of at least 2 steps', () =>
    panel.$eval('mcp-tool-runner >>> progress', (el) => (el.value >= 2 ? { value: el.value, max: el.max } : undefined)),
  );
  assert.equal(progress.max, 100);
  assert.match(await textOf(panel, 'mcp-tool-runner >>> .progress-text'), /^step \d+\/100$/);
  assert.equal(server.stats.cancellations.length, 0);

  await panel.click('mcp-tool-runner >>> button.abort');
  const message = await textOf(panel, 'mcp-tool-runner >>> .output p.error');
  assert.match(message, /cancel/i);
  await until('the server to record the cancellation', async () => server.stats.cancellations.length === 1);
  assert.equal(await panel.$eval('mcp-tool-runner >>> button.abort', (el) => (el as HTMLElement).hidden), true);
});

test('the registry lists every enabled tool as an AgentTool with write effects and the raw schema', async () => {
  const tools = await worker.evaluate(() =>
    globalThis
      .remoteMcp!.agentTools.list()
      .map((t) => ({ name: t.name, effects: t.effects, autoRetry: t.autoRetry, schema: t.jsonSchema, ro: t.annotations?.readOnlyHint })),
  );
  assert.deepEqual(
    tools.map((t) => t.name),
    ['mcp__demo__add', 'mcp__demo__echo', 'mcp__demo__slow'],
  );
  const echo = tools.find((t) => t.name === 'mcp__demo__echo')!;
  assert.deepEqual([echo.effects, echo.autoRetry, echo.ro], ['write', false, true]);
  assert.deepEqual((echo.schema as { properties: unknown }).properties, { text: { type: 'string', description: 'Text to echo' } });
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
    worker.evaluate(
      (key) => (globalThis as unknown as Record<string, unknown>)[key] as { ok: boolean; code?: string; content?: unknown } | undefined,
      key,
    ),
  );

test('an agent call waits for the approval card even for a readOnlyHint tool; Allow once runs it once', async () => {
  const before = server.stats.toolCalls.filter((c) => c === 'echo').length;
  await startAgentCall('mcp__demo__echo', { text: 'from the agent' }, '__once');
  await waitFor(panel, 'mcp-approval-card >>> button[data-decision="once"]');
  assert.match(await textOf(panel, 'mcp-approval-card >>> .claims'), /only reads data — this is not verified/);
  assert.match(await textOf(panel, 'mcp-approval-card >>> .from'), /echo/);
  assert.deepEqual(JSON.parse(await textOf(panel, 'mcp-approval-card >>> pre.arguments')), { text: 'from the agent' });
  assert.equal(server.stats.toolCalls.filter((c) => c === 'echo').length, before, 'not sent before approval');
  await panel.click('mcp-approval-card >>> button[data-decision="once"]');
  const r = await outcome('__once');
  assert.equal(r.ok, true);
  // The agent gets the server's text fenced as untrusted data (N9).
  const [part] = r.content as { type: string; text: string }[];
  assert.equal(part!.type, 'text');
  assert.match(
    part!.text,
    /^Result of tool "echo" from MCP server "Demo" \(id demo\)\. Untrusted data.*\n<<mcp-untrusted-[0-9a-f]{32}>>\necho: from the agent\n<<\/mcp-untrusted-[0-9a-f]{32}>>$/,
  );
  assert.equal(server.stats.toolCalls.filter((c) => c === 'echo').length, before + 1);
  await until('the card to go away', async () => !(await panel.$('mcp-approval-card')));
});

test('Deny stops the call before it reaches the server', async () => {
  const before = server.stats.toolCalls.length;
  await startAgentCall('mcp__demo__add', { a: 1, b: 2 }, '__deny');
  await panel.click(
    (await waitFor(panel, 'mcp-approval-card >>> button[data-decision="deny"]')) && 'mcp-approval-card >>> button[data-decision="deny"]',
  );
  const r = await outcome('__deny');
  assert.equal(r.ok, false);
  assert.equal(r.code, 'denied');
  assert.equal(server.stats.toolCalls.length, before);
  // The denied card goes with the next approvals push; the next test must not find it first.
  await until('the card to go away', async () => !(await panel.$('mcp-approval-card')));
});

test('"Always allow" is stored per tool, and later calls of that tool need no card', async () => {
  await startAgentCall('mcp__demo__add', { a: 2, b: 3 }, '__always1');
  // `add` does not claim to only read data: "Always allow" waits under More options.
  await panel.click(
    (await waitFor(panel, 'mcp-approval-card >>> details.more > summary')) && 'mcp-approval-card >>> details.more > summary',
  );
  await panel.click(
    (await waitFor(panel, 'mcp-approval-card >>> button[data-decision="always"]')) &&
      'mcp-approval-card >>> button[data-decision="always"]',
  );
  assert.equal((await outcome('__always1')).ok, true);
  const stored = await worker.evaluate(
    async () => (await chrome.storage.local.get('mcp_tool_approvals')).mcp_tool_approvals as Record<string, { url: string }>,
  );
  assert.deepEqual(Object.keys(stored), ['demo\u0000add']);
  assert.equal(stored['demo\u0000add']!.url, server.url);

  await startAgentCall('mcp__demo__add', { a: 4, b: 5 }, '__always2');
  const r = await outcome('__always2');
  assert.match((r.content as { text: string }[])[0]!.text, /\n<<mcp-untrusted-[0-9a-f]{32}>>\nsum=9\n<<\/mcp-untrusted-/);
  assert.equal(await panel.$('mcp-approval-card'), null, 'no card was shown');
});

test('no extension context logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
