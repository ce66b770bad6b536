import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { nextTask } from './wait.js';
import { AddServerEvent, ProbeServerEvent } from '../../src/components/events.js';
import type { McpAddServerElement } from '../../src/components/mcp-add-server.js';

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

  it('after a successful add, returns to the URL step and the "Added." message goes when the form is used again', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'none' });
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    el.showResult({ ok: true });
    expect(q(el, '.message').textContent).to.equal('Added.');
    expect(shown(q(el, 'button[name="continue"]'))).to.equal(true);
    q<HTMLInputElement>(el, 'input[name="url"]').dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    expect(q(el, '.message').classList.contains('gone')).to.equal(true);
    await nextTask(700);
    expect(q(el, '.message').textContent).to.equal('');
  });

  it('is accessible in both steps', async () => {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    await expect(el).to.be.accessible();
    await continueWith(el, 'https://mcp.example.com/mcp', { ok: true, authKind: 'bearer' });
    await expect(el).to.be.accessible();
  });
});
