import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { AddServerEvent } from '../../src/components/events.js';
import type { McpAddServerElement } from '../../src/components/mcp-add-server.js';

const q = <T extends Element>(el: McpAddServerElement, s: string) => el.shadowRoot!.querySelector<T>(s)!;
const shown = (node: Element) => getComputedStyle(node).display !== 'none';
const chooseAuth = (el: McpAddServerElement, kind: string) => {
  const select = q<HTMLSelectElement>(el, 'select[name="auth-kind"]');
  select.value = kind;
  select.dispatchEvent(new Event('change'));
};

describe('mcp-add-server', () => {
  it('shows the token field only for bearer and the OAuth fields only for OAuth', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    const token = q<HTMLInputElement>(el, 'input[name="token"]').closest('label')!;
    const oauth = q<HTMLInputElement>(el, 'input[name="client-id"]').closest('.oauth')!;
    expect([shown(token), shown(oauth)]).to.deep.equal([false, false]);
    chooseAuth(el, 'bearer');
    expect([shown(token), shown(oauth)]).to.deep.equal([true, false]);
    chooseAuth(el, 'oauth');
    expect([shown(token), shown(oauth)]).to.deep.equal([false, true]);
  });

  it('refuses plain http to a non-loopback host with a message, and sends nothing', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    let sent = 0;
    el.addEventListener(AddServerEvent.type, () => sent++);
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'http://example.com/mcp';
    q<HTMLButtonElement>(el, 'button[type="submit"]').click();
    expect(sent).to.equal(0);
    expect(q(el, '.message').textContent).to.match(/https/);
    expect(q<HTMLInputElement>(el, 'input[name="url"]').getAttribute('aria-invalid')).to.equal('true');
  });

  it('sends a bearer add with the token, defaulting the name to the host', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'https://mcp.example.com/mcp';
    chooseAuth(el, 'bearer');
    q<HTMLInputElement>(el, 'input[name="token"]').value = 'tok-123';
    const sent = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[type="submit"]').click();
    const e = (await sent) as unknown as AddServerEvent;
    expect(e.detail.name).to.equal('mcp.example.com');
    expect(e.detail.authKind).to.equal('bearer');
    expect(e.detail.token).to.equal('tok-123');
  });

  it('sends an OAuth add with the client id, secret, scopes and client metadata URL the user entered', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'https://mcp.example.com/mcp';
    chooseAuth(el, 'oauth');
    q<HTMLInputElement>(el, 'input[name="client-id"]').value = 'my-client';
    q<HTMLInputElement>(el, 'input[name="client-secret"]').value = 's3cret';
    q<HTMLInputElement>(el, 'input[name="scopes"]').value = 'read  write';
    q<HTMLInputElement>(el, 'input[name="client-metadata-url"]').value = ' https://app.example.com/client.json ';
    const sent = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[type="submit"]').click();
    const e = (await sent) as unknown as AddServerEvent;
    expect(e.detail).to.deep.equal({
      name: 'mcp.example.com',
      url: 'https://mcp.example.com/mcp',
      authKind: 'oauth',
      clientId: 'my-client',
      clientSecret: 's3cret',
      scopes: ['read', 'write'],
      clientMetadataUrl: 'https://app.example.com/client.json',
    });
  });

  it('is accessible', async () => {
    const el = await fixture(html`<mcp-add-server></mcp-add-server>`);
    await expect(el).to.be.accessible();
  });
});
