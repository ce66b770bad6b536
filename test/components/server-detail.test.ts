/** The server detail view: header, sections, Settings' confirmed delete, tool toggles, focus kept across pushes. */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpServerDetailElement } from '../../src/components/mcp-server-detail.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import { NavigateEvent, ServerActionEvent, ToolToggleEvent } from '../../src/components/events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import type { ServerSettings } from '../../src/protocol/panel-edit.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({
    tools: [
      { name: 'echo', title: 'Echo', description: 'Echoes', inputSchema: { type: 'object' } },
      { name: 'add', description: 'Adds', inputSchema: { type: 'object' } },
    ],
    prompts: [{ name: 'greet', description: 'Says hello', arguments: [{ name: 'who', required: true }] }],
    resources: [{ uri: 'file:///readme.md', name: 'README' }],
    disabledTools: ['add'],
    ...overrides,
  });
}

async function detail(view: ServerView) {
  const el = await fixture<McpServerDetailElement>(html`<mcp-server-detail></mcp-server-detail>`);
  el.server = view;
  await el.updateComplete;
  return el;
}

const SETTINGS: ServerSettings = {
  name: 'Demo',
  url: 'https://mcp.example.com/mcp',
  authKind: 'none',
  hasClientSecret: false,
  authorized: false,
  headers: [],
  connectOnStartup: true,
  alwaysGrants: 0,
};

const part = (el: McpServerDetailElement, mode: string) =>
  el.shadowRoot!.querySelector<McpServerCardElement>(`mcp-server-card[mode="${mode}"]`)!;
const toolList = (el: McpServerDetailElement) => el.shadowRoot!.querySelector('mcp-tool-list')!;

