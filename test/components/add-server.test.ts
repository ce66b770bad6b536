import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { AddServerEvent, ProbeServerEvent } from '../../src/components/events.js';
import type { McpAddServerElement } from '../../src/components/mcp-add-server.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../../src/storage/config-schema.js';

const q = <T extends Element>(el: McpAddServerElement, s: string) => el.shadowRoot!.querySelector<T>(s)!;
const shown = (node: Element) => node.getClientRects().length > 0;

/** Types a URL, clicks Continue and answers the probe as the wiring would. */
async function continueWith(el: McpAddServerElement, url: string, answer: Parameters<McpAddServerElement['showProbe']>[0]) {
  q<HTMLInputElement>(el, 'input[name="url"]').value = url;
  const probe = oneEvent(el, ProbeServerEvent.type);
  q<HTMLButtonElement>(el, 'button[name="continue"]').click();
  const e = (await probe) as unknown as ProbeServerEvent;
  el.showProbe(answer);
  return e;
}

describe('mcp-add-server (guided add)', () => {
  it('adds https:// to a URL typed without a scheme, says which dialog to answer, and probes it', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'example.com/mcp';
    const probe = oneEvent(el, ProbeServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="continue"]').click();
    expect(((await probe) as unknown as ProbeServerEvent).url).to.equal('https://example.com/mcp');
    expect(q(el, '.message').textContent).to.equal("Allow access to example.com in Chrome's dialog.");
  });

  it('shows a URL error at the field, with aria-invalid and aria-describedby, and sends nothing', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    let sent = 0;
    el.addEventListener(ProbeServerEvent.type, () => sent++);
    const url = q<HTMLInputElement>(el, 'input[name="url"]');
    url.value = 'http://example.com/mcp';
    q<HTMLButtonElement>(el, 'button[name="continue"]').click();
    expect(sent).to.equal(0);
    expect(url.getAttribute('aria-invalid')).to.equal('true');
    const error = el.shadowRoot!.getElementById(url.getAttribute('aria-describedby')!)!;
    expect(error.textContent).to.match(/https/);
    expect(el.shadowRoot!.activeElement).to.equal(url);
  });

  it('proposes the name and auth kind the probe found; the token field shows for bearer', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'bearer' });
    expect(q<HTMLInputElement>(el, 'input[name="name"]').value).to.equal('mcp.example.com');
    expect(q<HTMLSelectElement>(el, 'select[name="auth-kind"]').value).to.equal('bearer');
    expect(shown(q(el, 'input[name="token"]'))).to.equal(true);
    expect(el.shadowRoot!.activeElement).to.equal(q(el, 'input[name="token"]'));
    q<HTMLInputElement>(el, 'input[name="token"]').value = 'tok-123';
    const sent = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(((await sent) as unknown as AddServerEvent).detail).to.deep.equal({
      name: 'mcp.example.com',
      url: 'https://mcp.example.com/mcp',
      authKind: 'bearer',
      token: 'tok-123',
    });
  });

  it("uses the server's own name, and says when the probe failed while still allowing the add", async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'none', name: 'Demo Server' });
    expect(q<HTMLInputElement>(el, 'input[name="name"]').value).to.equal('Demo Server');
    q<HTMLButtonElement>(el, 'button[name="change-url"]').click();
    await continueWith(el, 'https://down.example.com/mcp', {
      ok: false,
      message: 'Could not reach https://down.example.com: Failed to fetch.',
    });
    expect(q(el, '.note').textContent).to.contain('Could not reach https://down.example.com');
    expect(shown(q(el, 'button[name="add"]'))).to.equal(true);
  });

  it('keeps the OAuth fields folded under Advanced and sends what the user entered', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'oauth' });
    const details = q<HTMLDetailsElement>(el, 'details');
    expect(details.open).to.equal(false);
    expect(q(el, 'input[name="client-id"]').closest('details')).to.equal(details);
    expect(q<HTMLElement>(el, '.oauth').hidden).to.equal(false);
    details.open = true;
    q<HTMLInputElement>(el, 'input[name="client-id"]').value = 'my-client';
    q<HTMLInputElement>(el, 'input[name="client-secret"]').value = 's3cret';
    q<HTMLInputElement>(el, 'input[name="scopes"]').value = 'read  write';
    q<HTMLInputElement>(el, 'input[name="client-metadata-url"]').value = ' https://app.example.com/client.json ';
    q<HTMLInputElement>(el, 'input[name="connect-timeout"]').value = '45';
    q<HTMLTextAreaElement>(el, 'textarea[name="headers"]').value = 'X-Team: blue';
    const sent = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(((await sent) as unknown as AddServerEvent).detail).to.deep.equal({
      name: 'mcp.example.com',
      url: 'https://mcp.example.com/mcp',
      authKind: 'oauth',
      clientId: 'my-client',
      clientSecret: 's3cret',
      scopes: ['read', 'write'],
      clientMetadataUrl: 'https://app.example.com/client.json',
      headers: [{ name: 'X-Team', value: 'blue' }],
      connectTimeoutMs: 45_000,
    });
  });

  it('opens Advanced to show an error in a folded field', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'none' });
    q<HTMLInputElement>(el, 'input[name="connect-timeout"]').value = '9000';
    let sent = 0;
    el.addEventListener(AddServerEvent.type, () => sent++);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(sent).to.equal(0);
    expect(q<HTMLDetailsElement>(el, 'details').open).to.equal(true);
    expect(q<HTMLInputElement>(el, 'input[name="connect-timeout"]').getAttribute('aria-invalid')).to.equal('true');
  });

  it('after a successful add, returns quietly to an empty URL step (the panel shows the new server instead of "Added.")', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'none' });
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    el.showResult({ ok: true });
    expect(q(el, '.message').textContent).to.equal('');
    expect(shown(q(el, 'button[name="continue"]'))).to.equal(true);
    expect(q<HTMLInputElement>(el, 'input[name="url"]').value).to.equal('');
  });

  it('names each field by its label only; what it is for is help text the field is described by', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'oauth' });
    const root = el.shadowRoot!;
    const described = (name: string) => {
      const input = q<HTMLInputElement>(el, `[name="${name}"]`);
      const label = input.closest('label')!.textContent.trim();
      const help = (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => root.getElementById(id)?.textContent)
        .join(' ');
      return [label, help];
    };
    expect(described('client-id')).to.deep.equal([
      'Client ID',
      'Optional. Without one, the extension registers itself with the authorization server.',
    ]);
    expect(described('scopes')).to.deep.equal(['Scopes', 'Optional. Separate scopes with spaces.']);
    expect(described('headers')).to.deep.equal(['Headers', 'Optional. One "Name: value" per line, stored encrypted.']);
    // The timeout's help states the defaults the worker uses (config-schema.ts), not a copy of them.
    expect(described('connect-timeout')).to.deep.equal([
      'Connect timeout (seconds)',
      `Optional. Connecting gives up after ${DEFAULT_CONNECT_TIMEOUT_MS / 1000} s by default. Each tool call has its own limit of ${DEFAULT_TIMEOUT_MS / 1000} s.`,
    ]);
    // An error at a field is read before its help, and the help comes back once it is fixed.
    q<HTMLInputElement>(el, 'input[name="connect-timeout"]').value = '9000';
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(described('connect-timeout')[1]).to.match(/^Enter a whole number .* Optional\. Connecting gives up/);
    q<HTMLInputElement>(el, 'input[name="connect-timeout"]').value = '45';
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(described('connect-timeout')[1]).to.match(/^Optional\. Connecting gives up/);
    await expect(el).to.be.accessible();
  });

  it('on a saved URL asks whether to add another account, proposes a distinct name and refuses a taken one (S3)', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    el.setKnownServers([
      { name: 'Work', url: 'https://mcp.example.com/mcp' },
      { name: 'Other', url: 'https://other.example.com/mcp' },
    ]);
    await continueWith(el, 'https://MCP.example.com/mcp/', { ok: true, authKind: 'oauth', name: 'Example' });
    const box = q<HTMLElement>(el, '[data-another-account]');
    expect(shown(box)).to.equal(true);
    expect(box.textContent).to.contain('You already have "Work" for this URL — add another account?');
    expect(box.textContent).to.contain('the sign-in page lets you choose or sign in to the other account');
    const name = q<HTMLInputElement>(el, 'input[name="name"]');
    expect(name.value).to.equal('Work (2)');
    expect(q(el, 'button[name="add"]').textContent).to.equal('Add another account');

    name.value = ' work ';
    let sent = 0;
    el.addEventListener(AddServerEvent.type, () => sent++);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(sent).to.equal(0, 'the same name on the same URL is not sent');
    expect(el.shadowRoot!.getElementById(name.getAttribute('aria-describedby')!)!.textContent).to.equal(
      '"Work" already uses this URL under this name: choose another name.',
    );
    name.value = 'Personal';
    const added = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(((await added) as unknown as AddServerEvent).detail).to.include({ name: 'Personal', url: 'https://mcp.example.com/mcp/' });
  });

  it('on a new URL shows no another-account note and the plain Add', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    el.setKnownServers([{ name: 'Work', url: 'https://mcp.example.com/mcp' }]);
    await continueWith(el, 'https://mcp.example.com/other', { ok: true, authKind: 'none' });
    expect(shown(q(el, '[data-another-account]'))).to.equal(false);
    expect(q(el, 'button[name="add"]').textContent).to.equal('Add');
    expect(q<HTMLInputElement>(el, 'input[name="name"]').value).to.equal('mcp.example.com');
  });

  it('is accessible in both steps', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await expect(el).to.be.accessible();
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'bearer' });
    await expect(el).to.be.accessible();
  });
});
