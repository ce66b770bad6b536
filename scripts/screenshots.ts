/**
 * Screenshots of every view of the side panel for a person to look at (`npm run screenshots`):
 * the built `dist/` in Chromium against local demo servers, in English and Simplified Chinese, at
 * 320 and 420 px, light and dark. Servers: a ready one with a catalog warning and a long tool
 * name, one with a very long name and URL, one that cannot be reached, and one switched off.
 * Views: the server list, each server's detail (every section open), a tool's view, Add, Import,
 * Tools, Chat and Activity; then fixture rows for states hard to reach on demand (connecting for
 * 12 s, needs authorization, stale catalog), and the chat's states against a scripted provider
 * (a tool step waiting for approval, the conversation after it, a provider error, the history, a
 * tool step with its MCP App view, waiting for the model, a retry's countdown, the history searched,
 * a message being edited and the edited turn, the chat's own system prompt form, a stalled provider).
 * `--chat` shoots only the chat states. Writes PNGs to test-output/screenshots/views/.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { addServerInPanel, launchExtension, until, waitFor } from '../test/support/browser.js';
import { startDemoServer } from '../test/support/demo-server.js';
import { startProviderServer } from '../test/support/provider-server.js';
import { startAppServer } from '../test/support/app-servers.js';
import { clickFresh, openServer, openTool, openView, row } from '../test/support/panel-views.js';

const OUT = 'test-output/screenshots/views';
const onlyChat = process.argv.includes('--chat');
const CHAT = 'mcp-chat-view >>> ';
const LONG = 'Atlassian Confluence (work account) — production tenant';

/** Fixture details for states that are hard to reach: shown in the detail view in place of a real server. */
const FIXTURES = `[
  { id: 'fx-connecting', name: 'Slow server', status: 'connecting', connectingSince: Date.now() - 12000 },
  { id: 'fx-auth', name: 'Added without sign-in', status: 'needs-auth', authKind: 'oauth',
    reason: { kind: 'auth', message: 'https://slow.example asks for OAuth sign-in (HTTP 401 with a Bearer challenge).', action: 'authorize' } },
  { id: 'fx-stale', name: 'Lazy server', status: 'disconnected', connectOnStartup: false, staleSince: Date.now() - 3600000,
    tools: [{ name: 'echo', description: 'Returns the text it was given.', inputSchema: { type: 'object' } }] },
].map((o) => ({ url: 'https://slow.example/mcp', authKind: 'none', enabled: true, connectOnStartup: true, tools: [], prompts: [],
  resources: [], resourceTemplates: [], disabledTools: [], ...o }))`;

/** One task of the demo server in each state, for the task list's screenshot. */
const TASK_FIXTURES = `[
  { operationId: 'fx1', tool: 'simulate-research-query', state: 'completed', startedAt: Date.now() - 65000, endedAt: Date.now() - 61000,
    preview: '# Research Report: tidal power\\n\\n## Synthesis\\nThis research query was processed through 4 stages.' },
  { operationId: 'fx2', tool: 'export_everything_to_a_very_long_file_name_that_wraps', state: 'failed', startedAt: Date.now() - 30000,
    endedAt: Date.now() - 20000, message: 'The task failed: the disk is full.' },
  { operationId: 'fx3', tool: 'slow', state: 'cancelled', startedAt: Date.now() - 9000, endedAt: Date.now() - 8000, message: 'Cancelled; the server was told to stop.' },
  { operationId: 'fx4', tool: 'simulate-research-query', state: 'input_required', startedAt: Date.now() - 12000,
    message: 'Found multiple interpretations for "python". Requesting clarification...' },
  { operationId: 'fx5', tool: 'simulate-research-query', state: 'working', taskId: 't-5', startedAt: Date.now() - 3000, message: 'Gathering sources...' },
].map((t) => ({ serverId: 'demo', ...t }))`;

async function shootAll(panel: Page, name: string, written: string[]) {
  for (const width of [320, 420]) {
    for (const scheme of ['light', 'dark'] as const) {
      await panel.setViewport({ width, height: 800 });
      await panel.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      await new Promise((r) => setTimeout(r, 150));
      const path = `${OUT}/${name}-${width}-${scheme}.png`;
      await panel.screenshot({ path, fullPage: true });
      written.push(path);
    }
  }
  await panel.setViewport({ width: 420, height: 800 });
}

