/**
 * Tools that run only as tasks (MCP 2025-11-25 tasks) on the published reference server,
 * `@modelcontextprotocol/server-everything`: its `simulate-research-query` declares
 * `execution.taskSupport: "required"`. It is offered, runs from the panel's tool runner and from
 * an agent (after the approval card) as a task — created by `tools/call`, followed with
 * `tasks/get`, its result from `tasks/result` — asks its question through the same elicitation
 * card while the task waits for input, and still runs after the worker sleeps. The server's detail
 * lists its tasks (R6), which the offscreen document follows to their end also while the worker is
 * stopped or the panel closed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, runToolInPanel, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { freePort, startEverything, stopEverything } from '../support/server-everything.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { evaluateInWorker, stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { agentOutcome, startAgentCall } from '../support/agent-call.js';
import { clickFresh, nudgePanel, openServer, openTool } from '../support/panel-views.js';

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

const TASKS = 'mcp-server-detail >>> mcp-task-list';

/** The task rows of the server's detail: operation, state and the text a person reads. */
async function taskRows(page: Page) {
  return page.$$eval(`${TASKS} >>> li`, (rows) =>
    rows.map((r) => ({
      operation: r.getAttribute('data-operation') ?? '',
      state: r.getAttribute('data-state') ?? '',
      text: r.textContent ?? '',
      result: r.querySelector('pre')?.textContent ?? '',
    })),
  );
}

/** Starts the task tool from the runner and returns without waiting for its result. */
async function startInRunner(page: Page, topic: string, ambiguous = false) {
  await openTool(page, 'everything', TOOL);
  const select = await waitFor(page, 'mcp-tool-runner >>> select');
  await select.select(JSON.stringify(['everything', TOOL]));
  await page.$eval('mcp-tool-runner >>> textarea', (el, value) => void (el.value = value), JSON.stringify({ topic, ambiguous }));
  await page.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await page.click('mcp-tool-runner >>> button[type="submit"]');
}

/** The server detail's task whose text names `topic`… by its result, or the newest running one. */
async function taskOf(page: Page, want: (row: Awaited<ReturnType<typeof taskRows>>[number]) => boolean, what: string, ms = 20_000) {
  return until(what, async () => (await taskRows(page)).find(want), ms);
}

test('R6: the server’s detail lists the tasks it ran, with the state in words and the report under Result', async () => {
  await openServer(panel, 'everything');
  const done = await taskOf(panel, (r) => /Research Report: tidal power/.test(r.result), 'the runner’s task in the list');
  assert.equal(done.state, 'completed');
  assert.match(done.text, /simulate-research-query/);
  assert.match(done.text, /Completed/);
  assert.match(done.text, /\d+ s/, 'how long it ran');
});

test('R6: Cancel in the list cancels a running task on the server', async () => {
  await startInRunner(panel, 'cancel me');
  await openServer(panel, 'everything');
  const running = await taskOf(panel, (r) => r.state === 'working' && /Gathering|Analyzing/.test(r.text), 'the task running in the list');
  await panel.click(`${TASKS} >>> li[data-operation="${running.operation}"] button`);
  const ended = await taskOf(panel, (r) => r.operation === running.operation && r.state !== 'working', 'the task to end');
  assert.equal(ended.state, 'cancelled', ended.text);
  assert.match(ended.text, /Cancelled/);
});

test('R6: a task goes on while the worker is stopped; after the wake the list shows its end and its report', async () => {
  await startInRunner(panel, 'through the stop');
  await openServer(panel, 'everything');
  const running = await taskOf(panel, (r) => r.state === 'working', 'the task running in the list');
  await sleepWorker(ext, panel);
  // The task's four one-second stages end on their own; the document wakes a worker to say so.
  await until('a worker woken by the task’s end', () => workerRunning(ext), 20_000);
  await nudgePanel(panel);
  const done = await taskOf(
    panel,
    (r) => r.operation === running.operation && r.state === 'completed',
    'the task completed in the list',
    20_000,
  );
  assert.match(done.result, /# Research Report: through the stop/);
  await assertNewWorker(ext);
});

test('R6: a task that asks while the worker is stopped wakes a worker; the card shows and the answer reaches the report', async () => {
  await startInRunner(panel, 'python', true);
  await openServer(panel, 'everything');
  const running = await taskOf(panel, (r) => r.state === 'working', 'the task running in the list');
  // Stopped at once (the question comes at the third one-second stage), as Chrome may stop it.
  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)));
  await until('a worker woken by the task’s question', () => workerRunning(ext), 20_000);
  await nudgePanel(panel);
  const card = 'mcp-elicitation-card[status="pending"]';
  await waitFor(panel, card, 20_000);
  const choice = await panel.$eval(`${card} >>> select`, (select) => {
    const option = [...select.options].find((o) => o.value !== '')!;
    select.value = option.value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return option.value;
  });
  await panel.click(`${card} >>> button[data-action="accept"]`);
  const done = await taskOf(panel, (r) => r.operation === running.operation && r.state === 'completed', 'the task completed', 20_000);
  assert.match(done.result, new RegExp(`Clarification\\*\\*: ${choice}`));
});

test('R6: a task started by an agent goes on while the panel is closed; the reopened panel lists it', async () => {
  const name = (await agentTools()).find((t) => t.toolName === TOOL)!.name;
  await startAgentCall(ext, name, { topic: 'closed panel' }, '__closed');
  await clickFresh(panel, 'mcp-approval-card >>> button[data-decision="once"]');
  await panel.close();
  const r = await agentOutcome(ext, '__closed', 30_000);
  assert.equal(r.ok, true, r.message);
  panel = await ext.openPanel();
  await openServer(panel, 'everything');
  const done = await taskOf(panel, (row) => /Research Report: closed panel/.test(row.result), 'the agent’s task in the reopened panel');
  assert.equal(done.state, 'completed');
});

test('no extension page logged an error or a CSP violation', () => {
  assert.deepEqual(ext.errors, []);
});
