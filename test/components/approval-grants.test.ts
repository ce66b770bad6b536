import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { ActivityChangedEvent, GrantsRequestEvent, RevokeGrantEvent } from '../../src/components/events.js';
import type { McpApprovalGrantsElement } from '../../src/components/mcp-approval-grants.js';
import type { GrantView } from '../../src/protocol/panel-activity.js';

const grant = (tool: string, extra: Partial<GrantView> = {}): GrantView => ({
  serverId: 'demo',
  serverName: 'Demo',
  tool,
  grantedAt: Date.UTC(2026, 0, 2, 3, 4),
  ...extra,
});

async function list() {
  const asked = new Promise((resolve) => document.addEventListener(GrantsRequestEvent.type, resolve, { once: true }));
  const el = await fixture<McpApprovalGrantsElement>(html`<mcp-approval-grants></mcp-approval-grants>`);
  await asked;
  return el;
}

describe('mcp-approval-grants', () => {
  it('asks for the grants when shown and again when they changed; says when there are none', async () => {
    const el = await list();
    expect(el.shadowRoot!.textContent).to.contain('No tool is always allowed');
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="revoke-all"]')!.hidden).to.equal(true);
    const again = oneEvent(el, GrantsRequestEvent.type);
    document.dispatchEvent(new ActivityChangedEvent('grants'));
    await again;
  });

  it('lists server, tool and when, with a Revoke named after both', async () => {
    const el = await list();
    el.grants = [grant('echo', { toolTitle: 'Echo' }), grant('add', { serverId: 'b', serverName: 'Other' })];
    await el.updateComplete;
    const rows = [...el.shadowRoot!.querySelectorAll('li')];
    expect(rows.map((r) => r.querySelector('.tool')!.textContent)).to.deep.equal(['Echo (echo)', 'add']);
    expect(rows.map((r) => r.querySelector('.server')!.textContent)).to.deep.equal(['Demo', 'Other']);
    expect(rows[0]!.querySelector('.when')!.textContent).to.match(/^Allowed /);
    expect(rows[0]!.querySelector('button')!.getAttribute('aria-label')).to.equal('Revoke Echo (echo) on Demo');
  });

  it('Revoke sends the server and tool; Revoke all sends none', async () => {
    const el = await list();
    el.grants = [grant('echo'), grant('add')];
    await el.updateComplete;
    const one = el.shadowRoot!.querySelector<HTMLButtonElement>('li button')!;
    setTimeout(() => one.click());
    const event = await oneEvent<RevokeGrantEvent>(el, RevokeGrantEvent.type);
    expect(event.grant).to.deep.equal({ serverId: 'demo', tool: 'echo' });
    expect(one.disabled).to.equal(true);
    const all = el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="revoke-all"]')!;
    expect(all.hidden).to.equal(false);
    setTimeout(() => all.click());
    expect((await oneEvent<RevokeGrantEvent>(el, RevokeGrantEvent.type)).grant).to.equal(undefined);
    el.showError('Could not revoke: boom');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('Could not revoke: boom');
    expect(one.disabled).to.equal(false);
  });

  it('renders hostile server and tool names as text, and is accessible', async () => {
    const evil = '<img src=x onerror="window.__pwnedGrant=1">';
    const el = await list();
    el.grants = [grant(evil, { serverName: evil, toolTitle: evil }), grant('echo')];
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect(el.shadowRoot!.querySelector('.server')!.textContent).to.equal(evil);
    await expect(el).to.be.accessible();
  });
});
