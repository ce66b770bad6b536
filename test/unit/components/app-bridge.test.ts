/**
 * The MCP Apps bridge without a DOM (src/components/app-bridge.ts): the host's teardown request
 * runs on the shared request peer (answered, timed out, ended by close), and each view request
 * is answered by its own unit (links, chat suggestions, display mode, tool calls, bounds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppBridge, MAX_HEIGHT, MIN_HEIGHT, VIEW_RATE, type BridgeHost } from '../../../src/components/app-bridge.js';
import type { HostMessage } from '../../../src/protocol/app-view.js';

type Sent = HostMessage & {
  id?: number | string;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

function setup(host: Partial<BridgeHost> = {}, now: () => number = Date.now) {
  const sent: Sent[] = [];
  const cancelled: string[] = [];
  let op = 0;
  const full: BridgeHost = {
    callTool: async () => ({ ok: true, value: { content: [] } }),
    cancel: (id) => void cancelled.push(id),
    readResource: async () => ({ ok: false, message: 'no resource' }),
    offerLink: async () => true,
    setHeight: () => undefined,
    setDisplayMode: (mode) => mode,
    offerFullscreen: () => undefined,
    stop: () => undefined,
    newOperationId: () => `op${++op}`,
    ...host,
  };
  const bridge = new AppBridge(
    { tool: { name: 't', inputSchema: { type: 'object' } }, arguments: {} },
    full,
    (m) => void sent.push(m as Sent),
    () => ({}),
    now,
  );
  const ask = (id: number, method: string, params: unknown, active = false) =>
    bridge.receive(JSON.stringify({ jsonrpc: '2.0', id, method, params }), active);
  const answerTo = async (id: number): Promise<Sent> => {
    for (let i = 0; i < 50; i++) {
      const found = sent.find((m) => m.id === id && !('method' in m));
      if (found) return found;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error(`no answer to ${id}`);
  };
  return { bridge, sent, cancelled, ask, answerTo };
}

const teardownRequest = (sent: Sent[]) => sent.find((m) => m.method === 'ui/resource-teardown')!;

test('teardown asks the view and resolves true when it answers, even with an error; nothing is sent after', async () => {
  for (const reply of [{ result: {} }, { error: { code: -32000, message: 'cannot' } }]) {
    const { bridge, sent } = setup();
    const done = bridge.teardown(1000);
    const request = teardownRequest(sent);
    assert.equal(typeof request.id, 'number');
    bridge.receive(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...reply }));
    assert.equal(await done, true);
    const count = sent.length;
    bridge.setDisplayMode('fullscreen');
    assert.equal(sent.length, count);
  }
});

test('teardown gives up after its timeout, and an answer to another id does not end it', async () => {
  const { bridge, sent } = setup();
  const started = Date.now();
  const done = bridge.teardown(30);
  const request = teardownRequest(sent);
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    bridge.receive(JSON.stringify({ jsonrpc: '2.0', id: (request.id as number) + 1, result: {} }));
  } finally {
    console.warn = warn;
  }
  assert.equal(await done, false);
  assert.ok(Date.now() - started >= 25);
});

test('close() ends a teardown still waiting at once, and cancels the view’s calls in flight', async () => {
  let finish: () => void = () => undefined;
  const { bridge, sent, cancelled, ask } = setup({
    callTool: () => new Promise((r) => (finish = () => r({ ok: true, value: { content: [] } }))),
  });
  ask(1, 'tools/call', { name: 'slow' });
  await new Promise((r) => setImmediate(r));
  const done = bridge.teardown(10_000);
  assert.ok(teardownRequest(sent));
  assert.deepEqual(cancelled, ['op1']);
  bridge.close();
  assert.equal(await done, false);
  finish();
});

test('ui/open-link offers only http(s) links', async () => {
  const offered: string[] = [];
  const { ask, answerTo } = setup({ offerLink: async (url) => (offered.push(url), url.includes('yes')) });
  ask(1, 'ui/open-link', { url: 'javascript:alert(1)' });
  ask(2, 'ui/open-link', { url: 'not a url' });
  ask(3, 'ui/open-link', { url: 'https://example.com/yes' });
  ask(4, 'ui/open-link', { url: 'http://example.com/no' });
  assert.equal((await answerTo(1)).error?.code, -32602);
  assert.equal((await answerTo(2)).error?.code, -32602);
  assert.deepEqual((await answerTo(3)).result, {});
  assert.deepEqual((await answerTo(4)).result, { isError: true });
  assert.deepEqual(offered, ['https://example.com/yes', 'http://example.com/no']);
});

test('ui/message hands the text parts to the chat as a suggestion, and is an error without a chat or text', async () => {
  const said: string[] = [];
  const withChat = setup({ suggest: (text) => (said.push(text), true) });
  withChat.ask(1, 'ui/message', {
    role: 'user',
    content: [{ type: 'text', text: ' one' }, { type: 'image' }, { type: 'text', text: 'two ' }],
  });
  withChat.ask(2, 'ui/message', { role: 'user', content: [{ type: 'image' }] });
  assert.deepEqual((await withChat.answerTo(1)).result, {});
  assert.deepEqual((await withChat.answerTo(2)).result, { isError: true });
  assert.deepEqual(said, ['one\n\ntwo']);
  const noChat = setup();
  noChat.ask(1, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual((await noChat.answerTo(1)).result, { isError: true });
});

test('tools/call: a failed call is a server error with its message, and a fifth call in flight is refused', async () => {
  const waiting: (() => void)[] = [];
  const { ask, answerTo } = setup({
    callTool: (name) =>
      name === 'bad'
        ? Promise.resolve({ ok: false, message: 'it broke' })
        : new Promise((r) => waiting.push(() => r({ ok: true, value: { content: [{ type: 'text', text: name }] } }))),
  });
  ask(1, 'tools/call', { name: 'bad' });
  assert.deepEqual((await answerTo(1)).error, { code: -32000, message: 'it broke' });
  for (let i = 2; i <= 6; i++) ask(i, 'tools/call', { name: `t${i}` });
  assert.deepEqual((await answerTo(6)).error, { code: -32000, message: 'Too many tool calls in flight from this view.' });
  waiting.forEach((finish) => finish());
  assert.deepEqual((await answerTo(2)).result, { content: [{ type: 'text', text: 't2' }] });
});

test('resources/read and ping: the host’s failure is a server error; ping answers empty', async () => {
  const { ask, answerTo } = setup();
  ask(1, 'resources/read', { uri: 'ui://x' });
  ask(2, 'ping', {});
  assert.deepEqual((await answerTo(1)).error, { code: -32000, message: 'no resource' });
  assert.deepEqual((await answerTo(2)).result, {});
});

test('U4: full panel only while the user interacts with the view; otherwise it is offered, and inline is always allowed', async () => {
  const modes: string[] = [];
  let offers = 0;
  const { ask, answerTo } = setup({ setDisplayMode: (mode) => (modes.push(mode), mode), offerFullscreen: () => void offers++ });
  ask(1, 'ui/request-display-mode', { mode: 'fullscreen' });
  assert.deepEqual((await answerTo(1)).result, { mode: 'inline' });
  assert.deepEqual(modes, []);
  assert.equal(offers, 1);
  ask(2, 'ui/request-display-mode', { mode: 'fullscreen' }, true);
  assert.deepEqual((await answerTo(2)).result, { mode: 'fullscreen' });
  ask(3, 'ui/request-display-mode', { mode: 'inline' });
  assert.deepEqual((await answerTo(3)).result, { mode: 'inline' });
  assert.deepEqual(modes, ['fullscreen', 'inline']);
  assert.equal(offers, 1);
});

test('U4: a height is clamped to the host’s bounds, never dropped for being large', () => {
  const heights: number[] = [];
  const { bridge } = setup({ setHeight: (px) => void heights.push(px) });
  const size = (height: number) =>
    bridge.receive(JSON.stringify({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height } }));
  size(500_000);
  size(3);
  size(300.4);
  assert.deepEqual(heights, [MAX_HEIGHT, MIN_HEIGHT, 300]);
  assert.equal(bridge.dropped, 0);
});

test('U4: a request over the rate is answered with an error at once', async () => {
  const { ask, sent } = setup({}, () => 0);
  const total = VIEW_RATE.burst + 5;
  for (let i = 1; i <= total; i++) ask(i, 'ping', {});
  await new Promise((r) => setImmediate(r));
  const answers = sent.filter((m) => typeof m.id === 'number');
  assert.equal(answers.length, total);
  const refused = answers.filter((m) => m.error?.code === -32000 && /Too many messages/.test(m.error.message));
  assert.equal(refused.length, 5);
});