describe('mcp-server-detail', () => {
  it('shows the header with URL and tool count, and prompts and resources as text', async () => {
    const el = await detail(server());
    const header = part(el, 'detail').shadowRoot!;
    expect(header.querySelector('h2')!.textContent).to.equal('Demo');
    expect(header.querySelector('.url')!.textContent).to.equal('https://mcp.example.com/mcp');
    expect(header.querySelector('.tool-count')!.textContent).to.equal('1 of 2 tools enabled');
    expect(el.shadowRoot!.querySelector('[data-section="prompts"]')!.textContent).to.contain('who*');
    expect(el.shadowRoot!.querySelector('[data-section="resources"]')!.textContent).to.contain('file:///readme.md');
  });

  it('asks for confirmation in Settings before sending a delete, named with the server', async () => {
    const el = await detail(server());
    const settings = part(el, 'settings');
    let deletes = 0;
    el.addEventListener(ServerActionEvent.type, (e) => {
      if (e.action === 'delete') deletes++;
    });
    const del = settings.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="delete"]')!;
    expect(del.getAttribute('aria-label')).to.equal('Delete Demo');
    del.click();
    expect(deletes).to.equal(0);
    expect(settings.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.equal('Delete "Demo"?');
    const confirmed = oneEvent(el, ServerActionEvent.type);
    settings.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="confirm-delete"]')!.click();
    const event = (await confirmed) as unknown as ServerActionEvent;
    expect(event.serverId).to.equal('demo');
    expect(deletes).to.equal(1);
  });

  it('emits a tool toggle, and a tool name opens the tool view', async () => {
    const el = await detail(server());
    const root = toolList(el).shadowRoot!;
    const box = root.querySelector<HTMLInputElement>('input[data-tool="add"]')!;
    expect(box.checked).to.equal(false);
    const toggled = oneEvent(el, ToolToggleEvent.type);
    box.click();
    const e = (await toggled) as unknown as ToolToggleEvent;
    expect([e.serverId, e.tool, e.enabled]).to.deep.equal(['demo', 'add', true]);
    setTimeout(() => root.querySelector<HTMLButtonElement>('button.name[data-tool="echo"]')!.click());
    const nav = (await oneEvent(el, NavigateEvent.type)) as unknown as NavigateEvent;
    expect(nav.to).to.deep.equal({ view: 'tool', serverId: 'demo', tool: 'echo' });
  });

  it('shows the latency of "Test connection" on the header that asked', async () => {
    const el = await detail(server());
    const header = part(el, 'detail');
    const asked = oneEvent(el, ServerActionEvent.type);
    header.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="ping"]')!.click();
    const e = (await asked) as unknown as ServerActionEvent;
    expect([e.serverId, e.action]).to.deep.equal(['demo', 'ping']);
    expect(header.shadowRoot!.querySelector('.ping')!.textContent).to.equal('Testing…');
    header.showPing({ ok: true, latencyMs: 12.4 });
    expect(header.shadowRoot!.querySelector('.ping')!.textContent).to.equal('Answered in 12 ms');
    header.showPing({ ok: false, message: 'timed out' });
    expect(header.shadowRoot!.querySelector('.ping')!.textContent).to.equal('No answer: timed out');
  });

  it('keeps focus in the tool search across a state push, and names the search with the server', async () => {
    const el = await detail(server());
    const search = toolList(el).shadowRoot!.querySelector<HTMLInputElement>('input[type=search]')!;
    expect(search.getAttribute('aria-label')).to.equal('Search tools of Demo');
    search.focus();
    el.server = server({ status: 'connecting' });
    await el.updateComplete;
    expect(toolList(el).shadowRoot!.activeElement).to.equal(search);
  });

  it('"Edit settings" opens the Settings section here', async () => {
    const el = await detail(server({ status: 'error', reason: { kind: 'auth', message: 'Update it.', action: 'edit' } }));
    part(el, 'detail').shadowRoot!.querySelector<HTMLButtonElement>('[data-action="edit"]')!.click();
    expect(el.shadowRoot!.querySelector<HTMLDetailsElement>('[data-section="settings"]')!.open).to.equal(true);
  });

  it('"Update token" on a server that refused its token puts the focus in the token field once the settings are in', async () => {
    const el = await detail(
      server({
        authKind: 'bearer',
        status: 'error',
        reason: { kind: 'auth', message: 'The token was rejected — update it.', action: 'edit' },
      }),
    );
    const update = part(el, 'detail').shadowRoot!.querySelector<HTMLButtonElement>('[data-action="edit"]')!;
    expect([update.textContent, update.dataset.role]).to.deep.equal(['Update token', 'primary']);
    update.click();
    const settings = el.shadowRoot!.querySelector('mcp-server-settings')!;
    // The worker's answer to the settings request arrives after the click.
    settings.settings = { ...SETTINGS, authKind: 'bearer' };
    expect(settings.shadowRoot!.activeElement?.getAttribute('name')).to.equal('token');
  });

  it('"Edit settings" puts the focus in the field its reason is about', async () => {
    const el = await detail(
      server({ authKind: 'none', status: 'error', reason: { kind: 'timeout', message: 'Too slow.', action: 'edit' } }),
    );
    const settings = el.shadowRoot!.querySelector('mcp-server-settings')!;
    settings.settings = { ...SETTINGS, authKind: 'none' };
    part(el, 'detail').shadowRoot!.querySelector<HTMLButtonElement>('[data-action="edit"]')!.click();
    expect(settings.shadowRoot!.activeElement?.getAttribute('name')).to.equal('connect-timeout');
  });

  it('names each tool\'s "Input schema" with its tool, so no two controls share a name', async () => {
    const el = await detail(server());
    await toolList(el).updateComplete;
    await new Promise((r) => setTimeout(r, 50));
    const names = [...toolList(el).shadowRoot!.querySelectorAll('summary')].map((s) => s.getAttribute('aria-label'));
    expect(names).to.deep.equal(['Input schema of Echo', 'Input schema of add']);
  });

  it('is accessible', async () => {
    const el = await detail(server());
    await expect(el).to.be.accessible();
  });
});
