/**
 * Tools that run only as tasks (MCP 2025-11-25 tasks) on the published reference server,
 * `@modelcontextprotocol/server-everything`: its `simulate-research-query` declares
 * `execution.taskSupport: "required"`. It is offered, runs from the panel's tool runner and from
 * an agent (after the approval card) as a task — created by `tools/call`, followed with
 * `tasks/get`, its result from `tasks/result` — asks its question through the same elicitation
 * card while the task waits for input, and still runs after the worker sleeps.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { freePort, startEverything, stopEverything } from '../support/server-everything.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { evaluateInWorker } from '../support/worker-lifecycle.js';
import { agentOutcome, startAgentCall } from '../support/agent-call.js';

const TOOL = 'simulate-research-query';
const CARD = 'mcp-server-list >>> mcp-server-card[server-id="everything"]';

let ext: ExtensionBrowser;
let panel: Page;
let child: ChildProcess | undefined;

before(async () => {
  const port = await freePort();
  child = await startEverything(port);
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Everything', url: `http://127.0.0.1:${port}/mcp` });
  await waitFor(panel, `${CARD} >>> mcp-status-badge[status="ready"]`, 30_000);
});

after(async () => {
  await ext?.close();
  await stopEverything(child);
});

type AgentTool = { name: string; toolName: string };
const agentTools = () =>
  evaluateInWorker<AgentTool[]>(ext, 'globalThis.remoteMcp.agentTools.list().map((t) => ({ name: t.name, toolName: t.toolName }))');

test('the task-only tool is offered, with no "left out" warning, to the runner and to the agent', async () => {
  const tools = await until('the task tool among the agent tools', async () => {
    const list = await agentTools();
    return list.some((t) => t.toolName === TOOL) ? list : undefined;
  });
  assert.ok(tools.some((t) => t.toolName === TOOL));
  const warnings = await panel.$$eval(`${CARD} >>> .warning`, (els) => els.map((el) => el.textContent ?? ''));
  assert.ok(!warnings.some((w) => /task/i.test(w)), warnings.join('\n'));
});

test('from the tool runner it runs as a task to its report', async () => {
  const out = await runToolInPanel(panel, 'everything', TOOL, { topic: 'tidal power' });
  assert.equal(out.error, undefined, out.error);
  assert.match(out.text ?? '', /# Research Report: tidal power/);
  assert.match(out.text ?? '', /Client polls `tasks\/get`/);
});

test('a task that needs input asks through the elicitation card; the answer reaches the report', async () => {
  const running = runToolInPanel(panel, 'everything', TOOL, { topic: 'python', ambiguous: true });
  const card = 'mcp-elicitation-card[status="pending"]';
  await waitFor(panel, card, 20_000);
  const choice = await panel.$eval(`${card} >>> select`, (el) => {
    const select = el;
    const option = [...select.options].find((o) => o.value !== '')!;
    select.value = option.value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return option.value;
  });
  await panel.click(`${card} >>> button[data-action="accept"]`);
  const out = await running;
  assert.equal(out.error, undefined, out.error);
  assert.match(out.text ?? '', new RegExp(`Clarification\\*\\*: ${choice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
});

test('an agent call of the task tool waits for the card, then resolves with the task result, fenced', async () => {
  const name = (await agentTools()).find((t) => t.toolName === TOOL)!.name;
  await startAgentCall(ext, name, { topic: 'glaciers' }, '__task');
  await panel.click(
    (await waitFor(panel, 'mcp-approval-card >>> button[data-decision="once"]')) && 'mcp-approval-card >>> button[data-decision="once"]',
  );
  const r = await agentOutcome(ext, '__task', 30_000);
  assert.equal(r.ok, true, r.message);
  assert.match(r.text ?? '', /Untrusted data/);
  assert.match(r.text ?? '', /# Research Report: glaciers/);
});

test('after the worker sleeps, the task tool still runs (the session and its catalog were adopted)', async () => {
  await sleepWorker(ext, panel);
  const out = await runToolInPanel(panel, 'everything', TOOL, { topic: 'after the sleep' });
  assert.equal(out.error, undefined, out.error);
  assert.match(out.text ?? '', /# Research Report: after the sleep/);
  await assertNewWorker(ext);
});

test('no extension page logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
