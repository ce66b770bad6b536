/**
 * The card's buttons come from the reason's `action`, never from its words (the message is shown
 * as text only): the same message with another action gives another button.
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpServerCardElement } from '../../src/components/mcp-server-card.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

function server(overrides: Partial<ServerView> = {}): ServerView {
  return serverView({ authKind: 'oauth', connectOnStartup: false, status: 'needs-auth', ...overrides });
}

async function card(view: ServerView, mode = 'detail') {
  const el = await fixture<McpServerCardElement>(html`<mcp-server-card mode=${mode}></mcp-server-card>`);
  el.server = view;
  await el.updateComplete;
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

  it('offers Retry first and "Edit settings" for an error whose fix is in the settings', async () => {
    const el = await card(server({ authKind: 'none', status: 'error', reason: { kind: 'timeout', message: 'Too slow.', action: 'edit' } }));
    const actions = [...el.shadowRoot!.querySelectorAll('.actions button')].map((b) => [b.getAttribute('data-action'), b.textContent]);
    expect(actions).to.deep.equal([
      ['connect', 'Retry'],
      ['edit', 'Edit settings'],
    ]);
    expect(button(el, 'connect')!.dataset.role).to.equal('primary');
  });

  it('makes "Update token" the primary action of a server that refused its token, Retry secondary', async () => {
    const el = await card(server({ authKind: 'bearer', status: 'error', reason: { kind: 'auth', message: 'Update it.', action: 'edit' } }));
    const actions = [...el.shadowRoot!.querySelectorAll('.actions button')].map((b) => [
      b.getAttribute('data-action'),
      b.textContent,
      b.getAttribute('data-role'),
    ]);
    expect(actions).to.deep.equal([
      ['edit', 'Update token', 'primary'],
      ['connect', 'Retry', null],
    ]);
  });

  it('makes Authorize the primary action of a needs-auth server, with no error colour and no Forget beside it', async () => {
    const el = await card(server({ reason: { kind: 'auth', message: 'Sign in first.', action: 'authorize' } }));
    expect(button(el, 'authorize')!.dataset.role).to.equal('primary');
    expect(button(el, 'forget-auth')).to.equal(null);
    expect(el.shadowRoot!.querySelector('.reason')!.className).to.not.contain('error');
  });

  it('offers Forget authorization in Settings only once the server has been authorized', async () => {
    const first = await card(server({ reason: { kind: 'auth', message: 'Sign in first.', action: 'authorize' } }), 'settings');
    expect(first.shadowRoot!.querySelector('button[data-action="forget-auth"]')).to.equal(null);
    const ready = await card(server({ status: 'ready' }), 'settings');
    expect(ready.shadowRoot!.querySelector('button[data-action="forget-auth"]')).to.not.equal(null);
    const lapsed = await card(server({ reason: { kind: 'auth', message: 'Expired.', action: 'reauthorize' } }), 'settings');
    expect(lapsed.shadowRoot!.querySelector('button[data-action="forget-auth"]')).to.not.equal(null);
  });

  it('shows no tool count for a server that never connected, and a disabled server says so', async () => {
    const el = await card(server({ authKind: 'none', status: 'disconnected', enabled: false }));
    expect(el.shadowRoot!.querySelector<HTMLElement>('.tool-count')!.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector('mcp-status-badge')!.hasAttribute('disabled')).to.equal(true);
    expect(el.shadowRoot!.querySelectorAll('.actions button')).to.have.length(0);
    expect(el.shadowRoot!.querySelector('[role="switch"]')!.getAttribute('aria-checked')).to.equal('false');
  });

  it('shows a refused action where it was clicked', async () => {
    const el = await card(server({ authKind: 'none', status: 'disconnected' }));
    button(el, 'connect')!.click();
    el.showActionError('The worker said no.');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.action-error')!.textContent).to.equal('The worker said no.');
    expect(button(el, 'connect')!.hasAttribute('aria-disabled')).to.equal(false);
  });
});
