/**
 * Every panel feature after the worker sleeps (C7, O3), the matrix's servers half: with the panel
 * open, each feature is used, the worker is stopped without DevTools on it as Chrome stops an idle
 * worker (test/support/worker-sleep.ts), and once it is really gone the same feature is used again
 * from the same panel document and its outcome asserted: tool runner, Activity, import, Test
 * connection, edit, delete, elicitation, an agent call's approval, an MCP App view. The chat and
 * OAuth rows are in worker-sleep-chat.test.ts. One browser launch for the file.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame, Page } from 'puppeteer-core';
import { launchExtension, runToolInPanel, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startAppServer, type AppServer } from '../support/app-servers.js';
import { DETAIL, SETTINGS, clickFresh, openServer, openTool, openView, row, storeServersFromPanel } from '../support/panel-views.js';
import { evaluateInWorker, workerRunning } from '../support/worker-lifecycle.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { panelRequest } from '../support/panel-request.js';
import { agentOutcome, startAgentCall } from '../support/agent-call.js';

let demo: DemoServer;
let app: AppServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  [demo, app] = await Promise.all([startDemoServer({ elicitation: true }), startAppServer('basic-vanillajs')]);
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [
    { id: 'demo', name: 'Demo', url: demo.url },
    { id: 'app', name: 'App', url: app.url },
  ]);
});

after(async () => {
  await ext?.close();
  await Promise.all([demo?.close(), app?.close()]);
});

const sleep = () => sleepWorker(ext, panel);
const calls = (tool: string) => demo.stats.toolCalls.filter((c) => c === tool).length;

interface Stored {
  id: string;
  name: string;
  url: string;
}
const stored = async () =>
  ((await panel.evaluate(`chrome.storage.local.get('mcp_servers').then((r) => r.mcp_servers ?? [])`)) as Stored[]).map((s) => ({
    id: s.id,
    name: s.name,
    url: s.url,
  }));

describe('tool runner', () => {
  it('runs a tool', async () => {
    const r = await runToolInPanel(panel, 'demo', 'echo', { text: 'before sleep' });
    assert.equal(r.text?.trim(), 'echo: before sleep', r.error);
  });

  it('runs a tool after the worker slept, on the same session', async () => {
    const sessions = demo.stats.sessionsOpened;
    await sleep();
    const r = await runToolInPanel(panel, 'demo', 'add', { a: 2, b: 3 });
    assert.equal(r.text?.trim(), 'sum=5', r.error);
    assert.equal(demo.stats.sessionsOpened, sessions, 'the new worker adopted the session');
    await assertNewWorker(ext);
  });
});

const LOG = 'section[data-view="activity"] mcp-activity-log';
const logRows = () => panel.$$eval(`${LOG} >>> .method`, (els) => els.map((e) => e.textContent ?? ''));

describe('Activity', () => {
  it('lists the tool calls', async () => {
    await openView(panel, 'activity');
    await until('tools/call echo and add in the Activity view', async () => {
      const rows = await logRows();
      return rows.includes('tools/call echo') && rows.includes('tools/call add');
    });
  });

  it('lists a tool call made on the adopted session after the worker slept', async () => {
    await sleep();
    const r = await runToolInPanel(panel, 'demo', 'echo', { text: 'logged after sleep' });
    assert.ok(r.text, r.error);
    await openView(panel, 'activity');
    const rows = await until('the call after the sleep in the Activity view', async () => {
      const all = await logRows();
      return all.filter((m) => m === 'tools/call echo').length >= 2 ? all : undefined;
    });
    assert.equal(rows[0], 'tools/call echo', `newest first: ${rows.join(', ')}`);
    const newest = `${LOG} >>> details[data-method="tools/call"]`;
    assert.equal(await textOf(panel, `${newest} .server`), 'Demo');
    await panel.click(`${newest} > summary`);
    assert.match(await textOf(panel, `${newest} pre.request`), /logged after sleep/);
    await assertNewWorker(ext);
  });
});

/** Pastes `text` into the Import view and asks for its preview. */
async function preview(text: string) {
  await openView(panel, 'import');
  await panel.$eval(
    'mcp-import >>> textarea',
    (el, value) => {
      el.value = value;
    },
    text,
  );
  await panel.click('mcp-import >>> button[data-action="preview"]');
}

async function importOne(name: string, url: string) {
  await preview(JSON.stringify({ mcpServers: { [name]: { url } } }));
  await until(`the preview of ${name}`, async () => {
    const problems = await panel.$$eval('mcp-import >>> ul.problems li', (els) => els.map((e) => e.textContent ?? ''));
    if (problems.length > 0) throw new Error(`the preview failed: ${problems.join(' | ')}`);
    return (await panel.$(`mcp-import >>> tbody tr[data-entry="${name}"] [data-status="add"]`)) ?? undefined;
  });
  await panel.click('mcp-import >>> button[data-action="import"]');
  await until('the import result', async () => (await textOf(panel, 'mcp-import >>> [role="status"]')) === 'Imported 1 server.');
  await until(`${name} stored`, async () => (await stored()).some((s) => s.name === name));
}