async function openSections(panel: Page) {
  for (const section of ['prompts', 'resources', 'settings', 'log'])
    await panel.$eval(`mcp-server-detail >>> details[data-section="${section}"]`, (d) => (d.open = true));
}

/** The chat with a provider: a tool step waiting for approval, the answer after it, an error, the history. */
async function shootChat(panel: Page, locale: string, written: string[]) {
  const provider = await startProviderServer();
  try {
    await openView(panel, 'chat');
    await panel.type(`${CHAT}input[name="base-url"]`, provider.openAiBase);
    await panel.type(`${CHAT}input[name="model"]`, 'qwen2.5:7b-instruct');
    await panel.click(`${CHAT}form.provider button[type="submit"]`);
    await until('the provider form to close', async () => !(await panel.$(`${CHAT}form.provider`)));
    const ask = async (text: string) => {
      await panel.type(`${CHAT}mcp-composer >>> textarea`, text);
      await panel.keyboard.press('Enter');
    };
    provider.script(
      {
        kind: 'stream',
        text: ['I will look that up with the **echo** tool.'],
        toolCalls: [{ id: 'c1', name: 'mcp__demo__echo', arguments: '{"text":"What changed in the release notes?"}' }],
        usage: { input: 812, output: 41 },
      },
      {
        kind: 'stream',
        text: [
          'The server answered:\n\n',
          '- **echo:** What changed in the release notes?\n- a link: [release notes](https://example.com/notes)\n\n',
          '```json\n{ "ok": true }\n```',
        ],
        usage: { input: 1024, output: 96 },
      },
    );
    await ask('What changed in the release notes? Use the demo server.');
    await waitFor(panel, `${CHAT}mcp-approval-card >>> button[data-decision="once"]`);
    await shootAll(panel, `${locale}-10-chat-approval`, written);
    await panel.click(`${CHAT}mcp-approval-card >>> button[data-decision="once"]`);
    await until(
      'the answer',
      async () => (await panel.$$eval(`${CHAT}li.assistant`, (els) => els.at(-1)?.textContent ?? '')).includes('ok') || undefined,
    );
    await panel.$eval(`${CHAT}details.step`, (d) => (d.open = true));
    await shootAll(panel, `${locale}-11-chat-conversation`, written);
    // Not a 429: that one is retried with a countdown now (T1, state 16); a refused key ends the turn at once.
    provider.script({
      kind: 'status',
      status: 401,
      body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } },
    });
    await ask('And the one before?');
    await waitFor(panel, `${CHAT}li.provider-error`);
    await shootAll(panel, `${locale}-12-chat-error`, written);
    for (const title of ['Summarize the wiki page', 'Plan the next sprint']) {
      await clickFresh(panel, `${CHAT}button.new`);
      provider.script({ kind: 'stream', text: ['Done.'] });
      await ask(title);
      await until('the answer', async () => (await panel.$$eval(`${CHAT}li.assistant`, (els) => els.length)) > 0 || undefined);
    }
    await clickFresh(panel, `${CHAT}button.history`);
    await shootAll(panel, `${locale}-13-chat-history`, written);
    await panel.type(`${CHAT}input[name="chat-search"]`, 'sprint');
    await waitFor(panel, `${CHAT}.history-list button.open-chat`);
    await shootAll(panel, `${locale}-13-chat-history-search`, written);
    await panel.keyboard.press('Escape');
    await shootStates(panel, locale, written, provider, ask);
    await shootPromptAndStall(panel, locale, written, provider, ask);
    // T2: the tool picker open, with the estimate; then as it shows above the provider's tool limit.
    await panel.$eval(`${CHAT}details.tools`, (d) => (d.open = true));
    await waitFor(panel, `${CHAT}details.tools .tool-budget`);
    await shootAll(panel, `${locale}-19-chat-tools`, written);
    await panel.$eval(`${CHAT}mcp-chat-tools`, (t) =>
      Object.assign(t, {
        budget: { selected: 1011, offered: 1, bytes: 900, tokens: 225, limit: 128, search: 'over-limit', kind: 'openai' },
      }),
    );
    await waitFor(panel, `${CHAT}.tool-limit:not([hidden])`);
    await shootAll(panel, `${locale}-20-chat-tool-limit`, written);
    await panel.$eval(`${CHAT}details.tools`, (d) => (d.open = false));
    // A tool with an MCP App view called by the model: the view under the chat's step.
    await clickFresh(panel, `${CHAT}button.new`);
    provider.script(
      {
        kind: 'stream',
        text: ['Let me check the server clock.'],
        toolCalls: [{ id: 'c2', name: 'mcp__basic__get-time', arguments: '{}' }],
      },
      { kind: 'stream', text: ['The view above shows the server time.'] },
    );
    await ask('What time is it on the server?');
    await clickFresh(panel, `${CHAT}mcp-approval-card >>> button[data-decision="once"]`);
    // Other views (the Tools view's runner) may still hold frames: wait for the one showing a time.
    await until('the time in the chat step’s view', async () => {
      for (const f of panel.frames().filter((f) => f.url() === 'about:srcdoc'))
        if (/^\d{4}-/.test(await f.$eval('#server-time', (e) => e.textContent ?? '').catch(() => ''))) return true;
      return undefined;
    });
    await until(
      'the answer',
      async () => (await panel.$$eval(`${CHAT}li.assistant`, (els) => els.at(-1)?.textContent ?? '')).includes('server time') || undefined,
    );
    await shootAll(panel, `${locale}-14-chat-app-view`, written);
  } finally {
    await provider.close();
  }
}

