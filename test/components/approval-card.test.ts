import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpApprovalCardElement } from '../../src/components/mcp-approval-card.js';
import { ApprovalDecisionEvent, ApprovalDismissEvent } from '../../src/components/events.js';
import type { ApprovalView } from '../../src/protocol/panel-use.js';

const view = (extra: Partial<ApprovalView> = {}): ApprovalView => ({
  id: 'ap1',
  serverId: 'demo',
  serverName: 'Demo <b>server</b>',
  tool: 'echo',
  toolTitle: 'Echo',
  agentName: 'Agent',
  argumentsJson: '{\n  "text": "<img src=x onerror=alert(1)>"\n}',
  annotations: { readOnlyHint: true, destructiveHint: false },
  requestedAt: 0,
  ...extra,
});

async function card(v: ApprovalView) {
  const el = await fixture<McpApprovalCardElement>(html`<mcp-approval-card></mcp-approval-card>`);
  el.approval = v;
  await el.updateComplete;
  return el;
}

describe('mcp-approval-card', () => {
  it('names the extension’s own callers (a view, the chat) from the catalog, so in the user’s language', async () => {
    const ours = await card(view({ agentName: 'The view of "Show"', agentWording: { code: 'reasonAgentView', params: { tool: 'Show' } } }));
    expect(ours.shadowRoot!.querySelector('.from')!.textContent).to.equal(
      'The view of "Show" wants to call Echo (echo) on Demo <b>server</b>',
    );
    const chat = await card(view({ agentName: 'Chat', agentWording: { code: 'reasonAgentChat' } }));
    expect(chat.shadowRoot!.querySelector('.from')!.textContent).to.match(/^The chat wants to call/);
  });

  it('names the agent, tool and server, and shows the arguments readably, as text', async () => {
    const el = await card(view());
    const root = el.shadowRoot!;
    expect(root.querySelector('.from')!.textContent).to.equal('Agent wants to call Echo (echo) on Demo <b>server</b>');
    expect([...root.querySelectorAll('dt')].map((d) => d.textContent)).to.deep.equal(['text']);
    expect(root.querySelector('dd')!.textContent).to.equal('<img src=x onerror=alert(1)>');
    expect(root.querySelector('pre.arguments')!.textContent).to.contain('<img src=x onerror=alert(1)>');
    expect(root.querySelector('img')).to.equal(null);
    expect(root.querySelector('b')).to.equal(null);
  });

  it('shows arguments cut for display as the raw text', async () => {
    const el = await card(view({ argumentsJson: '{\n  "text": "abc\n[… 5 more characters not shown]' }));
    expect(el.shadowRoot!.querySelector('dl')).to.equal(null);
    expect(el.shadowRoot!.querySelector('pre.arguments')!.textContent).to.contain('more characters not shown');
  });

  it('says in words what a read-only tool claims, and offers all three answers', async () => {
    const el = await card(view());
    const root = el.shadowRoot!;
    expect([...root.querySelectorAll('.claims li')].map((l) => l.textContent)).to.deep.equal([
      'The server says this tool only reads data — this is not verified.',
    ]);
    expect(root.textContent).not.to.contain('readOnlyHint');
    const decisions = [...root.querySelectorAll('button')].map((b) => b.dataset.decision);
    expect(decisions).to.deep.equal(['once', 'always', 'deny']);
    expect(root.querySelector('details.more')).to.equal(null);
  });

  it('a tool that claims it can delete data: the claim in words, and "Always allow" only under More options', async () => {
    const el = await card(view({ annotations: { destructiveHint: true, openWorldHint: true } }));
    const root = el.shadowRoot!;
    expect([...root.querySelectorAll('.claims li')].map((l) => l.textContent)).to.deep.equal([
      'The server says this tool can delete or overwrite data — this is not verified.',
      'The server says this tool reaches outside services or the internet — this is not verified.',
    ]);
    const more = root.querySelector<HTMLDetailsElement>('details.more')!;
    expect(more.open).to.equal(false);
    expect(more.querySelector('summary')!.textContent).to.equal('More options');
    expect(more.querySelector('[data-decision="always"]')).not.to.equal(null);
    expect([...root.querySelectorAll('button')].filter((b) => !b.closest('details')).map((b) => b.dataset.decision)).to.deep.equal([
      'once',
      'deny',
    ]);
  });

  for (const decision of ['once', 'always', 'deny'] as const) {
    it(`sends "${decision}" for its approval id and disables the buttons`, async () => {
      const el = await card(view());
      const button = el.shadowRoot!.querySelector<HTMLButtonElement>(`button[data-decision="${decision}"]`)!;
      setTimeout(() => button.click());
      const event = await oneEvent<ApprovalDecisionEvent>(el, ApprovalDecisionEvent.type);
      expect(event.approvalId).to.equal('ap1');
      expect(event.decision).to.equal(decision);
      expect(event.composed).to.equal(true);
      expect([...el.shadowRoot!.querySelectorAll('button')].every((b) => b.disabled)).to.equal(true);
    });
  }

  it('a tool that claims nothing is treated as one that may delete data', async () => {
    const el = await card(view({ annotations: undefined }));
    const root = el.shadowRoot!;
    expect([...root.querySelectorAll('.claims li')].map((l) => l.textContent)).to.deep.equal([
      'The server does not say whether this tool changes or deletes data, so assume it can.',
    ]);
    expect(root.querySelector('details.more [data-decision="always"]')).not.to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('is accessible', async () => {
    const el = await card(view());
    await expect(el).to.be.accessible();
  });

  it('a card whose call is gone says nothing was run and offers only Dismiss', async () => {
    const el = await card(view({ status: 'gone' }));
    const root = el.shadowRoot!;
    expect(root.querySelector('h3')!.textContent).to.equal('This tool call did not run');
    expect(root.querySelector('.gone')!.textContent).to.equal(
      'The request that asked for this approval ended when the extension restarted; nothing was run.',
    );
    expect(root.querySelector('pre.arguments')!.textContent).to.contain('text');
    expect(root.querySelector('.claims')).to.equal(null, 'nothing to decide, so no claims to weigh');
    expect([...root.querySelectorAll('button')].map((b) => b.dataset.action ?? b.dataset.decision)).to.deep.equal(['dismiss']);
    expect(root.querySelector('[role="alertdialog"]')).to.equal(null, 'nothing to decide, so no dialog');
    await expect(el).to.be.accessible();
    setTimeout(() => root.querySelector<HTMLButtonElement>('[data-action="dismiss"]')!.click());
    const event = await oneEvent<ApprovalDismissEvent>(el, ApprovalDismissEvent.type);
    expect(event.approvalId).to.equal('ap1');
  });

  it('turns into the gone card when its status changes', async () => {
    const el = await card(view());
    el.approval = view({ status: 'gone' });
    await el.updateComplete;
    expect(el.getAttribute('status')).to.equal('gone');
    expect(el.shadowRoot!.querySelector('[data-decision]')).to.equal(null);
  });
});
