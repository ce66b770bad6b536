/**
 * Regenerate, edit and resend, and the history (T5) through the real panel against the scripted
 * provider: regenerate replaces the last answer; an edit replaces the message and drops what
 * followed (the edited message is marked); then the worker is stopped without DevTools on it, and
 * the history still lists the chat with its date and provider/model, and regenerate still works.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { stopWorker, workerRunning } from '../support/worker-lifecycle.js';
import { CHAT, lastAssistantText, saveOpenAiProvider, sendChat } from '../support/chat-panel.js';
import { clickFresh } from '../support/panel-views.js';

let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;

before(async () => {
  provider = await startProviderServer();
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await saveOpenAiProvider(panel, provider.openAiBase);
});

after(async () => {
  await ext?.close();
  await provider?.close();
});

const answered = (words: string) =>
  until(`the answer "${words}"`, async () => ((await lastAssistantText(panel)).includes(words) ? true : undefined));
const userTexts = (i: number) =>
  (provider.requests[i]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content);
const idle = () =>
  until('the run to end', async () => (await panel.$eval(`${CHAT}button.stop`, (b) => (b as HTMLElement).hidden)) || undefined);

test('regenerate and edit-and-resend replace the later turns; after a worker stop the history and regenerate still work', async () => {
  provider.script({ kind: 'stream', text: ['First answer.'], usage: { input: 10, output: 5 } });
  await sendChat(panel, 'Hello there');
  await answered('First answer.');
  await idle();

  provider.script({ kind: 'stream', text: ['Second answer.'], usage: { input: 12, output: 6 } });
  await clickFresh(panel, `${CHAT}button.regenerate`);
  await answered('Second answer.');
  await idle();
  assert.equal(provider.requests.length, 2);
  assert.deepEqual(userTexts(1), ['Hello there'], 'the same question asked again');
  assert.equal((await panel.$$(`${CHAT}li.assistant`)).length, 1, 'the old answer is replaced, not kept');
  assert.equal(await textOf(panel, `${CHAT}.tokens`), 'This chat: 18 tokens');

  provider.script({ kind: 'stream', text: ['Edited answer.'] });
  await clickFresh(panel, `${CHAT}li.user button.edit-message`);
  await waitFor(panel, `${CHAT}form.edit textarea`);
  assert.match(await textOf(panel, `${CHAT}form.edit .hint`), /old answers are not kept/);
  await panel.$eval(`${CHAT}form.edit textarea`, (a) => (a.value = ''));
  await panel.type(`${CHAT}form.edit textarea`, 'Hello again');
  await clickFresh(panel, `${CHAT}form.edit button.resend`);
  await answered('Edited answer.');
  await idle();
  assert.deepEqual(userTexts(2), ['Hello again']);
  assert.equal(await textOf(panel, `${CHAT}li.user .edited`), 'edited');
  assert.deepEqual(await panel.$$eval(`${CHAT}ol.log > li`, (els) => els.map((e) => e.className)), ['user', 'assistant']);

  await stopWorker(ext);
  assert.equal(await workerRunning(ext), false, 'the worker is gone');

  await clickFresh(panel, `${CHAT}button.history`);
  const row = `${CHAT}button.open-chat[aria-current="true"]`;
  await waitFor(panel, row, 20_000);
  assert.equal(await textOf(panel, `${row} .chat-title`), 'Hello there');
  const meta = await textOf(panel, `${row} .chat-meta`);
  assert.match(meta, /\d{4}.* · test-model · OpenAI-compatible · 127\.0\.0\.1:\d+$/);
  await panel.type(`${CHAT}input[name="chat-search"]`, 'again');
  await until('the search result', async () =>
    (await textOf(panel, `${CHAT}.history-list`).catch(() => '')).includes('Hello again') ? true : undefined,
  );
  await panel.keyboard.press('Escape');

  provider.script({ kind: 'stream', text: ['After the worker slept.'] });
  await clickFresh(panel, `${CHAT}button.regenerate`);
  await answered('After the worker slept.');
  await idle();
  assert.deepEqual(userTexts(3), ['Hello again']);
  assert.equal((await panel.$$(`${CHAT}li.assistant`)).length, 1);
  assert.deepEqual(ext.errors, []);
});
