/**
 * The chat's own system prompt (T5) and a stalled provider (T1) through the real panel, against
 * the scripted provider, in one browser launched without DevTools on the worker:
 * - the provider's prompt and short waits are set in the chat settings; a chat gets its own prompt
 *   from the header's "More" menu, keyboard only; its next request carries that prompt as the
 *   system message, while another chat's carries the provider's;
 * - the provider sends its headers and then nothing (and, once, a first part and then nothing):
 *   "Waiting for the model…" shows from Enter, the turn ends with the sentence naming the provider
 *   and what it did not do, Stop goes away, and the next turn answers normally;
 * - after the worker is stopped, a stall ends the same way, and the chat's own prompt is still used.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { launchExtension, textOf, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { assertNewWorker, sleepWorker } from '../support/worker-sleep.js';
import { CHAT, lastAssistantText, newChat, saveOpenAiProvider, sendChat } from '../support/chat-panel.js';
import { clickFresh } from '../support/panel-views.js';

const PROVIDER_PROMPT = 'You answer for the provider.';
const CHAT_PROMPT = 'Answer like a pirate.';
const FIRST_BYTE_S = 3;
const IDLE_S = 2;

let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;
let host: string;
/** The chat given its own prompt (test 1), opened again after the worker's stop (test 2). */
let pirateChat: string;

before(async () => {
  provider = await startProviderServer();
  host = new URL(provider.openAiBase).host;
  ext = await launchExtension({ workerDevTools: false });
  panel = await ext.openPanel();
  await saveOpenAiProvider(panel, provider.openAiBase);
});

after(async () => {
  await ext?.close();
  await provider?.close();
});

/** The chat settings form: the provider's system prompt and the two waits (T1), as a user types them. */
async function setProviderPromptAndWaits() {
  await clickFresh(panel, `${CHAT}button.settings`);
  await waitFor(panel, `${CHAT}form.provider`);
  for (const [name, value] of [
    ['textarea[name="system-prompt"]', PROVIDER_PROMPT],
    ['input[name="first-byte-timeout"]', String(FIRST_BYTE_S)],
    ['input[name="idle-timeout"]', String(IDLE_S)],
  ] as const) {
    await panel.$eval(`${CHAT}form.provider ${name}`, (i) => ((i as HTMLInputElement).value = ''));
    await panel.type(`${CHAT}form.provider ${name}`, value);
  }
  await panel.click(`${CHAT}form.provider button[type="submit"]`);
  await until('the provider form to close', async () => !(await panel.$(`${CHAT}form.provider`)));
}

/** The class of the focused element in the Chat view (its shadow root), or its tag. */
const focused = () =>
  panel.evaluate(() => {
    const a = document.querySelector('mcp-chat-view')?.shadowRoot?.activeElement;
    return a ? a.className || a.tagName.toLowerCase() : '';
  });

const systemOf = (i: number) => {
  const messages = provider.requests[i]!.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'system')?.content ?? '';
};
/** The provider errors' sentences (each line's own text, without its Regenerate row). */
const errorSentences = () => panel.$$eval(`${CHAT}li.provider-error`, (els) => els.map((e) => e.firstChild?.textContent ?? ''));
const stopHidden = () => panel.$eval(`${CHAT}button.stop`, (b) => (b as HTMLElement).hidden);
const idle = () => until('the run to end', async () => (await stopHidden()) || undefined);
const answered = async (words: string) => {
  await until(`the answer "${words}"`, async () => (await lastAssistantText(panel)).includes(words) || undefined);
  await idle();
};

/** Sends `text` to a provider that stalls: the waiting line from Enter, then the sentence, Stop gone. */
async function stalledTurn(text: string, expected: string) {
  const before = provider.requests.length;
  await sendChat(panel, text);
  await waitFor(panel, `${CHAT}.phase[data-phase="waiting-model"]`);
  assert.equal(await textOf(panel, `${CHAT}.phase[data-phase="waiting-model"]`), 'Waiting for the model…');
  assert.equal(await stopHidden(), false, 'Stop is offered while the model is awaited');
  const error = await until('the stall to end the turn', async () => (await errorSentences()).at(-1));
  assert.equal(error, expected);
  await idle();
  assert.equal(await panel.$(`${CHAT}.phase`), null, 'the waiting line is gone');
  assert.equal(provider.requests.length, before + 1, 'one request, not retried behind the user’s back');
}

