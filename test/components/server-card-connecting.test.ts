/**
 * A connect attempt is visible while it runs ("Connecting… 12 s", ticking, with Cancel), and a
 * click on Connect/Disconnect shows at once that it was taken, until the server's next state.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { nextTask } from './wait.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import { ServerActionEvent } from '../../src/components/events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

async function card(view: ServerView) {
  const el = await fixture<McpServerCardElement>(html`<mcp-server-card mode="detail"></mcp-server-card>`);
  el.server = view;
  await el.updateComplete;
  return el;
}

const button = (el: McpServerCardElement, action: string) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(`.actions button[data-action="${action}"]`)!;
const elapsed = (el: McpServerCardElement) => el.shadowRoot!.querySelector<HTMLElement>('.elapsed')!;

describe('mcp-server-card while connecting', () => {
  it('shows the seconds since the attempt began, ticking, not announced every tick, with Cancel', async () => {
    const el = await card(serverView({ status: 'connecting', connectingSince: Date.now() - 12_400 }));
    expect(elapsed(el).hidden).to.equal(false);
    expect(elapsed(el).textContent).to.equal('12 s');
    expect(elapsed(el).getAttribute('role')).to.equal('timer', 'a timer region is not live: no announcement per second');
    expect(el.shadowRoot!.querySelector('mcp-status-badge')!.getAttribute('status')).to.equal('connecting');
    await nextTask(1100);
    expect(elapsed(el).textContent).to.equal('13 s');
    expect(button(el, 'disconnect').textContent).to.equal('Cancel');
    setTimeout(() => button(el, 'disconnect').click());
    const e = await oneEvent<ServerActionEvent>(el, ServerActionEvent.type);
    expect(e.action).to.equal('disconnect');
    await expect(el).to.be.accessible();
  });

  it('shows no seconds without connectingSince, nor once the server is ready', async () => {
    const el = await card(serverView({ status: 'connecting' }));
    expect(elapsed(el).hidden).to.equal(true);
    el.server = serverView({ status: 'connecting', connectingSince: Date.now() });
    await el.updateComplete;
    expect(elapsed(el).textContent).to.equal('0 s');
    el.server = serverView({ status: 'ready' });
    await el.updateComplete;
    expect(elapsed(el).hidden).to.equal(true);
    expect(button(el, 'disconnect').textContent).to.equal('Disconnect');
  });

  it('a Connect click is shown at once and ends when the new state arrives', async () => {
    const el = await card(serverView({ status: 'disconnected' }));
    let events = 0;
    el.addEventListener(ServerActionEvent.type, () => events++);
    button(el, 'connect').focus();
    button(el, 'connect').click();
    expect(button(el, 'connect').textContent).to.equal('Connecting…');
    expect(button(el, 'connect').getAttribute('aria-disabled')).to.equal('true');
    expect(el.shadowRoot!.activeElement?.getAttribute('data-action')).to.equal('connect', 'focus stays on the button');
    button(el, 'connect').click();
    expect(events).to.equal(1, 'a second click while busy sends nothing');
    el.server = serverView({ status: 'disconnected' });
    await el.updateComplete;
    expect(button(el, 'connect').textContent).to.equal('Connecting…', 'the same state again is not the answer');
    el.server = serverView({ status: 'connecting', connectingSince: Date.now() });
    await el.updateComplete;
    expect(button(el, 'disconnect').textContent).to.equal('Cancel');
    expect(button(el, 'disconnect').hasAttribute('aria-disabled')).to.equal(false);
  });

  it('a Disconnect click says "Disconnecting…" until the server is disconnected', async () => {
    const el = await card(serverView({ status: 'ready' }));
    button(el, 'disconnect').click();
    expect(button(el, 'disconnect').textContent).to.equal('Disconnecting…');
    el.server = serverView({ status: 'disconnected' });
    await el.updateComplete;
    expect(button(el, 'connect').textContent).to.equal('Connect');
    expect(button(el, 'connect').hasAttribute('aria-disabled')).to.equal(false);
  });
});
