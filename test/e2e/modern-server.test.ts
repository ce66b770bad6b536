/**
 * A server of the 2026-07-28 era through the built extension (SPEC R1–R4): the official SDK v2
 * server package in its modern-only stateless mode (`legacy: 'reject'`, it refuses `initialize`).
 * The guided add probes it and names it; it connects without `initialize` or a session; the detail
 * says which revision it speaks; a tool runs; a tool whose `x-mcp-header` annotation is invalid is
 * left out and the mirrored header reaches the server; a question comes back as `input_required`
 * and gets the usual card; a tool added later arrives through `subscriptions/listen`. Then the
 * same after the worker sleeps: the offscreen document kept the connection and its listen stream.
 * A call the server answers with a task (the Tasks extension, R6; spoken by the test server's
 * stand-in) runs to its report, asks its question through the card, is listed on the server's
 * page, and goes on while the worker is stopped.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startModernServer, type ModernServer } from '../support/modern-mcp.js';
import { DETAIL, DETAIL_TOOLS, nudgePanel, openServer, openTool } from '../support/panel-views.js';
import { stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';

let ext: ExtensionBrowser;
let panel: Page;
let server: ModernServer;

const ID = 'modern';
const CARD = 'mcp-elicitation-card[status="pending"]';

before(async () => {
  server = await startModernServer({ legacy: 'reject' });
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await addServerInPanel(panel, { name: 'Modern', url: server.url, probe: true });
  await waitFor(panel, `mcp-server-list >>> mcp-server-card[server-id="${ID}"] >>> mcp-status-badge[status="ready"]`, 20_000);
});

after(async () => {
  await ext?.close();
  await server?.close();
});

async function run(tool: string, args: Record<string, unknown>) {
  await openTool(panel, ID, tool);
  await (await waitFor(panel, 'mcp-tool-runner >>> select')).select(JSON.stringify([ID, tool]));
  await panel.$eval('mcp-tool-runner >>> textarea', (el, value) => (el.value = value), JSON.stringify(args));
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
}

const runnerText = () =>
  until('the tool result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text, p.error')?.textContent ?? undefined),
  );

async function detailTools(): Promise<string[]> {
  await openServer(panel, ID);
  return panel.$eval(DETAIL_TOOLS, (el) =>
    [...(el.shadowRoot?.querySelectorAll('[data-tool]') ?? [])].map((n) => n.getAttribute('data-tool') ?? ''),
  );
}

/** Fills the pending card's one text field and sends it. */
async function answerField(field: string, value: string) {
  await waitFor(panel, `${CARD} >>> mcp-schema-form`, 20_000);
  await panel.evaluate(
    (card, name, text) => {
      const root = document.querySelector(card)!.shadowRoot!;
      const form = root.querySelector('mcp-schema-form')!.shadowRoot!;
      const input = form.querySelector<HTMLInputElement>(`[name='${JSON.stringify([name])}']`)!;
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      root.querySelector<HTMLButtonElement>('button[data-action="accept"]')!.click();
    },
    CARD,
    field,
    value,
  );
}

const answerName = (name: string) => answerField('name', name);

test('R1: a modern-only server is added, connects without initialize or a session, and the detail names its revision', async () => {
  const methods = server.seen.map((r) => r.method);
  assert.ok(!methods.slice(methods.indexOf('server/discover')).includes('initialize'), methods.join(', '));
  assert.ok(server.seen.every((r) => r.headers['mcp-session-id'] === undefined));
  await openServer(panel, ID);
  const version = await until('the revision on the detail', () =>
    panel.$eval(`${DETAIL} >>> [data-part="protocol-version"]`, (el) => el.textContent || undefined),
  );
  assert.equal(version, 'MCP 2026-07-28 · stateless');
});

test('R2: tools run; the x-mcp-header argument reaches the server as a header; an invalid annotation keeps its tool out', async () => {
  const tools = await until('the tools', async () => {
    const names = await detailTools();
    return names.includes('regional') ? names : undefined;
  });
  assert.ok(tools.includes('echo'));
  assert.ok(!tools.includes('broken-header'), tools.join(', '));
  await run('echo', { text: 'hello' });
  assert.equal(await runnerText(), 'echo: hello');
  await run('regional', { region: 'eu-west' });
  assert.equal(await runnerText(), 'region eu-west via header eu-west');
});

test('R4: a question comes back as input_required, gets the card, and the answer completes the call', async () => {
  await run('ask-name', {});
  await answerName('Ada');
  assert.equal(await runnerText(), 'Hello, Ada!');
  assert.deepEqual(server.statesEchoed.at(-1), server.statesSent.at(-1));
});

test('R3: a tool the server adds arrives through subscriptions/listen', async () => {
  server.addTool('late-tool');
  await until('the new tool in the detail', async () => ((await detailTools()).includes('late-tool') ? true : undefined));
});

test('R1–R4 after the worker sleeps: calls, questions and list changes still work', async () => {
  await sleepWorker(ext, panel);
  await run('echo', { text: 'after sleep' });
  assert.equal(await runnerText(), 'echo: after sleep');
  await run('ask-name', {});
  await answerName('Grace');
  assert.equal(await runnerText(), 'Hello, Grace!');
  server.addTool('later-tool');
  await until('the tool added after the sleep', async () => ((await detailTools()).includes('later-tool') ? true : undefined));
  await openServer(panel, ID);
  assert.equal(await panel.$eval(`${DETAIL} >>> [data-part="protocol-version"]`, (el) => el.textContent), 'MCP 2026-07-28 · stateless');
  await assertNewWorker(ext);
});

const TASKS = 'mcp-server-detail >>> mcp-task-list';
const taskRows = () =>
  panel.$$eval(`${TASKS} >>> li`, (rows) =>
    rows.map((r) => ({
      state: r.getAttribute('data-state') ?? '',
      result: r.querySelector('pre')?.textContent ?? '',
      text: r.textContent ?? '',
    })),
  );

test('R6: a call answered with a task runs to its report through tasks/get; its question gets the card and goes back with tasks/update', async () => {
  await run('research', { topic: 'tides' });
  assert.equal(await runnerText(), 'Report on tides');
  await run('research', { topic: 'currents', ask: true });
  await answerField('angle', 'economic');
  assert.equal(await runnerText(), 'Report on currents from the economic angle');
  const update = server.seen.find((r) => r.method === 'tasks/update');
  assert.equal(update?.headers['mcp-name'], [...server.tasks.values()].at(-1)!.taskId, 'Mcp-Name names the task');
  await openServer(panel, ID);
  const rows = await until('both tasks on the server’s page', async () => {
    const list = await taskRows();
    return list.filter((r) => r.state === 'completed').length >= 2 ? list : undefined;
  });
  assert.ok(rows.some((r) => r.result === 'Report on tides'));
});

test('R6: a 2026 task goes on while the worker is stopped; after the wake its report is listed', async () => {
  await run('research', { topic: 'the stop' });
  await openServer(panel, ID);
  await until('the task running in the list', async () => ((await taskRows()).some((r) => r.state === 'working') ? true : undefined));
  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)));
  await until('a worker woken by the task’s end', () => workerRunning(ext), 20_000);
  await nudgePanel(panel);
  await until('the report in the list', async () => ((await taskRows()).some((r) => r.result === 'Report on the stop') ? true : undefined));
  await assertNewWorker(ext);
});

test('no extension page logged an error or a CSP violation', () => {
  assert.deepEqual(
    ext.errors.filter((e) => !/Failed to load resource/.test(e)),
    [],
  );
});
