import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import { serverView } from './server-view.js';
import { ChatActionEvent, type ChatAction } from '../../src/components/chat-events.js';
import type { McpChatToolsElement } from '../../src/components/mcp-chat-tools.js';
import type { McpChatLogElement } from '../../src/components/mcp-chat-log.js';
import type { ToolBudget, ChatView } from '../../src/protocol/panel-chat.js';

const tools = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${i}`, title: `${prefix} ${i}`, inputSchema: { type: 'object' as const } }));

const servers = () => [
  serverView({ id: 'big', name: 'Big', tools: tools('op', 200) }),
  serverView({ id: 'demo', name: 'Demo', tools: tools('echo', 2), disabledTools: ['echo_1'] }),
  serverView({ id: 'off', name: 'Off', enabled: false, tools: tools('x', 3) }),
];

async function picker() {
  const el = await fixture<McpChatToolsElement>(html`<mcp-chat-tools></mcp-chat-tools>`);
  const asked: Array<Extract<ChatAction, { action: 'tools' }>> = [];
  el.addEventListener(ChatActionEvent.type, (e) => {
    const d = (e as ChatActionEvent).detail;
    if (d.action === 'tools') asked.push(d);
  });
  el.servers = servers();
  el.selection = { id: 'c1', disabledTools: [], disabledServers: [] };
  await el.updateComplete;
  return { el, asked };
}

const over: ToolBudget = { selected: 201, offered: 1, bytes: 400, tokens: 100, limit: 128, search: 'over-limit', kind: 'openai' };

describe('mcp-chat-tools', () => {
  it('groups the model’s tools by server with an "all tools of" switch, and asks the worker to keep and measure each change', async () => {
    const { el, asked } = await picker();
    expect(asked.at(-1)).to.deep.equal({ action: 'tools', chatId: 'c1', disabledTools: [], disabledServers: [], toolSearch: false });
    const groups = [...el.querySelectorAll('li.server > label')].map((l) => l.textContent);
    expect(groups).to.deep.equal(['All tools of Big (200/200)', 'All tools of Demo (1/1)']);
    expect(el.querySelector('summary')!.textContent).to.contain('(201/201)');

    const big = el.querySelector<HTMLInputElement>('input[data-server="big"]')!;
    big.click();
    await el.updateComplete;
    expect(asked.at(-1)!.disabledServers).to.deep.equal(['big']);
    expect(el.querySelector('summary')!.textContent).to.contain('(1/201)');
    expect(el.querySelector<HTMLInputElement>('input[data-tool="big:op_0"]')!.disabled).to.equal(true);
    expect(el.disabledServers).to.deep.equal(['big']);

    el.querySelector<HTMLInputElement>('input[data-tool="demo:echo_0"]')!.click();
    await el.updateComplete;
    expect(asked.at(-1)!.disabledTools).to.deep.equal(['demo:echo_0']);
    const n = asked.length;
    el.servers = servers();
    await el.updateComplete;
    expect(asked.length).to.equal(n, 'an unchanged catalog is not measured again');
  });

  it('shows the estimate with its method, and above the limit says so before sending and offers both ways out', async () => {
    const { el, asked } = await picker();
    el.budget = { selected: 3, offered: 3, bytes: 224_002, tokens: 56_001, limit: 128, kind: 'openai' };
    await el.updateComplete;
    expect(el.querySelector('.tool-budget')!.textContent).to.equal(
      'Tools offered: 3 · ≈ 56,001 tokens (bytes of the tool definitions as sent ÷ 4)',
    );
    expect(el.querySelector<HTMLElement>('.tool-limit')!.hidden).to.equal(true);

    el.budget = over;
    await el.updateComplete;
    const limit = el.querySelector<HTMLElement>('.tool-limit')!;
    expect(limit.hidden).to.equal(false);
    expect(limit.querySelector('.message')!.textContent).to.equal(
      'This chat offers 201 tools; OpenAI-compatible accepts at most 128. Choose servers or turn on tool search.',
    );
    expect(el.querySelector('.tool-budget')!.textContent).to.match(/^Tool search: 1 search tool at first, ≈ 100 tokens/);

    limit.querySelector<HTMLButtonElement>('button.choose-servers')!.click();
    expect(el.querySelector('details')!.open).to.equal(true);
    expect(document.activeElement).to.equal(el.querySelector('input[data-server="big"]'));

    limit.querySelector<HTMLButtonElement>('button.use-search')!.click();
    await el.updateComplete;
    expect(asked.at(-1)!.toolSearch).to.equal(true);
    expect(el.toolSearch).to.equal(true);
    expect(el.querySelector<HTMLInputElement>('input[name="tool-search"]')!.checked).to.equal(true);
    expect(limit.hidden).to.equal(true, 'tool search chosen: nothing more to say');
  });

  it('shows the chat’s own selection when another chat is opened, and measures again when the provider changes', async () => {
    const { el, asked } = await picker();
    el.selection = { id: 'c2', disabledTools: ['demo:echo_0'], disabledServers: ['big'], toolSearch: true };
    await el.updateComplete;
    expect(el.querySelector<HTMLInputElement>('input[data-server="big"]')!.checked).to.equal(false);
    expect(el.querySelector<HTMLInputElement>('input[data-tool="demo:echo_0"]')!.checked).to.equal(false);
    expect(el.querySelector<HTMLInputElement>('input[name="tool-search"]')!.checked).to.equal(true);
    expect(asked.at(-1)!.chatId).to.equal('c2');
    const n = asked.length;
    el.provider = { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'c', hasKey: true, maxSteps: 5, toolLimit: 40 };
    await el.updateComplete;
    expect(asked.length).to.equal(n + 1);
  });
});

describe('tool-search lines in the chat log', () => {
  it('says why tool search is on and which tools were loaded for which query, as text', async () => {
    const log = await fixture<McpChatLogElement>(html`<mcp-chat-log></mcp-chat-log>`);
    const chat: ChatView = {
      id: 'c1',
      title: '',
      createdAt: 0,
      updatedAt: 0,
      disabledTools: [],
      status: 'idle',
      entries: [
        { kind: 'tool-search', id: 't1', reason: 'over-limit', offered: 1011, limit: 128 },
        { kind: 'tools-loaded', id: 't2', query: 'weather in Paris', tools: ['Weather · <img src=x>', 'Forecast · Met'] },
        { kind: 'tools-loaded', id: 't3', query: 'nothing', tools: [] },
      ],
    };
    log.chat = chat;
    await log.updateComplete;
    const lines = [...log.querySelectorAll('li.tool-line')].map((li) => li.textContent);
    expect(lines).to.deep.equal([
      'This chat offers 1,011 tools, more than the provider’s limit of 128: the model looks up the tools it needs with tool search.',
      'Loaded 2 tools for “weather in Paris”: Weather · <img src=x>, Forecast · Met',
      'Found no tools for “nothing”.',
    ]);
    expect(log.querySelector('img')).to.equal(null);
  });
});
