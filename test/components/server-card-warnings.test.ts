import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ...overrides });
}

const HOSTILE = 'Left out 1 tool with invalid names: "<img src=x onerror=alert(1)>".';

describe('mcp-server-card catalog warnings', () => {
  it('shows nothing when the server view has no warnings', async () => {
    const card = await fixture<McpServerCardElement>(html`<mcp-server-card mode="detail"></mcp-server-card>`);
    card.server = server();
    await card.updateComplete;
    expect(card.shadowRoot!.querySelector<HTMLElement>('.warnings')!.hidden).to.equal(true);
    card.server = server({ warnings: [] });
    await card.updateComplete;
    expect(card.shadowRoot!.querySelector<HTMLElement>('.warnings')!.hidden).to.equal(true);
  });

  it('lists the warnings as text, updated with the server view', async () => {
    const card = await fixture<McpServerCardElement>(html`<mcp-server-card mode="detail"></mcp-server-card>`);
    const warnings = ['Refused 7 tools over the limit of 128 tools per server.', HOSTILE];
    card.server = server({ warnings: warnings.map((message) => ({ message })) });
    await card.updateComplete;
    const details = card.shadowRoot!.querySelector<HTMLElement>('.warnings')!;
    expect(details.hidden).to.equal(false);
    expect(details.querySelector('p')!.textContent).to.equal('Catalog warnings (2)');
    expect([...details.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(warnings);
    expect(details.querySelector('img')).to.equal(null);

    card.server = server({ warnings: [{ message: warnings[0]! }] });
    await card.updateComplete;
    expect(details.querySelector('p')!.textContent).to.equal('Catalog warnings (1)');
    expect(details.querySelectorAll('li')).to.have.length(1);
  });

  it('says since when the catalog may be out of date, and nothing once it is fresh', async () => {
    const card = await fixture<McpServerCardElement>(html`<mcp-server-card mode="detail"></mcp-server-card>`);
    card.server = server();
    await card.updateComplete;
    const stale = card.shadowRoot!.querySelector<HTMLElement>('p.stale')!;
    expect(stale.hidden).to.equal(true);
    const since = new Date(2025, 0, 1, 14, 3).getTime();
    card.server = server({ status: 'disconnected', staleSince: since });
    await card.updateComplete;
    expect(stale.hidden).to.equal(false);
    const time = new Date(since).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(stale.textContent).to.equal(`The catalog may be out of date (since ${time}).`);
    card.server = server();
    await card.updateComplete;
    expect(stale.hidden).to.equal(true);
  });
});
