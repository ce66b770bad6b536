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
  await new Promise((r) => setTimeout(r, 0));
  return el;
}

describe('mcp-approval-card', () => {
  it('names the agent, tool and server, and shows the arguments as text', async () => {
    const el = await card(view());
    const root = el.shadowRoot!;
    expect(root.querySelector('.from')!.textContent).to.equal('Agent wants to call Echo (echo) on Demo <b>server</b>');
    expect(root.querySelector('pre.arguments')!.textContent).to.contain('<img src=x onerror=alert(1)>');
    expect(root.querySelector('img')).to.equal(null);
    expect(root.querySelector('b')).to.equal(null);
  });

  it("shows annotations as the server's claims and still offers all three answers", async () => {
    const el = await card(view());
    const root = el.shadowRoot!;
    expect(root.querySelector('.hints')!.textContent).to.contain('readOnlyHint=true, destructiveHint=false');
    const decisions = [...root.querySelectorAll('button')].map((b) => b.dataset.decision);
    expect(decisions).to.deep.equal(['once', 'always', 'deny']);
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

  it('has no hints line when the server gave no annotations', async () => {
    const el = await card(view({ annotations: undefined }));
    expect(el.shadowRoot!.querySelector('.hints')).to.equal(null);
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
    expect(root.querySelector('.hints')).to.equal(null, 'nothing to decide, so no claims to weigh');
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
    await new Promise((r) => setTimeout(r, 0));
    expect(el.getAttribute('status')).to.equal('gone');
    expect(el.shadowRoot!.querySelector('[data-decision]')).to.equal(null);
  });
});
