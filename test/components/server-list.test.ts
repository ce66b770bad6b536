import { expect, fixture, html, oneEvent, nextFrame } from '@open-wc/testing';
import './setup.js';
import type { McpServerListElement } from '../../src/components/mcp-server-list.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import { ServerActionEvent, ToolToggleEvent } from '../../src/components/events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({
    tools: [
      { name: 'echo', title: 'Echo', description: 'Echoes', inputSchema: { type: 'object' } },
      { name: 'add', description: 'Adds', inputSchema: { type: 'object' } },
    ],
    disabledTools: ['add'],
    ...overrides,
  });
}

async function settled() {
  await Promise.resolve();
  await nextFrame();
}

const cards = (list: McpServerListElement) => [...list.shadowRoot!.querySelectorAll<McpServerCardElement>('mcp-server-card')];

describe('mcp-server-list', () => {
  it('says there are no servers when the list is empty', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [];
    expect(list.shadowRoot!.textContent).to.contain('No servers yet');
    expect(cards(list)).to.have.length(0);
  });

  it('renders one card per server with status, URL and enabled tool count', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [
      server(),
      server({
        id: 'other',
        name: 'Other',
        status: 'error',
        reason: { kind: 'network', message: 'Could not reach it.' },
        tools: [],
        disabledTools: [],
      }),
    ];
    await settled();
    const [first, second] = cards(list);
    expect(cards(list)).to.have.length(2);
    expect(first!.shadowRoot!.querySelector('mcp-status-badge')!.getAttribute('status')).to.equal('ready');
    expect(first!.shadowRoot!.querySelector('.tool-count')!.textContent).to.equal('1 of 2 tools enabled');
    expect(first!.shadowRoot!.querySelector('.url')!.textContent).to.equal('https://mcp.example.com/mcp');
    expect(second!.shadowRoot!.querySelector('.reason')!.textContent).to.equal('Could not reach it.');
  });

  it('keeps the same card element for a server across state pushes', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server({ status: 'connecting' })];
    const before = cards(list)[0];
    list.servers = [server({ status: 'ready' })];
    expect(cards(list)[0]).to.equal(before);
  });

  it('asks for confirmation before sending a delete', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await settled();
    const card = cards(list)[0]!;
    let deletes = 0;
    list.addEventListener(ServerActionEvent.type, (e) => {
      if (e.action === 'delete') deletes++;
    });
    card.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="delete"]')!.click();
    expect(deletes).to.equal(0);
    expect(card.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.equal('Delete "Demo"?');
    const confirmed = oneEvent(list, ServerActionEvent.type);
    card.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="confirm-delete"]')!.click();
    const event = (await confirmed) as unknown as ServerActionEvent;
    expect(event.serverId).to.equal('demo');
    expect(deletes).to.equal(1);
  });

  it('emits a tool toggle with the new state', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await settled();
    const box = cards(list)[0]!
      .shadowRoot!.querySelector('mcp-tool-list')!
      .shadowRoot!.querySelector<HTMLInputElement>('input[data-tool="add"]')!;
    expect(box.checked).to.equal(false);
    const toggled = oneEvent(list, ToolToggleEvent.type);
    box.click();
    const e = (await toggled) as unknown as ToolToggleEvent;
    expect([e.serverId, e.tool, e.enabled]).to.deep.equal(['demo', 'add', true]);
  });

  it('renders hostile server strings as text, never as markup', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    const evil = '<img src=x onerror="window.__pwned=1">';
    list.servers = [server({ name: evil, tools: [{ name: 'x', title: evil, description: evil, inputSchema: {} }], disabledTools: [] })];
    await settled();
    const root = cards(list)[0]!.shadowRoot!;
    const toolRoot = root.querySelector('mcp-tool-list')!.shadowRoot!;
    expect(root.querySelector('img')).to.equal(null);
    expect(toolRoot.querySelector('img')).to.equal(null);
    expect(root.querySelector('h3')!.textContent).to.equal(evil);
    expect(toolRoot.querySelector('.desc')!.textContent).to.equal(evil);
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('shows the latency of "Test connection" on the card that asked', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server(), server({ id: 'other', name: 'Other' })];
    await settled();
    const card = cards(list)[0]!;
    const asked = oneEvent(list, ServerActionEvent.type);
    card.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="ping"]')!.click();
    const e = (await asked) as unknown as ServerActionEvent;
    expect([e.serverId, e.action]).to.deep.equal(['demo', 'ping']);
    expect(card.shadowRoot!.querySelector('.ping')!.textContent).to.equal('Testing…');
    list.showPing('demo', { ok: true, latencyMs: 12.4 });
    expect(card.shadowRoot!.querySelector('.ping')!.textContent).to.equal('Answered in 12 ms');
    expect(cards(list)[1]!.shadowRoot!.querySelector('.ping')!.textContent).to.equal('');
    list.showPing('demo', { ok: false, message: 'timed out' });
    expect(card.shadowRoot!.querySelector('.ping')!.textContent).to.equal('No answer: timed out');
  });

  it('offers "Test connection" only when the server is ready', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server({ status: 'disconnected' })];
    await settled();
    expect(cards(list)[0]!.shadowRoot!.querySelector('[data-action="ping"]')).to.equal(null);
  });

  it('keeps focus in the tool search across a state push', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await settled();
    const toolList = cards(list)[0]!.shadowRoot!.querySelector('mcp-tool-list')!;
    const search = toolList.shadowRoot!.querySelector<HTMLInputElement>('input[type=search]')!;
    search.focus();
    list.servers = [server({ status: 'connecting' })];
    await settled();
    expect(toolList.shadowRoot!.activeElement).to.equal(search);
    expect(cards(list)[0]!.shadowRoot!.querySelector('mcp-tool-list')).to.equal(toolList);
  });

  it('is accessible', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await settled();
    await expect(list).to.be.accessible();
    await expect(cards(list)[0]!).to.be.accessible();
  });
});
