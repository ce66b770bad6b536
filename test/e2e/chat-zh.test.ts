/**
 * The chat in zh_CN (section P): what the user reads about a provider failure or a tool step that
 * did not run is Chinese, while the model is still told in English. A scripted provider on
 * loopback answers 401, then 429 with Retry-After, then a tool call the user denies.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElementHandle, Page } from 'puppeteer-core';
import { launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { storeServersFromPanel } from '../support/panel-views.js';
import { newChat as newChatIn, saveOpenAiProvider, sendChat } from '../support/chat-panel.js';

let demo: DemoServer;
let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;

const V = 'mcp-chat-view >>> ';
const HAN = /[\u4e00-\u9fff]/;

before(async () => {
  demo = await startDemoServer();
  provider = await startProviderServer();
  ext = await launchExtension({ locale: 'zh_CN' });
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: demo.url }]);
  await saveOpenAiProvider(panel, provider.openAiBase, 'sk-zh-secret');
});

after(async () => {
  await ext?.close();
  await demo?.close();
  await provider?.close();
});

const newChat = () => newChatIn(panel);
const send = (text: string) => sendChat(panel, text);

const textOf = async (el: ElementHandle<Element>) => el.evaluate((e) => e.textContent ?? '');

test('zh_CN: a provider 401 and a 429 are explained in Chinese, the provider’s own words quoted, the key never shown', async () => {
  await newChat();
  provider.script({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided: sk-zh-secret' } } });
  await send('你好');
  const e401 = await textOf(await waitFor(panel, `${V}li.provider-error[data-kind="invalid-key"]`));
  assert.match(e401, /服务商拒绝了此 API 密钥（HTTP 401）/);
  assert.match(e401, /服务商的原话：“Incorrect API key provided: \[key\]”/);
  assert.doesNotMatch(e401, /refused|sk-zh-secret/);

  provider.script({ kind: 'status', status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'Rate limit reached' } } });
  await send('再试');
  const e429 = await textOf(await waitFor(panel, `${V}li.provider-error[data-kind="rate-limit"]`));
  assert.match(e429, /速率限制（HTTP 429）。请在 120 秒后重试/);
  assert.doesNotMatch(e429, /Try again/);
});

test('zh_CN: a denied tool step reads in Chinese; the model is told in English', async () => {
  await newChat();
  provider.script(
    { kind: 'stream', toolCalls: [{ id: 'z1', name: 'mcp__demo__echo', arguments: '{"text":"x"}' }] },
    { kind: 'stream', text: ['好的。'] },
  );
  const before = provider.requests.length;
  await send('回显');
  const card = await until('the approval card', async () => (await panel.$(`${V}mcp-approval-card`)) ?? undefined);
  await (await card.$('>>> button[data-decision="deny"]'))!.click();
  const step = await waitFor(panel, `${V}details.step[data-status="denied"]`);
  const shown = await step.$eval('pre.result', (e) => e.textContent ?? '');
  assert.match(shown, HAN);
  assert.match(shown, /用户拒绝了此调用/);
  await until('the next provider request', async () => provider.requests.length >= before + 2 || undefined);
  const messages = provider.requests[before + 1]!.body.messages as { role: string; content: string }[];
  assert.match(messages.find((m) => m.role === 'tool')!.content, /denied by the user/);
});
