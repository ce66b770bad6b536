/**
 * The card's buttons come from the reason's `action`, never from its words (the message is shown
 * as text only): the same message with another action gives another button.
 */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import './setup.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({ authKind: 'oauth', connectOnStartup: false, status: 'needs-auth', ...overrides });
}

async function card(view: ServerView) {
  const el = await fixture<McpServerCardElement>(html`<mcp-server-card></mcp-server-card>`);
  el.server = view;
  await Promise.resolve();
  await nextFrame();
  return el;
}

const button = (el: McpServerCardElement, action: string) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(`.actions button[data-action="${action}"]`);

describe('mcp-server-card actions', () => {
  it('shows "Re-authorize" for a needs-auth reason whose action is reauthorize, whatever its words', async () => {
    const el = await card(server({ reason: { kind: 'auth', message: 'Your session is over.', action: 'reauthorize' } }));
    expect(button(el, 'authorize')!.textContent).to.equal('Re-authorize');
  });

  it('shows "Authorize" for a needs-auth reason that asks to authorize, even if its words say Re-authorize', async () => {
    const el = await card(server({ reason: { kind: 'auth', message: 'click Re-authorize', action: 'authorize' } }));
    expect(button(el, 'authorize')!.textContent).to.equal('Authorize');
  });

  it('shows "Re-authorize" on a ready OAuth card', async () => {
    const el = await card(server({ status: 'ready' }));
    expect(button(el, 'authorize')!.textContent).to.equal('Re-authorize');
  });

  it('offers the one-click switch to OAuth on a server set up without authorization that asks to authorize', async () => {
    const el = await card(server({ authKind: 'none', reason: { kind: 'auth', message: 'It asks for sign-in.', action: 'authorize' } }));
    expect(button(el, 'authorize')!.textContent).to.equal('Switch to OAuth and authorize');
    expect(button(el, 'forget-auth')).to.equal(null);
    // Connect would only meet the same 401: the card offers the way on, not a dead end.
    expect(button(el, 'connect')).to.equal(null);
    const edit = await card(server({ authKind: 'none', reason: { kind: 'auth', message: 'Choose OAuth or a token.', action: 'edit' } }));
    expect(button(edit, 'authorize')).to.equal(null);
  });

  it('offers "Grant access" only for the grant-permission action', async () => {
    const granted = await card(
      server({ authKind: 'none', status: 'error', reason: { kind: 'permission', message: 'No access.', action: 'grant-permission' } }),
    );
    expect(button(granted, 'grant')!.textContent).to.equal('Grant access');
    const other = await card(
      server({ authKind: 'none', status: 'error', reason: { kind: 'timeout', message: 'Grant access', action: 'edit' } }),
    );
    expect(button(other, 'grant')).to.equal(null);
  });

  it('renders no button of its own for edit (the settings editor comes later)', async () => {
    const el = await card(server({ authKind: 'bearer', status: 'error', reason: { kind: 'auth', message: 'Update it.', action: 'edit' } }));
    const actions = [...el.shadowRoot!.querySelectorAll('.actions button')].map((b) => b.getAttribute('data-action'));
    expect(actions).to.deep.equal(['connect', 'disable', 'delete']);
  });
});