describe('import', () => {
  it('previews a paste and imports it', async () => {
    await importOne('One', `${demo.url}?entry=one`);
  });

  it('previews and imports after the worker slept', async () => {
    await sleep();
    await importOne('Two', `${demo.url}?entry=two`);
    assert.deepEqual(
      (await stored()).filter((s) => s.name === 'One' || s.name === 'Two').map((s) => s.url),
      [`${demo.url}?entry=one`, `${demo.url}?entry=two`],
    );
    await assertNewWorker(ext);
  });
});

async function testConnection() {
  const pings = demo.stats.methods['ping'] ?? 0;
  await openServer(panel, 'demo');
  await panel.$eval(`${DETAIL} >>> .ping`, (el) => (el.textContent = ''));
  // The detail may be drawn again as the woken worker settles the adopted session: click the current button.
  await clickFresh(panel, `${DETAIL} >>> button[data-action="ping"]`);
  // "Testing…" while it runs; then the latency or "No answer: …".
  const text = await until('the outcome of the test', async () => {
    const t = await textOf(panel, `${DETAIL} >>> .ping`);
    return /^(Answered in|No answer)/.test(t) ? t : undefined;
  });
  assert.match(text, /^Answered in \d+ ms$/);
  assert.equal(demo.stats.methods['ping'], pings + 1, 'the server was pinged once');
}

describe('Test connection', () => {
  it('shows the latency', testConnection);

  it('shows the latency after the worker slept', async () => {
    await sleep();
    await testConnection();
    await assertNewWorker(ext);
  });
});

const SERVER_SETTINGS = 'mcp-server-detail >>> mcp-server-settings';

async function rename(serverId: string, name: string) {
  await openServer(panel, serverId);
  const section = 'mcp-server-detail >>> details[data-section="settings"]';
  if (!(await panel.$eval(section, (el) => el.open))) await panel.click(`${section} > summary`);
  await waitFor(panel, `${SERVER_SETTINGS} >>> form:not([hidden])`);
  await panel.$eval(`${SERVER_SETTINGS} >>> input[name="name"]`, (el) => (el.value = ''));
  await panel.type(`${SERVER_SETTINGS} >>> input[name="name"]`, name);
  await panel.click(`${SERVER_SETTINGS} >>> button[name="save"]`);
  await until('the save', async () => (await textOf(panel, `${SERVER_SETTINGS} >>> .message`)) === 'Saved.');
  assert.equal((await stored()).find((s) => s.id === serverId)?.name, name);
  await openView(panel, 'servers');
  await until('the row to show the new name', async () => (await textOf(panel, `${row(serverId)} >>> .name`)) === name);
}

describe('edit', () => {
  it('saves a changed setting', () => rename('demo', 'Demo renamed'));

  it('saves a changed setting after the worker slept', async () => {
    await sleep();
    await rename('demo', 'Demo renamed again');
    await assertNewWorker(ext);
  });
});

async function remove(name: string) {
  const id = (await stored()).find((s) => s.name === name)!.id;
  await openServer(panel, id);
  const section = 'mcp-server-detail >>> details[data-section="settings"]';
  // A state push after the worker woke may re-render what is clicked: each click re-finds it.
  await until('the Settings section open', async () => {
    if (await panel.$eval(section, (el) => el.open)) return true;
    await clickFresh(panel, `${section} > summary`);
    return undefined;
  });
  await clickFresh(panel, `${SETTINGS} >>> button[data-action="delete"]`);
  await clickFresh(panel, `${SETTINGS} >>> button[data-action="confirm-delete"]`);
  await until(`${name} removed`, async () => !(await stored()).some((s) => s.id === id));
  await openView(panel, 'servers');
  await until('its row to go', async () => (await panel.$(row(id))) === null);
}

describe('delete', () => {
  it('deletes a server', () => remove('One'));

  it('deletes a server after the worker slept', async () => {
    await sleep();
    await remove('Two');
    assert.deepEqual(
      (await stored()).map((s) => s.id),
      ['demo', 'app'],
    );
    await assertNewWorker(ext);
  });
});

const CARD = 'mcp-elicitation-card';

