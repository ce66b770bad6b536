/**
 * MCP App views in the chat (section Q) with the built extension: a scripted provider on loopback
 * asks for the published example server's tool (`server-basic-vanillajs`, get-time) → the
 * approval card in the conversation → the tool's view rendered under the chat's step, with the
 * result delivered → the view calls the tool back → approval → the new result in the view.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElementHandle, Frame, Page, WebWorker } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startAppServer, type AppServer } from '../support/app-servers.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { storeServersFromPanel } from '../support/panel-views.js';
import { composerDraft, saveOpenAiProvider } from '../support/chat-panel.js';

let basic: AppServer;
let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;
let worker: WebWorker;

const V = 'mcp-chat-view >>> ';
const APP = `${V}li.step-with-app mcp-app-view:not([hidden])`;

before(async () => {
  [basic, provider] = await Promise.all([startAppServer('basic-vanillajs'), startProviderServer()]);
  ext = await launchExtension();
  worker = await ext.serviceWorker();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'basic', name: 'Basic', url: basic.url }], 30_000);
  await saveOpenAiProvider(panel, provider.openAiBase);
});

after(async () => {
  await ext?.close();
  await Promise.all([basic?.close(), provider?.close()]);
});

/** An approval card naming `tool`, in the conversation or above it (a view's own call). */
async function cardFor(tool: string): Promise<ElementHandle<Element>> {
  return until(`an approval card for ${tool}`, async () => {
    for (const card of [...(await panel.$$(`${V}mcp-approval-card`)), ...(await panel.$$('mcp-approval-card'))]) {
      const from = await card.$eval('>>> .from', (el) => el.textContent ?? '').catch(() => '');
      const pending = await card.$('>>> button[data-decision="once"]');
      if (from.includes(tool) && pending) return card;
    }
    return undefined;
  });
}

async function viewFrame(): Promise<Frame> {
  return until('the view frame', async () =>
    panel.frames().find((f) => f.url() === 'about:srcdoc' && f.parentFrame()?.url().endsWith('/app-sandbox.html')),
  );
}

const serverTime = (frame: Frame) => frame.$eval('#server-time', (e) => e.textContent ?? '').catch(() => '');

test('the model calls a tool with a view: approval, the view in the conversation with the result, a call back from the view', async () => {
  const name = (await worker.evaluate(`globalThis.remoteMcp.agentTools.list().find((t) => t.toolName === 'get-time').name`)) as string;
  provider.script(
    { kind: 'stream', toolCalls: [{ id: 'call_1', name, arguments: '{}' }] },
    { kind: 'stream', text: ['The view shows the time.'] },
  );
  await panel.type(`${V}mcp-composer >>> textarea`, 'What time is it on the server?');
  await panel.keyboard.press('Enter');
  // The step starts: its view is there at once (tool input), before the call is approved.
  await waitFor(panel, `${APP} >>> iframe`, 20_000);
  await (await (await cardFor('get-time')).$('>>> button[data-decision="once"]'))!.click();
  const frame = await viewFrame();
  const first = await until('the time from the result', async () => {
    const text = await serverTime(frame);
    return /^\d{4}-\d\d-\d\dT/.test(text) ? text : undefined;
  });
  await until(
    'the final answer',
    async () =>
      (await panel.$$eval(`${V}li.assistant`, (els) => els.at(-1)?.textContent ?? '')).includes('The view shows the time.') || undefined,
  );
  // The view's own call goes through the worker and waits for the user's approval too.
  await frame.click('#get-time-btn');
  await (await (await cardFor('get-time')).$('>>> button[data-decision="once"]'))!.click();
  const second = await until('a new time in the view', async () => {
    const text = await serverTime(frame);
    return text !== first && /^\d{4}-/.test(text) ? text : undefined;
  });
  assert.ok(second > first);
  // Still the one view, under its step.
  assert.equal((await panel.$$(`${V}mcp-app-view`)).length, 1);
  await panel.screenshot({ path: 'test-output/e2e/mcp-apps-chat.png' }).catch(() => undefined);
});

test('a message from the view in the chat is a suggestion beside it; the user’s click adds it to this chat’s draft (U4)', async () => {
  await panel.type(`${V}mcp-composer >>> textarea`, 'my own words');
  const frame = await viewFrame();
  await frame.click('#send-message-btn');
  await waitFor(panel, `${APP} >>> .suggestion:not([hidden]) button.insert`);
  assert.equal(await textOf(panel, `${APP} >>> .suggestion .from`), 'Suggested by the view of Basic');
  assert.equal(await composerDraft(panel), 'my own words');
  await panel.click(`${APP} >>> .suggestion button.insert`);
  await until('the draft in the chat', async () => (await composerDraft(panel)) === 'my own words\n\nThis is message text.' || undefined);
});
