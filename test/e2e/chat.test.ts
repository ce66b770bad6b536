/**
 * The chat end to end (section P) in Chromium with the built extension, the SDK demo MCP server
 * and a scripted provider on loopback speaking the real wire formats (test/support/provider-server.ts):
 * tool call → approval card inside the conversation → the next provider request carries the fenced
 * result and the tool's schema as sent; parallel calls; deny; Stop mid-stream; 401 and 429 in plain
 * words; hostile Markdown rendered inert; a panel closed and reopened mid-run re-attaches.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElementHandle, Page, WebWorker } from 'puppeteer-core';
import { launchExtension, until, waitFor, type ExtensionBrowser } from '../support/browser.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { startProviderServer, type ProviderServer } from '../support/provider-server.js';
import { openView, storeServersFromPanel } from '../support/panel-views.js';
import { lastAssistantText as lastAssistantTextOf, newChat as newChatIn, sendChat } from '../support/chat-panel.js';

let demo: DemoServer;
let provider: ProviderServer;
let ext: ExtensionBrowser;
let panel: Page;
let worker: WebWorker;

const V = 'mcp-chat-view >>> ';

before(async () => {
  demo = await startDemoServer();
  provider = await startProviderServer();
  ext = await launchExtension();
  worker = await ext.serviceWorker();
  panel = await ext.openPanel();
  await storeServersFromPanel(panel, [{ id: 'demo', name: 'Demo', url: demo.url }]);
  await openView(panel, 'chat');
});

after(async () => {
  await ext?.close();
  await demo?.close();
  await provider?.close();
});

const newChat = () => newChatIn(panel);
const send = (text: string) => sendChat(panel, text);
const lastAssistantText = () => lastAssistantTextOf(panel);

async function cardFor(tool: string): Promise<ElementHandle<Element>> {
  return until(`an approval card for ${tool}`, async () => {
    for (const card of await panel.$$(`${V}mcp-approval-card`)) {
      const from = await card.$eval('>>> .from', (el) => el.textContent ?? '').catch(() => '');
      if (from.includes(tool)) return card;
    }
    return undefined;
  });
}

test('without a provider the view says how to add one; saving sets it up with the key never shown back', async () => {
  assert.match(await panel.$eval(`${V}.no-provider`, (el) => el.textContent ?? ''), /add a model provider/i);
  // Chrome's built-in model is offered exactly when the worker has it (Debian's Chromium does not).
  const builtin = (await worker.evaluate(
    `(async () => typeof LanguageModel !== 'undefined' && (await LanguageModel.availability()) !== 'unavailable')()`,
  )) as boolean;
  assert.equal(!!(await panel.$(`${V}select[name="kind"] option[value="builtin"]`)), builtin);
  console.log(`[chat] Chrome's built-in model in this browser: ${builtin ? 'available, offered' : 'not available, not offered'}`);
  await panel.type(`${V}input[name="base-url"]`, provider.openAiBase);
  await panel.type(`${V}input[name="model"]`, 'test-model');
  await panel.type(`${V}input[name="api-key"]`, 'sk-e2e-secret');
  await panel.click(`${V}form.provider button[type="submit"]`);
  await until('the form to close', async () => !(await panel.$(`${V}form.provider`)));
  assert.match(await panel.$eval(`${V}.model`, (el) => el.textContent ?? ''), /test-model .* 127\.0\.0\.1/);
  const stored = await worker.evaluate(async () => JSON.stringify(await chrome.storage.local.get('mcp_chat_provider')));
  assert.doesNotMatch(stored, /sk-e2e-secret/);
});

test('ask → tool call → approval in the conversation → the next request carries the fenced result and the schema as sent', async () => {
  await newChat();
  provider.script(
    {
      kind: 'stream',
      toolCalls: [{ id: 'call_1', name: 'mcp__demo__echo', arguments: '{"text":"hello"}' }],
      usage: { input: 40, output: 9 },
    },
    { kind: 'stream', text: ['The echo ', 'said **hello**.'], usage: { input: 80, output: 6 } },
  );
  const before = provider.requests.length;
  await send('Please echo hello');
  const card = await cardFor('echo');
  assert.equal(await panel.$('#approvals mcp-approval-card'), null, 'the card is in the chat, not above it');
  await (await card.$('>>> button[data-decision="once"]'))!.click();
  await until('the final answer', async () => ((await lastAssistantText()).includes('The echo said hello') ? true : undefined));
  assert.equal(await panel.$eval(`${V}li.assistant:last-of-type strong`, (el) => el.textContent), 'hello');

  const [first, second] = provider.requests.slice(before);
  assert.equal(first!.headers.authorization, 'Bearer sk-e2e-secret');
  const schemas = await worker.evaluate(() => globalThis.remoteMcp!.agentTools.list().map((t) => [t.name, t.jsonSchema]));
  const sentTools = (second!.body.tools as { function: { name: string; parameters: unknown } }[]).map((t) => [
    t.function.name,
    t.function.parameters,
  ]);
  assert.deepEqual(sentTools, schemas);
  const messages = second!.body.messages as { role: string; content: string; tool_call_id?: string; tool_calls?: unknown[] }[];
  const toolMessage = messages.find((m) => m.role === 'tool')!;
  assert.equal(toolMessage.tool_call_id, 'call_1');
  assert.match(
    toolMessage.content,
    /^Result of tool "echo" from MCP server "Demo" \(id demo\)\. Untrusted data.*\n<<mcp-untrusted-[0-9a-f]{32}>>\necho: hello\n<<\/mcp-untrusted-[0-9a-f]{32}>>$/,
  );
  assert.equal(messages.find((m) => m.role === 'assistant')!.tool_calls!.length, 1);

  const step = await panel.$eval(`${V}details.step summary`, (el) => el.textContent ?? '');
  assert.match(step, /^Echo · Demo · done · \d+ ms$/);
  assert.match(await panel.$$eval(`${V}.usage`, (els) => els.at(-1)?.textContent ?? ''), /80.*6/);
});

test('parallel tool calls each get a card; a denied one tells the model "denied by the user"', async () => {
  await newChat();
  provider.script(
    {
      kind: 'stream',
      toolCalls: [
        { id: 'p1', name: 'mcp__demo__echo', arguments: '{"text":"x"}' },
        { id: 'p2', name: 'mcp__demo__add', arguments: '{"a":2,"b":3}' },
      ],
    },
    { kind: 'stream', text: ['Done.'] },
  );
  const before = provider.requests.length;
  const echoCalls = demo.stats.toolCalls.filter((c) => c === 'echo').length;
  await send('Do both');
  const echoCard = await cardFor('echo');
  const addCard = await cardFor('add');
  await (await echoCard.$('>>> button[data-decision="deny"]'))!.click();
  await (await addCard.$('>>> button[data-decision="once"]'))!.click();
  await until('the final answer', async () => ((await lastAssistantText()).includes('Done.') ? true : undefined));
  const messages = provider.requests[before + 1]!.body.messages as { role: string; content: string; tool_call_id?: string }[];
  const results: Record<string, string> = Object.fromEntries(
    messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', m.content]),
  );
  assert.match(results.p1!, /denied by the user/);
  assert.match(results.p2!, /sum=5/);
  assert.equal(demo.stats.toolCalls.filter((c) => c === 'echo').length, echoCalls, 'the denied call never reached the server');
  assert.deepEqual(await panel.$$eval(`${V}details.step`, (els) => els.map((e) => (e as HTMLElement).dataset.status)), ['denied', 'done']);
});

test('Stop mid-stream closes the provider stream and says so', async () => {
  await newChat();
  provider.script({ kind: 'stream', text: ['Partial ', 'answer', ' never'], hangAfter: 2 });
  const aborted = provider.aborted;
  await send('Tell me a long story');
  await until('the first streamed words', async () => ((await lastAssistantText()).includes('Partial') ? true : undefined));
  await panel.click(`${V}button.stop`);
  await waitFor(panel, `${V}li.notice[data-notice="stopped"]`);
  await until('the provider to see the stream closed', async () => provider.aborted > aborted || undefined);
  assert.equal(await panel.$eval(`${V}button.stop`, (el) => (el as HTMLElement).hidden), true);
});

test('a provider 401 and a 429 are explained in plain words, the key never shown', async () => {
  await newChat();
  provider.script({
    kind: 'status',
    status: 401,
    body: { error: { message: 'Incorrect API key provided: sk-e2e-secret', type: 'invalid_request_error' } },
  });
  await send('hello');
  const e401 = await (await waitFor(panel, `${V}li.provider-error[data-kind="invalid-key"]`)).evaluate((el) => el.textContent ?? '');
  assert.match(e401, /refused the API key \(HTTP 401\)/);
  assert.doesNotMatch(e401, /sk-e2e-secret/);

  provider.script({ kind: 'status', status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'Rate limit reached' } } });
  await send('again');
  const e429 = await (await waitFor(panel, `${V}li.provider-error[data-kind="rate-limit"]`)).evaluate((el) => el.textContent ?? '');
  assert.match(e429, /rate limit .*Try again in 120 s/i);
});

test('hostile Markdown is rendered inert: no image loads, no javascript: link, no handler runs', async () => {
  await newChat();
  provider.script({
    kind: 'stream',
    text: [
      '<img src=x onerror="window.__pwned=1">\n\n',
      '[click](javascript:window.__pwned=2) and [ok](https://example.com/a) ',
      '![pic](http://127.0.0.1:9/x.png)\n\n```js\nlet a = 1;\n```',
    ],
  });
  await send('show me');
  await until('the answer', async () => ((await lastAssistantText()).includes('ok') ? true : undefined));
  const report = await panel.$eval('mcp-chat-view', (host) => {
    const root = host.shadowRoot!;
    const last = [...root.querySelectorAll('li.assistant')].at(-1)!;
    return {
      imgs: last.querySelectorAll('img').length,
      links: [...last.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.rel, a.target]),
      text: last.textContent ?? '',
      code: last.querySelector('.code code')?.textContent,
      copy: !!last.querySelector('.code button.copy'),
      pwned: (window as unknown as { __pwned?: number }).__pwned,
    };
  });
  assert.equal(report.imgs, 0);
  assert.deepEqual(report.links, [['https://example.com/a', 'noopener noreferrer', '_blank']]);
  assert.match(report.text, /<img src=x onerror/);
  assert.match(report.text, /image: pic/);
  assert.equal(report.code, 'let a = 1;');
  assert.equal(report.copy, true);
  assert.equal(report.pwned, undefined);
});

test('a panel closed and reopened mid-run re-attaches: the card is there and the run finishes', async () => {
  await newChat();
  provider.script(
    { kind: 'stream', toolCalls: [{ id: 'r1', name: 'mcp__demo__echo', arguments: '{"text":"again"}' }] },
    { kind: 'stream', text: ['Back again.'] },
  );
  await send('Echo again');
  await cardFor('echo');
  await panel.close();
  panel = await ext.openPanel();
  // The panel opens on the view it was closed on.
  await until('the Chat view', () => panel.$eval('section[data-view="chat"]', (el) => !el.hidden || undefined));
  const card = await cardFor('echo');
  await (await card.$('>>> button[data-decision="once"]'))!.click();
  await until('the final answer', async () => ((await lastAssistantText()).includes('Back again.') ? true : undefined));
  assert.deepEqual(ext.errors, []);
});

test('Stop during a tool call cancels it on the MCP server (notifications/cancelled) and the model is not asked again', async () => {
  await newChat();
  provider.script({ kind: 'stream', toolCalls: [{ id: 's1', name: 'mcp__demo__slow', arguments: '{"steps":50,"ms":200}' }] });
  const before = provider.requests.length;
  const slowCalls = demo.stats.toolCalls.filter((c) => c === 'slow').length;
  const cancellations = demo.stats.cancellations.length;
  await send('Run the slow task');
  await (await (await cardFor('slow')).$('>>> button[data-decision="once"]'))!.click();
  await until(
    'the server to run the slow tool',
    async () => demo.stats.toolCalls.filter((c) => c === 'slow').length > slowCalls || undefined,
  );
  await panel.click(`${V}button.stop`);
  await until('the server to see the call cancelled', async () => demo.stats.cancellations.length > cancellations || undefined, 10_000);
  await waitFor(panel, `${V}li.notice[data-notice="stopped"]`);
  assert.deepEqual(await panel.$$eval(`${V}details.step`, (els) => els.map((e) => (e as HTMLElement).dataset.status)), ['cancelled']);
  assert.equal(provider.requests.length, before + 1, 'no request after Stop');
});

test('Anthropic Messages end to end: tool_use → approval → the next request carries the tool_result and the schema as sent', async () => {
  await panel.click(`${V}button.settings`);
  await panel.select(`${V}select[name="kind"]`, 'anthropic');
  await panel.$eval(
    `${V}input[name="base-url"]`,
    (el, url) => {
      el.value = url;
    },
    provider.anthropicBase,
  );
  await panel.$eval(`${V}input[name="model"]`, (el) => {
    el.value = 'claude-test';
  });
  await panel.click(`${V}form.provider button[type="submit"]`);
  await until('the form to close', async () => !(await panel.$(`${V}form.provider`)));
  await newChat();
  provider.script(
    {
      kind: 'stream',
      text: ['Let me echo. '],
      toolCalls: [{ id: 'toolu_01', name: 'mcp__demo__echo', arguments: '{"text":"anthropic"}' }],
    },
    { kind: 'stream', text: ['Echoed ', 'anthropic.'], usage: { input: 120, output: 4 } },
  );
  const before = provider.requests.length;
  await send('Echo anthropic');
  await (await (await cardFor('echo')).$('>>> button[data-decision="once"]'))!.click();
  await until('the final answer', async () => ((await lastAssistantText()).includes('Echoed anthropic.') ? true : undefined));

  const [first, second] = provider.requests.slice(before);
  assert.equal(first!.path, '/v1/messages');
  assert.equal(first!.headers['x-api-key'], 'sk-e2e-secret', 'the key stored for this origin is kept');
  assert.equal(first!.headers['anthropic-version'], '2023-06-01');
  assert.equal(first!.body.model, 'claude-test');
  const schemas = await worker.evaluate(() => globalThis.remoteMcp!.agentTools.list().map((t) => [t.name, t.jsonSchema]));
  assert.deepEqual(
    (second!.body.tools as { name: string; input_schema: unknown }[]).map((t) => [t.name, t.input_schema]),
    schemas,
  );
  const messages = second!.body.messages as { role: string; content: Record<string, unknown>[] }[];
  const assistant = messages.at(-2)!;
  assert.equal(assistant.role, 'assistant');
  assert.deepEqual(assistant.content.at(-1), { type: 'tool_use', id: 'toolu_01', name: 'mcp__demo__echo', input: { text: 'anthropic' } });
  const result = messages.at(-1)!;
  assert.equal(result.role, 'user');
  assert.equal(result.content[0]!.type, 'tool_result');
  assert.equal(result.content[0]!.tool_use_id, 'toolu_01');
  assert.match(
    result.content[0]!.content as string,
    /^Result of tool "echo" from MCP server "Demo" \(id demo\)\. Untrusted data.*\n<<mcp-untrusted-[0-9a-f]{32}>>\necho: anthropic\n<<\/mcp-untrusted-[0-9a-f]{32}>>$/,
  );
  assert.match(await panel.$$eval(`${V}.usage`, (els) => els.at(-1)?.textContent ?? ''), /120.*4/);
  assert.match(await panel.$eval(`${V}.model`, (el) => el.textContent ?? ''), /claude-test · Anthropic/);
});
