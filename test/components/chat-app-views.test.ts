import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import { nextTask, pollUntil } from './wait.js';
import type { McpChatViewElement } from '../../src/components/mcp-chat-view.js';
import type { McpAppViewElement } from '../../src/components/mcp-app-view.js';
import { AppHostRequestEvent, type AppViewHost } from '../../src/components/events.js';
import type { ChatEntry, ChatView } from '../../src/protocol/panel-chat.js';
import { serverView } from './server-view.js';

/** A view that reports, after the result (or a cancellation), the notifications it got and the result's text. */
const APP = `<!doctype html><script>
let id = 0; const got = [];
const report = (extra) => parent.postMessage({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'report', arguments: { got, ...extra } } }, '*');
addEventListener('message', (e) => {
  const m = e.data;
  if (!m.method) return;
  got.push(m.method);
  if (m.method === 'ui/notifications/tool-input') parent.postMessage({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'input', arguments: m.params.arguments } }, '*');
  if (m.method === 'ui/notifications/tool-result') report({ text: m.params.content[0].text });
  if (m.method === 'ui/notifications/tool-cancelled') report({ reason: m.params.reason });
});
parent.postMessage({ jsonrpc: '2.0', id: ++id, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 't', version: '1' }, appCapabilities: {} } }, '*');
setTimeout(() => parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*'), 50);
</script>`;

const TOOL = { name: 'show', title: 'Show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://demo/show' } } };
const step = (id: string, status: 'running' | 'waiting-approval' | 'done' | 'denied', result?: string): ChatEntry => ({
  kind: 'tool',
  id,
  callId: `call-${id}`,
  name: 'demo__show',
  serverId: 'demo',
  serverName: 'Demo',
  toolName: 'show',
  arguments: '{"a":1}',
  status,
  startedAt: 1,
  ...(result !== undefined ? { result } : {}),
});
const chatWith = (status: 'running' | 'idle', entries: ChatEntry[]): ChatView => ({
  id: 'c1',
  title: 'Apps',
  createdAt: 1,
  updatedAt: 2,
  disabledTools: [],
  status,
  entries: [{ kind: 'user', id: 'u1', text: 'show it', blocks: [] }, ...entries],
});