/** Runs confirm_booking from its runner and answers its question from the card with two guests. */
async function book() {
  await openTool(panel, 'demo', 'confirm_booking');
  await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
  await panel.click('mcp-tool-runner >>> button[type="submit"]');
  await waitFor(panel, `${CARD}[status="pending"] >>> button[data-action="accept"]`, 20_000);
  assert.equal(await textOf(panel, `${CARD} >>> .message`), 'Confirm your booking in Lisbon?');
  await panel.evaluate((card) => {
    const root = document.querySelector(card)!.shadowRoot!;
    const form = root.querySelector('mcp-schema-form')!.shadowRoot!;
    const input = form.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['guests'])}']`)!;
    input.value = '2';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    root.querySelector<HTMLButtonElement>('button[data-action="accept"]')!.click();
  }, CARD);
  const text = await until('the booking result', () =>
    panel.$eval('mcp-tool-runner >>> .output', (el) => el.querySelector('pre.text, p.error')?.textContent ?? undefined),
  );
  assert.match(text, /^booking accept: \{"guests":2/);
  assert.equal(demo.stats.elicitations?.at(-1)?.action, 'accept');
}

describe('elicitation', () => {
  it('answers a server question in the panel', book);

  it('answers a server question in the panel after the worker slept', async () => {
    const answered = demo.stats.elicitations?.length ?? 0;
    await sleep();
    await book();
    assert.equal(demo.stats.elicitations?.length, answered + 1);
    await assertNewWorker(ext);
  });
});

/** An agent's call in the worker (README "AgentTool"); its outcome lands in a worker global. */
async function agentCallApproved(text: string) {
  // An agent runs in the worker: whatever starts it wakes the worker (here the panel asking for its state).
  await panelRequest(panel, 'panel:get-state', {});
  await until(
    'a running worker with the agent tools',
    async () =>
      (await workerRunning(ext)) &&
      (await evaluateInWorker<number>(ext, 'globalThis.remoteMcp.agentTools.list().length').catch(() => 0)) > 0,
  );
  const before = calls('echo');
  await startAgentCall(ext, 'mcp__demo__echo', { text }, '__agent');
  await clickFresh(panel, 'mcp-approval-card >>> button[data-decision="once"]');
  const outcome = await agentOutcome(ext, '__agent');
  assert.equal(outcome.ok, true, outcome.message);
  // The agent gets the result fenced as untrusted data (T4): the echo is inside the fence.
  assert.match(outcome.text ?? '', new RegExp(`\n<<mcp-untrusted-[0-9a-f]{32}>>\necho: ${text}\n<</mcp-untrusted-`));
  assert.equal(calls('echo'), before + 1, 'the approved call ran once');
  await until('the card to go', async () => (await panel.$('mcp-approval-card')) === null);
}

describe('approvals', () => {
  it("approves an agent call's card", () => agentCallApproved('approved before sleep'));

  it("approves an agent call's card after the worker slept", async () => {
    await sleep();
    await agentCallApproved('approved after sleep');
    await assertNewWorker(ext);
  });
});

const APP = 'mcp-tool-runner >>> mcp-result-view >>> mcp-app-view:not([hidden])';

async function viewFrame(): Promise<Frame> {
  return until('the view frame', async () =>
    panel.frames().find((f) => f.url() === 'about:srcdoc' && f.parentFrame()?.url().endsWith('/app-sandbox.html')),
  );
}

const viewTime = (frame: Frame) =>
  until('a time in the view', async () => {
    const text = await frame.$eval('#server-time', (e) => e.textContent ?? '').catch(() => '');
    return /^\d{4}-\d\d-\d\dT/.test(text) ? text : undefined;
  });

/** The view calls its tool: the approval card is approved, and the new time reaches the view. */
async function viewCallsItsTool(frame: Frame) {
  const first = await viewTime(frame);
  await frame.click('#get-time-btn');
  await clickFresh(panel, 'mcp-approval-card >>> button[data-decision="once"]');
  const second = await until('a new time in the view', async () => {
    const text = await frame.$eval('#server-time', (e) => e.textContent ?? '');
    return text !== first && /^\d{4}-/.test(text) ? text : undefined;
  });
  assert.ok(second > first, `${second} after ${first}`);
}

describe('MCP App view', () => {
  it('renders a tool’s view, which calls its tool', async () => {
    await openTool(panel, 'app', 'get-time');
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    await waitFor(panel, `${APP} >>> iframe`, 20_000);
    await viewCallsItsTool(await viewFrame());
  });

  it('the open view calls its tool after the worker slept, and a new run renders a view again', async () => {
    const frame = await viewFrame();
    await sleep();
    await viewCallsItsTool(frame);
    await assertNewWorker(ext);
    await sleep();
    await panel.$eval('mcp-tool-runner >>> .output', (el) => el.replaceChildren());
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    await waitFor(panel, `${APP} >>> iframe`, 20_000);
    const fresh = await until('the new view frame', async () => {
      const f = await viewFrame();
      return f !== frame ? f : undefined;
    });
    await viewTime(fresh);
    await assertNewWorker(ext);
  });
});

describe('no errors', () => {
  it('no extension context logged an error or a CSP violation', () => {
    assert.deepEqual(ext.errors, []);
  });
});
