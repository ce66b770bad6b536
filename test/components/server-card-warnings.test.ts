import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import './setup.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }], ...overrides });
}

async function settled() {
  await Promise.resolve();
  await nextFrame();
}

const HOSTILE = 'Left out 1 tool with invalid names: "<img src=x onerror=alert(1)>".';

describe('mcp-server-card catalog warnings', () => {
  it('shows nothing when the server view has no warnings', async () => {
    const card = await fixture<McpServerCardElement>(html`<mcp-server-card></mcp-server-card>`);
    card.server = server();
    await settled();
    expect(card.shadowRoot!.querySelector<HTMLDetailsElement>('details.warnings')!.hidden).to.equal(true);
    card.server = server({ warnings: [] });
    await settled();
    expect(card.shadowRoot!.querySelector<HTMLDetailsElement>('details.warnings')!.hidden).to.equal(true);
  });

  it('lists the warnings as text in a disclosure that starts collapsed and stays open across updates', async () => {
    const card = await fixture<McpServerCardElement>(html`<mcp-server-card></mcp-server-card>`);
    const warnings = ['Refused 7 tools over the limit of 128 tools per server.', HOSTILE];
    card.server = server({ warnings });
    await settled();
    const details = card.shadowRoot!.querySelector<HTMLDetailsElement>('details.warnings')!;
    expect(details.hidden).to.equal(false);
    expect(details.open).to.equal(false);
    expect(details.querySelector('summary')!.textContent).to.equal('Catalog warnings (2)');
    expect([...details.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(warnings);
    expect(details.querySelector('img')).to.equal(null);

    details.open = true;
    card.server = server({ warnings, status: 'connecting' });
    await settled();
    expect(details.open).to.equal(true);

    card.server = server({ warnings: [warnings[0]!] });
    await settled();
    expect(details.querySelector('summary')!.textContent).to.equal('Catalog warnings (1)');
    expect(details.querySelectorAll('li')).to.have.length(1);
  });
});
