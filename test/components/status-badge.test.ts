import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpStatusBadgeElement } from '../../src/components/mcp-status-badge.js';

const label = (el: McpStatusBadgeElement) => el.shadowRoot!.querySelector<HTMLElement>('.word')!;
const badge = (el: McpStatusBadgeElement) => el.shadowRoot!.querySelector<HTMLElement>('.badge')!;

describe('mcp-status-badge', () => {
  it('shows the label of its status and is not a live region (a reconnect is not announced)', async () => {
    const el = await fixture<McpStatusBadgeElement>(html`<mcp-status-badge status="ready"></mcp-status-badge>`);
    expect(label(el).textContent).to.equal('Ready');
    expect(el.shadowRoot!.querySelector('[role="status"], [aria-live]')).to.equal(null);
    expect(badge(el).dataset.status).to.equal('ready');
  });

  it('says Disabled for a server switched off, whatever its connection state', async () => {
    const el = await fixture<McpStatusBadgeElement>(html`<mcp-status-badge status="disconnected" disabled></mcp-status-badge>`);
    expect(label(el).textContent).to.equal('Disabled');
    el.removeAttribute('disabled');
    expect(label(el).textContent).to.equal('Disconnected');
  });

  it('updates when the status attribute changes', async () => {
    const el = await fixture<McpStatusBadgeElement>(html`<mcp-status-badge status="connecting"></mcp-status-badge>`);
    expect(label(el).textContent).to.equal('Connecting…');
    el.status = 'needs-auth';
    expect(label(el).textContent).to.equal('Needs authorization');
  });

  it('falls back to disconnected for an unknown status', async () => {
    const el = await fixture<McpStatusBadgeElement>(html`<mcp-status-badge status="bogus"></mcp-status-badge>`);
    expect(el.status).to.equal('disconnected');
    expect(label(el).textContent).to.equal('Disconnected');
  });

  it('is accessible', async () => {
    const el = await fixture(html`<mcp-status-badge status="error"></mcp-status-badge>`);
    await expect(el).to.be.accessible();
  });
});