/** T1/T5 states: waiting for the model, a retry's countdown (a fixture: the worker sets it), an edit and the edited turn. */
async function shootStates(
  panel: Page,
  locale: string,
  written: string[],
  provider: Awaited<ReturnType<typeof startProviderServer>>,
  ask: (text: string) => Promise<void>,
) {
  await clickFresh(panel, `${CHAT}button.new`);
  provider.script({ kind: 'stream', text: ['never'], hangAfter: 0 });
  await ask('Summarize the open pull requests.');
  await waitFor(panel, `${CHAT}.phase[data-phase="waiting-model"]`);
  await shootAll(panel, `${locale}-15-chat-waiting-model`, written);
  await panel.evaluate(`(() => {
    const v = document.querySelector('mcp-chat-view');
    v.chat = { ...v.chat, phase: { kind: 'retrying', until: Date.now() + 60000, attempt: 2, status: 429 } };
  })()`);
  await waitFor(panel, `${CHAT}.phase[data-phase="retrying"]`);
  await shootAll(panel, `${locale}-16-chat-retrying`, written);
  await clickFresh(panel, `${CHAT}button.cancel-retry`);
  await until('the run to stop', async () => (await panel.$eval(`${CHAT}button.stop`, (b) => (b as HTMLElement).hidden)) || undefined);
  await clickFresh(panel, `${CHAT}li.user button.edit-message`);
  await waitFor(panel, `${CHAT}form.edit textarea`);
  await panel.type(`${CHAT}form.edit textarea`, ' Only the ones from this week.');
  await shootAll(panel, `${locale}-17-chat-editing`, written);
  provider.script({ kind: 'stream', text: ['Two pull requests were opened this week.'], usage: { input: 300, output: 12 } });
  await clickFresh(panel, `${CHAT}form.edit button.resend`);
  await waitFor(panel, `${CHAT}li.user .edited`);
  await until(
    'the answer',
    async () => (await panel.$$eval(`${CHAT}li.assistant`, (els) => els.at(-1)?.textContent ?? '')).includes('this week') || undefined,
  );
  await shootAll(panel, `${locale}-18-chat-edited`, written);
}