describe('mcp-chat-view: MCP App views in tool steps', () => {
  let calls: { tool: string; args: Record<string, unknown> }[] = [];
  let loads = 0;
  let reports: Record<string, unknown>[] = [];
  const host: AppViewHost = {
    loadView: async () => {
      loads++;
      return { ok: true, value: { html: APP, meta: {}, serverName: 'Demo', serverOnLoopback: false } };
    },
    callTool: async (_s, _v, tool, args) => {
      calls.push({ tool, args });
      if (tool === 'report') reports.push(args);
      return { ok: true, value: { content: [] } };
    },
    cancel: () => undefined,
    readResource: async () => ({ ok: false, message: 'no' }),
  };
  // The views live in the chat's shadow DOM: the element that asks is the first of the event's path.
  const give = (e: AppHostRequestEvent) => {
    (e.composedPath()[0] as McpAppViewElement).sandboxUrl = '/test/components/app-sandbox-fixture.html';
    e.host = host;
  };
  // This file's page only: every view in it gets the fixture host.
  document.addEventListener(AppHostRequestEvent.type, give);

  const until = async (what: string, ok: () => boolean) => {
    if (!(await pollUntil(ok, 200, 25))) throw new Error(`timed out waiting for ${what}`);
  };

  async function chatView(): Promise<McpChatViewElement> {
    calls = [];
    loads = 0;
    reports = [];
    const el = await fixture<McpChatViewElement>(html`<mcp-chat-view></mcp-chat-view>`);
    el.provider = { kind: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm1', hasKey: false, maxSteps: 20 };
    el.servers = [serverView({ tools: [TOOL] })];
    return el;
  }

  it('a step seen starting shows its view with the input, then the result when it arrives, and keeps the same view across pushes', async () => {
    const el = await chatView();
    el.chat = chatWith('running', [step('t1', 'running')]);
    await el.updateComplete;
    const app = el.shadowRoot!.querySelector('li.step-with-app mcp-app-view')!;
    expect(app).to.not.equal(null);
    await until('the input', () => calls.some((c) => c.tool === 'input'));
    expect(calls.find((c) => c.tool === 'input')!.args).to.deep.equal({ a: 1 });
    expect(reports).to.deep.equal([]);
    const frame = app.shadowRoot!.querySelector('iframe');
    // The worker pushes the result for the view, then the chat with the settled step.
    el.toolResult('c1', 't1', { content: [{ type: 'text', text: 'the result' }] });
    el.chat = chatWith('idle', [
      step('t1', 'done', 'fenced for the model'),
      { kind: 'assistant', id: 'a2', text: 'Shown.', toolCalls: [] },
    ]);
    await until('the result', () => reports.length === 1);
    expect(reports[0]).to.deep.equal({ got: ['ui/notifications/tool-input', 'ui/notifications/tool-result'], text: 'the result' });
    expect(el.shadowRoot!.querySelector('mcp-app-view')).to.equal(app);
    expect(app.shadowRoot!.querySelector('iframe')).to.equal(frame);
    expect(loads).to.equal(1);
  });

  it('a step waiting for its approval is not over: the view gets the result once the call is allowed and done', async () => {
    const el = await chatView();
    el.chat = chatWith('running', [step('t1', 'running')]);
    await el.updateComplete;
    await until('the input', () => calls.some((c) => c.tool === 'input'));
    // The approval card opens and is answered: the step waits, then runs again.
    el.chat = chatWith('running', [step('t1', 'waiting-approval')]);
    await el.updateComplete;
    el.chat = chatWith('running', [step('t1', 'running')]);
    await el.updateComplete;
    el.toolResult('c1', 't1', { content: [{ type: 'text', text: 'allowed result' }] });
    el.chat = chatWith('idle', [step('t1', 'done', 'fenced for the model')]);
    await until('the result', () => reports.length === 1);
    expect(reports[0]).to.deep.equal({ got: ['ui/notifications/tool-input', 'ui/notifications/tool-result'], text: 'allowed result' });
  });

  it('a denied step tells its view the call was cancelled', async () => {
    const el = await chatView();
    el.chat = chatWith('running', [step('t1', 'running')]);
    await el.updateComplete;
    el.chat = chatWith('idle', [step('t1', 'denied', 'The call was denied by the user; it was not run.')]);
    await until('the cancellation', () => reports.length === 1);
    expect(reports[0]).to.deep.equal({ got: ['ui/notifications/tool-input', 'ui/notifications/tool-cancelled'], reason: 'denied' });
  });

  it('a step from history loads nothing until the user clicks Show the app', async () => {
    const el = await chatView();
    el.chat = chatWith('idle', [step('t1', 'done', 'earlier result')]);
    await nextTask(100);
    expect(el.shadowRoot!.querySelector('mcp-app-view')).to.equal(null);
    expect(loads).to.equal(0);
    (el.shadowRoot!.querySelector('button.show-app') as HTMLButtonElement).click();
    await until('the result', () => reports.length === 1);
    expect(loads).to.equal(1);
    expect(reports[0]!.text).to.equal('earlier result');
  });

  it('keeps at most three live views: the oldest is torn down to its button', async () => {
    const el = await chatView();
    const ids = ['t1', 't2', 't3', 't4'];
    el.chat = chatWith('running', []);
    for (let i = 1; i <= ids.length; i++) {
      el.chat = chatWith(
        'running',
        ids.slice(0, i).map((id) => step(id, 'running')),
      );
      await el.updateComplete;
    }
    const live = () => [...el.shadowRoot!.querySelectorAll<HTMLElement>('mcp-app-view')].filter((a) => !a.hidden);
    expect(live().length).to.equal(3);
    const first = el.shadowRoot!.querySelector('details[data-id="t1"]')!.parentElement!;
    expect(first.querySelector('button.show-app')).to.not.equal(null);
    (first.querySelector('button.show-app') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(live().length).to.equal(3);
    expect(el.shadowRoot!.querySelector('details[data-id="t2"]')!.parentElement!.querySelector('button.show-app')).to.not.equal(null);
  });
});
