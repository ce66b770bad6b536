import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpElicitationCardElement } from '../../src/components/mcp-elicitation-card.js';
import { ElicitationAnswerEvent, InteractionActionEvent } from '../../src/components/events.js';
import type { ElicitationView } from '../../src/protocol/panel-use.js';

const pending: ElicitationView = {
  id: 'q1',
  serverId: 'demo',
  serverName: 'Demo <i>srv</i>',
  tool: 'confirm_booking',
  message: 'Confirm <script>x</script>?',
  requestedSchema: {
    type: 'object',
    properties: { guests: { type: 'integer', minimum: 1 }, seat: { type: 'string', enum: ['window', 'aisle'] } },
    required: ['guests'],
  },
  status: 'pending',
  canRerun: true,
};

async function card(view: ElicitationView) {
  const el = await fixture<McpElicitationCardElement>(html`<mcp-elicitation-card></mcp-elicitation-card>`);
  el.interaction = view;
  await el.updateComplete;
  return el;
}
const button = (el: McpElicitationCardElement, action: string) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)!;

describe('mcp-elicitation-card', () => {
  it('R5: a URL-mode question shows the whole address as text with its origin emphasized; the link opens it in a new tab and answers accept', async () => {
    const el = await card({
      ...pending,
      requestedSchema: {},
      url: 'https://signup.example.com/start?ref=<b>x</b>',
      message: 'Finish signing up',
    });
    const url = el.shadowRoot!.querySelector('.url')!;
    expect(url.querySelector('strong.origin')!.textContent).to.equal('https://signup.example.com');
    expect(url.textContent).to.equal('https://signup.example.com/start?ref=%3Cb%3Ex%3C/b%3E');
    expect(url.querySelector('b')).to.equal(null);
    expect(el.shadowRoot!.querySelector('mcp-schema-form')).to.equal(null);
    const link = el.shadowRoot!.querySelector<HTMLAnchorElement>('a.open-url')!;
    expect([link.target, link.rel, link.href]).to.deep.equal([
      '_blank',
      'noopener noreferrer',
      'https://signup.example.com/start?ref=%3Cb%3Ex%3C/b%3E',
    ]);
    // The click's default (a new tab) is the browser's; the test keeps it from leaving the page.
    link.addEventListener('click', (e) => e.preventDefault(), { once: true });
    setTimeout(() => link.click());
    const answer = await oneEvent<ElicitationAnswerEvent>(el, ElicitationAnswerEvent.type);
    expect([answer.interactionId, answer.action, answer.content]).to.deep.equal(['q1', 'accept', undefined]);
    await expect(el).to.be.accessible();
  });

  it('R5: a page the card may not open (javascript:, a credential in it) is never a link, and can only be declined', async () => {
    for (const url of ['javascript:alert(1)', 'https://user:pw@example.com/']) {
      const el = await card({ ...pending, requestedSchema: {}, url });
      expect(el.shadowRoot!.querySelector('a')).to.equal(null);
      expect(el.shadowRoot!.querySelector('.error')!.textContent).to.contain('cannot be opened from here');
      expect(button(el, 'decline')).to.not.equal(null);
    }
  });

  it('an open question says the server may stop waiting and how long it has waited', async () => {
    const el = await card({ ...pending, askedAt: Date.now() - 12_500 });
    const line = el.shadowRoot!.querySelector('.may-stop')!;
    expect(line.textContent).to.contain('Demo <i>srv</i> may stop waiting for your answer; the tool call then ends.');
    expect(line.querySelector('[role="timer"]')!.textContent).to.equal('Waiting for 12 s');
    await expect(el).to.be.accessible();
  });

  it('a question the server stopped waiting for says so in plain words, never the raw MCP error', async () => {
    const el = await card({
      ...pending,
      status: 'failed',
      reason: 'The server stopped waiting for the answer, and the tool call ended.',
      stoppedAfterSec: 60,
    });
    const text = el.shadowRoot!.querySelector('.reason')!.textContent;
    expect(text).to.equal('Demo <i>srv</i> stopped waiting after 60 s and the tool call ended. Your answer was not sent.');
    expect(el.shadowRoot!.textContent).to.not.match(/-32001|timed out/i);
    expect(el.shadowRoot!.querySelector('mcp-schema-form')).to.equal(null);
    expect(button(el, 'dismiss')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });

  it('shows the message and the server as text, and sends the form content on Send', async () => {
    const el = await card(pending);
    const root = el.shadowRoot!;
    expect(root.querySelector('.message')!.textContent).to.equal('Confirm <script>x</script>?');
    expect(root.querySelector('.from')!.textContent).to.contain('Demo <i>srv</i>');
    expect(root.querySelector('script, i')).to.equal(null);
    const form = root.querySelector('mcp-schema-form')!;
    const guests = form.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['guests'])}']`)!;
    guests.value = '2';
    form.shadowRoot!.querySelector<HTMLSelectElement>('select')!.value = 'aisle';
    setTimeout(() => button(el, 'accept').click());
    const e = await oneEvent<ElicitationAnswerEvent>(el, ElicitationAnswerEvent.type);
    expect([e.interactionId, e.action, e.content]).to.deep.equal(['q1', 'accept', { guests: 2, seat: 'aisle' }]);
    expect(button(el, 'decline').disabled).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('does not send an invalid form; Decline and Cancel send no content', async () => {
    const el = await card(pending);
    let sent = 0;
    el.addEventListener(ElicitationAnswerEvent.type, () => sent++);
    button(el, 'accept').click();
    expect(sent).to.equal(0);
    setTimeout(() => button(el, 'cancel').click());
    const e = await oneEvent<ElicitationAnswerEvent>(el, ElicitationAnswerEvent.type);
    expect([e.action, e.content]).to.deep.equal(['cancel', undefined]);
  });

  it('a failed interaction shows the reason and re-runs only after "it is safe" is ticked', async () => {
    const el = await card({ ...pending, status: 'failed', reason: 'the extension restarted while this question was open' });
    const root = el.shadowRoot!;
    expect(root.querySelector('.reason')!.textContent).to.contain('the extension restarted while');
    expect(root.querySelector('mcp-schema-form')).to.equal(null);
    const rerun = button(el, 'rerun');
    expect(rerun.disabled).to.equal(true);
    let events = 0;
    el.addEventListener(InteractionActionEvent.type, () => events++);
    rerun.click();
    expect(events).to.equal(0);
    const box = root.querySelector<HTMLInputElement>('input.confirm-safe')!;
    box.click();
    expect(rerun.disabled).to.equal(false);
    setTimeout(() => rerun.click());
    const e = await oneEvent<InteractionActionEvent>(el, InteractionActionEvent.type);
    expect([e.interactionId, e.action]).to.deep.equal(['q1', 'rerun']);
  });

  it('focusQuestion moves focus to the question, named by its message', async () => {
    const el = await card(pending);
    el.focusQuestion();
    const section = el.shadowRoot!.activeElement!;
    expect(section.getAttribute('role')).to.equal('dialog');
    expect(el.shadowRoot!.getElementById(section.getAttribute('aria-labelledby')!)!.textContent).to.equal('Confirm <script>x</script>?');
  });
});