/** T5: the chat's own system prompt form; T1: a provider that sends its headers and then nothing (a 2 s wait set in the settings). */
async function shootPromptAndStall(
  panel: Page,
  locale: string,
  written: string[],
  provider: Awaited<ReturnType<typeof startProviderServer>>,
  ask: (text: string) => Promise<void>,
) {
  await panel.$eval(`${CHAT}.more`, (d) => ((d as HTMLDetailsElement).open = true));
  await clickFresh(panel, `${CHAT}button.system-prompt`);
  await waitFor(panel, `${CHAT}form.system-prompt textarea`);
  await panel.type(`${CHAT}form.system-prompt textarea`, 'Answer in short bullet points and name the server each fact came from.');
  await shootAll(panel, `${locale}-21-chat-system-prompt`, written);
  await clickFresh(panel, `${CHAT}form.system-prompt button.save`);
  await until('the prompt form to close', async () => !(await panel.$(`${CHAT}form.system-prompt`)));
  await clickFresh(panel, `${CHAT}button.settings`);
  await panel.$eval(`${CHAT}input[name="first-byte-timeout"]`, (i) => (i.value = '2'));
  await panel.click(`${CHAT}form.provider button[type="submit"]`);
  await until('the provider form to close', async () => !(await panel.$(`${CHAT}form.provider`)));
  provider.script({ kind: 'stall-after-headers' });
  await ask('And the closed ones?');
  await waitFor(panel, `${CHAT}li.provider-error[data-kind="timeout"]`);
  await until('the run to end', async () => (await panel.$eval(`${CHAT}button.stop`, (b) => (b as HTMLElement).hidden)) || undefined);
  await shootAll(panel, `${locale}-22-chat-stall`, written);
}

