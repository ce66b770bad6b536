import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpServerListElement } from '../../src/components/mcp-server-list.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import { NavigateEvent, ServerActionEvent } from '../../src/components/events.js';
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

const cards = (list: McpServerListElement) => [...list.shadowRoot!.querySelectorAll<McpServerCardElement>('mcp-server-card')];

describe('mcp-server-list', () => {
  it('says what the extension does when the list is empty', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [];
    expect(list.shadowRoot!.textContent).to.contain('Use remote MCP servers in Chrome');
    expect(cards(list)).to.have.length(0);
  });

  it('two accounts on one URL keep the end of their names in view; a lone server does not split its name (S3)', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    const long = 'GitHub (work account, production tenant)';
    list.servers = [
      server({ id: 'gh', name: long, url: 'https://gh.example/mcp' }),
      server({ id: 'gh-2', name: `${long} (2)`, url: 'https://GH.example/mcp/' }),
      server({ id: 'solo', name: 'Docs server one', url: 'https://docs.example/mcp' }),
    ];
    list.style.width = '320px';
    await list.updateComplete;
    const [first, second, solo] = cards(list);
    expect(first!.hasAttribute('shared-url')).to.equal(true);
    expect(solo!.hasAttribute('shared-url')).to.equal(false);
    const name = (card: McpServerCardElement) => card.shadowRoot!.querySelector('.name')!;
    expect(name(second!).textContent).to.equal(`${long} (2)`, 'the whole name is still its text');
    const tail = name(second!).querySelector<HTMLElement>('.tail')!;
    expect(tail.textContent).to.equal(' (2)');
    const box = name(second!).getBoundingClientRect();
    const end = tail.getBoundingClientRect();
    expect(end.right).to.be.at.most(box.right + 0.5, 'the account number is not cut off');
    expect(end.width).to.be.greaterThan(10);
    expect(name(solo!).querySelector('.tail')).to.equal(null);
  });

  it('renders one row per server: name, status and its switch, named with the server', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server(), server({ id: 'other', name: 'Other', status: 'error', enabled: false, tools: [], disabledTools: [] })];
    await list.updateComplete;
    const [first, second] = cards(list);
    expect(cards(list)).to.have.length(2);
    expect(first!.shadowRoot!.querySelector('mcp-status-badge')!.getAttribute('status')).to.equal('ready');
    expect(first!.shadowRoot!.querySelector('.name')!.textContent).to.equal('Demo');
    expect(first!.shadowRoot!.querySelector('[role="switch"]')!.getAttribute('aria-label')).to.equal('Demo enabled');
    expect(first!.shadowRoot!.querySelector('[role="switch"]')!.getAttribute('aria-checked')).to.equal('true');
    expect(second!.shadowRoot!.querySelector('mcp-status-badge')!.hasAttribute('disabled')).to.equal(true);
    expect(second!.shadowRoot!.querySelector('[role="switch"]')!.getAttribute('aria-checked')).to.equal('false');
  });

  it('keeps the same card element for a server across state pushes', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server({ status: 'connecting' })];
    const before = cards(list)[0];
    list.servers = [server({ status: 'ready' })];
    expect(cards(list)[0]).to.equal(before);
  });

  it('a row opens the detail, and its switch asks to disable the server', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await list.updateComplete;
    const root = cards(list)[0]!.shadowRoot!;
    setTimeout(() => root.querySelector<HTMLButtonElement>('button.open')!.click());
    const nav = (await oneEvent(list, NavigateEvent.type)) as unknown as NavigateEvent;
    expect(nav.to).to.deep.equal({ view: 'detail', serverId: 'demo' });
    setTimeout(() => root.querySelector<HTMLButtonElement>('[role="switch"]')!.click());
    const action = (await oneEvent(list, ServerActionEvent.type)) as unknown as ServerActionEvent;
    expect([action.serverId, action.action]).to.deep.equal(['demo', 'disable']);
    expect(root.querySelector('[role="switch"]')!.getAttribute('aria-disabled')).to.equal('true');
  });

  it('renders hostile server strings as text, never as markup', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    const evil = '<img src=x onerror="window.__pwned=1">';
    list.servers = [server({ name: evil })];
    await list.updateComplete;
    const root = cards(list)[0]!.shadowRoot!;
    expect(root.querySelector('img')).to.equal(null);
    expect(root.querySelector('.name')!.textContent).to.equal(evil);
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('welcomes with Add server and Import when there is no server', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [];
    const welcome = list.shadowRoot!.querySelector<HTMLElement>('.welcome')!;
    expect(welcome.hidden).to.equal(false);
    setTimeout(() => welcome.querySelector<HTMLButtonElement>('[data-open="add"]')!.click());
    const nav = (await oneEvent(list, NavigateEvent.type)) as unknown as NavigateEvent;
    expect(nav.to).to.deep.equal({ view: 'add' });
  });

  it('after a delete, gives the focus to the next row, else the first, else the welcome heading', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server({ id: 'a', name: 'A' }), server({ id: 'c', name: 'C' })];
    await list.updateComplete;
    const next = list.focusAfterRemoval('c');
    next.focus();
    expect(next).to.equal(list.card('c'));
    expect(list.card('c')!.shadowRoot!.activeElement?.getAttribute('data-action')).to.equal('open');
    expect(list.focusAfterRemoval(undefined)).to.equal(list.card('a'));
    list.servers = [];
    const heading = list.focusAfterRemoval(undefined);
    heading.focus();
    expect([heading.localName, list.shadowRoot!.activeElement]).to.deep.equal(['h2', heading]);
  });

  it('is accessible', async () => {
    const list = await fixture<McpServerListElement>(html`<mcp-server-list></mcp-server-list>`);
    list.servers = [server()];
    await list.updateComplete;
    await expect(list).to.be.accessible();
    await expect(cards(list)[0]!).to.be.accessible();
  });
});