test('T5: a chat’s own system prompt, set from More with the keyboard, is the system message of its next request; another chat gets the provider’s', async () => {
  await setProviderPromptAndWaits();
  await newChat(panel);
  provider.script({ kind: 'stream', text: ['Plain answer.'] });
  await sendChat(panel, 'First question');
  await answered('Plain answer.');
  assert.ok(systemOf(0).endsWith(`\n\n${PROVIDER_PROMPT}`), 'before: the provider’s prompt');

  // Keyboard only: More, then its "System prompt for this chat" item.
  await panel.focus(`${CHAT}.more > summary`);
  await panel.keyboard.press('Enter');
  await waitFor(panel, `${CHAT}.more[open] button.system-prompt`);
  await panel.keyboard.press('Tab');
  assert.equal(await focused(), 'rename');
  await panel.keyboard.press('Tab');
  assert.equal(await focused(), 'system-prompt');
  await panel.keyboard.press('Enter');
  await waitFor(panel, `${CHAT}form.system-prompt textarea`);
  await until('the focus in the textarea', async () => (await focused()) === 'textarea' || undefined);
  assert.equal(
    await panel.$eval(`${CHAT}form.system-prompt textarea`, (a) => a.placeholder),
    'Empty: the provider’s system prompt applies',
  );
  await panel.keyboard.type(CHAT_PROMPT);
  for (const stop of ['cancel', 'clear', 'save']) {
    await panel.keyboard.press('Tab');
    assert.equal(await focused(), stop);
  }
  await panel.keyboard.press('Enter');
  await until('the form to close', async () => !(await panel.$(`${CHAT}form.system-prompt`)) || undefined);
  assert.equal(await textOf(panel, `${CHAT}.own-prompt`), 'Own system prompt');
  pirateChat = await panel.evaluate(() => (document.querySelector('mcp-chat-view') as unknown as { chat: { id: string } }).chat.id);
  assert.equal(await focused(), 'summary', 'the focus is back on More');

  provider.script({ kind: 'stream', text: ['Arr, an answer.'] });
  await sendChat(panel, 'Second question');
  await answered('Arr, an answer.');
  assert.ok(systemOf(1).endsWith(`\n\n${CHAT_PROMPT}`), `the chat’s own prompt: ${systemOf(1)}`);
  assert.ok(!systemOf(1).includes(PROVIDER_PROMPT), 'instead of the provider’s');

  await newChat(panel);
  assert.equal(await panel.$(`${CHAT}.own-prompt`), null, 'a new chat has no prompt of its own');
  provider.script({ kind: 'stream', text: ['Other chat answer.'] });
  await sendChat(panel, 'Other chat');
  await answered('Other chat answer.');
  assert.ok(systemOf(2).endsWith(`\n\n${PROVIDER_PROMPT}`), 'another chat: the provider’s prompt');
  assert.deepEqual(ext.errors, []);
});

test('T1: a provider that goes silent ends the turn in plain words, the chat goes on; the same after the worker sleeps', async () => {
  const noFirstByte = `${host} sent no answer within ${FIRST_BYTE_S} s. Try again, or allow a longer wait in the chat settings.`;
  provider.script({ kind: 'stall-after-headers' });
  await stalledTurn('Are you there?', noFirstByte);

  provider.script({ kind: 'stream', text: ['Back again.'] });
  await sendChat(panel, 'And now?');
  await answered('Back again.');

  // Mid-answer: a first part, then silence.
  provider.script({ kind: 'stream', text: ['Half an '], hangAfter: 2 });
  await sendChat(panel, 'Tell me more');
  const cut = await until('the idle stall to end the turn', async () => {
    const sentences = await errorSentences();
    return sentences.length === 2 ? sentences[1] : undefined;
  });
  assert.equal(
    cut,
    `${host} stopped sending for ${IDLE_S} s in the middle of its answer. Try again, or allow a longer wait in the chat settings.`,
  );
  await idle();

  await sleepWorker(ext, panel);
  provider.script({ kind: 'stall-after-headers' });
  // New right after the sleep: the panel's reconnect re-reads the old chat, which must not take the view back.
  await newChat(panel);
  await stalledTurn('After the sleep?', noFirstByte);
  await assertNewWorker(ext);
  provider.script({ kind: 'stream', text: ['Awake.'] });
  await sendChat(panel, 'Once more');
  await answered('Awake.');

  // The first chat kept its own prompt through the worker's stop.
  await clickFresh(panel, `${CHAT}button.history`);
  await clickFresh(panel, `${CHAT}.history-list button.open-chat[data-chat="${pirateChat}"]`);
  await waitFor(panel, `${CHAT}.own-prompt`);
  provider.script({ kind: 'stream', text: ['Still a pirate.'] });
  await sendChat(panel, 'Still there?');
  await answered('Still a pirate.');
  assert.ok(systemOf(provider.requests.length - 1).endsWith(`\n\n${CHAT_PROMPT}`));
  assert.deepEqual(ext.errors, []);
});