async function shoot(locale: 'en' | 'zh_CN'): Promise<string[]> {
  const good = await startDemoServer({ name: 'demo' });
  good.addTool('confluence_search_pages_by_label_space_and_last_modified_date');
  const [basic, budget] = await Promise.all([startAppServer('basic-vanillajs'), startAppServer('budget-allocator')]);
  const ext = await launchExtension({ locale });
  const written: string[] = [];
  try {
    const panel = await ext.openPanel();
    if (onlyChat) {
      await addServerInPanel(panel, { name: 'Demo', url: good.url });
      await addServerInPanel(panel, { name: 'Basic', url: basic.url });
      for (const id of ['demo', 'basic']) await waitFor(panel, `${row(id)} >>> mcp-status-badge[status="ready"]`, 20_000);
      await openView(panel, 'chat');
      await shootAll(panel, `${locale}-08-chat`, written);
      await shootChat(panel, locale, written);
      return written;
    }
    await shootAll(panel, `${locale}-01-empty`, written);
    await openView(panel, 'add');
    await shootAll(panel, `${locale}-02-add`, written);
    await addServerInPanel(panel, { name: 'Demo', url: good.url });
    await waitFor(panel, `${row('demo')} >>> mcp-status-badge[status="ready"]`, 20_000);
    good.addTool('not a valid tool name!');
    await addServerInPanel(panel, { name: LONG, url: `${good.url}?tenant=${'production-eu-west-1-'.repeat(6)}` });
    await addServerInPanel(panel, { name: 'Unreachable', url: 'http://127.0.0.1:9/mcp' });
    await addServerInPanel(panel, { name: 'Switched off', url: 'http://127.0.0.1:9/off' });
    await until('four rows', async () => (await panel.$$(row())).length === 4);
    await until('the unreachable row settles', async () => panel.$(`${row()} >>> mcp-status-badge[status="error"]`));
    await openView(panel, 'servers');
    await panel.click(`${row('switched-off')} >>> [role="switch"]`);
    await until('the switched-off row', async () => panel.$(`${row('switched-off')} >>> mcp-status-badge[disabled]`));
    await openView(panel, 'servers');
    await shootAll(panel, `${locale}-03-servers`, written);
    await openServer(panel, 'demo');
    await until(
      'the catalog warning',
      async () => panel.$('mcp-server-detail >>> mcp-server-card >>> .warnings:not([hidden])'),
      20_000,
    ).catch(() => undefined);
    await openSections(panel);
    await shootAll(panel, `${locale}-04-detail-ready`, written);
    for (const id of ['unreachable', 'switched-off']) {
      await openServer(panel, id);
      await shootAll(panel, `${locale}-05-detail-${id}`, written);
    }
    const longId = await panel.$$eval('mcp-server-list >>> mcp-server-card', (cards) => cards[1]?.getAttribute('server-id') ?? '');
    await openServer(panel, longId);
    await shootAll(panel, `${locale}-06-detail-long`, written);
    await openTool(panel, 'demo', 'echo');
    await shootAll(panel, `${locale}-07-tool`, written);
    for (const view of ['import', 'tools', 'chat', 'activity'] as const) {
      await openView(panel, view);
      await shootAll(panel, `${locale}-08-${view}`, written);
    }
    const fixtures = (await panel.evaluate(`${FIXTURES}.map((s) => s.id)`)) as string[];
    for (const id of fixtures) {
      await openServer(panel, 'demo');
      await panel.evaluate(`(() => {
        const d = document.querySelector('mcp-server-detail');
        d.addEventListener('mcp-server-action', (e) => e.stopPropagation(), { once: true });
        d.server = ${FIXTURES}.find((s) => s.id === '${id}');
      })()`);
      await new Promise((r) => setTimeout(r, 100));
      await shootAll(panel, `${locale}-09-state-${id}`, written);
    }
    // The task list (R6) with a task in every state, its result opened.
    await openServer(panel, 'demo');
    await panel.evaluate(`(() => {
      const d = document.querySelector('mcp-server-detail');
      d.tasks = ${TASK_FIXTURES};
      d.shadowRoot.querySelector('details[data-section="tasks"]').scrollIntoView();
    })()`);
    await panel.$eval('mcp-server-detail >>> mcp-task-list >>> details.result', (d) => (d.open = true));
    await shootAll(panel, `${locale}-09-state-tasks`, written);
    await panel.evaluate(`document.querySelector('mcp-server-detail').tasks = []`);
    // MCP App views (section Q): a published example's view under its result, the approval its
    // call back asks for, and a chart view inline and filling the panel.
    await addServerInPanel(panel, { name: 'Basic', url: basic.url });
    await addServerInPanel(panel, { name: 'Budget', url: budget.url });
    for (const id of ['basic', 'budget']) await waitFor(panel, `${row(id)} >>> mcp-status-badge[status="ready"]`, 20_000);
    const app = 'mcp-tool-runner >>> mcp-result-view >>> mcp-app-view:not([hidden])';
    await openTool(panel, 'basic', 'get-time');
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    await waitFor(panel, `${app} >>> iframe`, 20_000);
    const frame = await until('the view', async () => panel.frames().find((f) => f.url() === 'about:srcdoc'));
    await until('the time in the view', async () =>
      /^\d{4}-/.test(await frame.$eval('#server-time', (e) => e.textContent ?? '').catch(() => '')),
    );
    await shootAll(panel, `${locale}-10-app-view`, written);
    await frame.click('#get-time-btn');
    await waitFor(panel, 'mcp-approval-card >>> button[data-decision="once"]', 20_000);
    await shootAll(panel, `${locale}-10-app-approval`, written);
    await panel.click('mcp-approval-card >>> button[data-decision="deny"]');
    await openTool(panel, 'budget', 'get-budget-data');
    await panel.click('mcp-tool-runner >>> button[type="submit"]');
    await waitFor(panel, `${app} >>> iframe`, 20_000);
    await new Promise((r) => setTimeout(r, 2000));
    await shootAll(panel, `${locale}-11-app-chart`, written);
    await panel.click(`${app} >>> button.fullscreen`);
    await new Promise((r) => setTimeout(r, 1000));
    await shootAll(panel, `${locale}-11-app-chart-full`, written);
    await panel.keyboard.press('Escape');
    await shootChat(panel, locale, written);
    if (ext.errors.length) console.warn(`console errors (${locale}):\n  ${ext.errors.join('\n  ')}`);
  } finally {
    await ext.close();
    await good.close();
    await basic.close();
    await budget.close();
  }
  return written;
}

await mkdir(OUT, { recursive: true });
for (const locale of ['en', 'zh_CN'] as const) console.log((await shoot(locale)).join('\n'));
