/**
 * Driving the panel's Chat view as a user does: set up an OpenAI-compatible provider in its form,
 * start a new chat, send a message, read the last answer.
 */
import type { Page } from 'puppeteer-core';
import { until } from './browser.js';
import { clickFresh, openView } from './panel-views.js';

/** Prefix for selectors inside the Chat view's shadow root. */
export const CHAT = 'mcp-chat-view >>> ';

/** Opens the Chat view and saves an OpenAI-compatible provider through its form. */
export async function saveOpenAiProvider(page: Page, baseUrl: string, apiKey?: string): Promise<void> {
  await openView(page, 'chat');
  await page.type(`${CHAT}input[name="base-url"]`, baseUrl);
  await page.type(`${CHAT}input[name="model"]`, 'test-model');
  if (apiKey) await page.type(`${CHAT}input[name="api-key"]`, apiKey);
  await page.click(`${CHAT}form.provider button[type="submit"]`);
  await until('the provider form to close', async () => !(await page.$(`${CHAT}form.provider`)));
}

export async function newChat(page: Page): Promise<void> {
  await clickFresh(page, `${CHAT}button.new`);
  await until('an empty chat', async () => (await page.$$(`${CHAT}ol.log > li`)).length === 0 || undefined);
}

/** Types into the composer and sends with Enter. */
export async function sendChat(page: Page, text: string): Promise<void> {
  await page.type(`${CHAT}mcp-composer >>> textarea`, text);
  await page.keyboard.press('Enter');
}

export const lastAssistantText = (page: Page) => page.$$eval(`${CHAT}li.assistant`, (els) => els.at(-1)?.textContent ?? '');

/** The chat composer's current draft (what an MCP App view's `ui/message` puts there). */
export const composerDraft = (page: Page) =>
  page.evaluate(`document.querySelector('mcp-chat-view').shadowRoot.querySelector('mcp-composer').text`) as Promise<string>;
