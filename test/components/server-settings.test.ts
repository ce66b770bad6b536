import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { ServerSettingsRequestEvent, UpdateServerEvent } from '../../src/components/events.js';
import type { McpServerSettingsElement } from '../../src/components/mcp-server-settings.js';
import type { ServerSettings } from '../../src/protocol/panel-edit.js';
import { serverView } from './server-view.js';

const q = <T extends Element>(el: McpServerSettingsElement, s: string) => el.shadowRoot!.querySelector<T>(s)!;

const settings = (overrides: Partial<ServerSettings> = {}): ServerSettings => ({
  name: 'Demo',
  url: 'https://mcp.example.com/mcp',
  authKind: 'bearer',
  hasClientSecret: false,
  authorized: false,
  headers: [],
  connectOnStartup: true,
  alwaysGrants: 0,
  ...overrides,
});

async function loaded(s: ServerSettings) {
  const el = await fixture<McpServerSettingsElement>(html`<mcp-server-settings></mcp-server-settings>`);
  const request = oneEvent(el, ServerSettingsRequestEvent.type);
  el.server = serverView({ authKind: s.authKind, url: s.url });
  expect(((await request) as unknown as ServerSettingsRequestEvent).serverId).to.equal('demo');
  el.settings = s;
  return el;
}

const save = (el: McpServerSettingsElement) => q<HTMLButtonElement>(el, 'button[name="save"]').click();

describe('mcp-server-settings', () => {
  it('asks for its settings, names the form with its server, and shows a stored token as unchanged', async () => {
    const el = await loaded(settings());
    expect(q(el, 'form').getAttribute('aria-label')).to.equal('Settings of Demo');
    const token = q<HTMLInputElement>(el, 'input[name="token"]');
    expect(token.value).to.equal('');
    expect(token.placeholder).to.equal('Unchanged (type to replace)');
  });

  it('saves a rename and a timeout without the token, and without asking (nothing is dropped)', async () => {
    const el = await loaded(settings());
    q<HTMLInputElement>(el, 'input[name="name"]').value = 'Renamed';
    q<HTMLInputElement>(el, 'input[name="connect-timeout"]').value = '90';
    const sent = oneEvent(el, UpdateServerEvent.type);
    save(el);
    const e = (await sent) as unknown as UpdateServerEvent;
    expect(e.newOrigin).to.equal(false);
    expect(e.detail).to.deep.equal({
      serverId: 'demo',
      name: 'Renamed',
      url: 'https://mcp.example.com/mcp',
      auth: { kind: 'bearer' },
      connectTimeoutMs: 90_000,
      connectOnStartup: true,
    });
  });

  it('shows field errors with the same rules as the add form', async () => {
    const el = await loaded(settings());
    let sent = 0;
    el.addEventListener(UpdateServerEvent.type, () => sent++);
    const url = q<HTMLInputElement>(el, 'input[name="url"]');
    url.value = 'ftp://x';
    save(el);
    expect(url.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.getElementById(url.getAttribute('aria-describedby')!)!.textContent).to.equal(
      'Only https:// addresses are allowed.',
    );
    url.value = 'other.example.com/mcp';
    save(el);
    // A token is only sent to the origin it was given for.
    const token = q<HTMLInputElement>(el, 'input[name="token"]');
    expect(token.getAttribute('aria-invalid')).to.equal('true');
    expect(sent).to.equal(0);
  });

  it('lists what a move to another origin drops and sends only after confirmation', async () => {
    const el = await loaded(settings({ authKind: 'oauth', authorized: true, alwaysGrants: 3 }));
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'https://new.example.com/mcp';
    let sent: UpdateServerEvent | undefined;
    el.addEventListener(UpdateServerEvent.type, (e) => (sent = e));
    save(el);
    expect(sent).to.equal(undefined);
    const items = [...el.shadowRoot!.querySelectorAll('.drops li')].map((li) => li.textContent);
    expect(items).to.deep.equal([
      'the OAuth authorization (tokens and registered client); you will authorize again',
      '"Always allow" approvals of its tools (3)',
    ]);
    expect(q(el, '.drops').textContent).to.contain('Chrome will ask for access to https://new.example.com.');
    q<HTMLButtonElement>(el, 'button[name="confirm-drops"]').click();
    expect(sent?.newOrigin).to.equal(true);
    expect(sent?.detail.confirmDrops).to.equal(true);
    expect(sent?.detail.url).to.equal('https://new.example.com/mcp');
  });

  it('shows existing headers by name only, with a value field and a remove box', async () => {
    const el = await loaded(settings({ authKind: 'none', headers: ['X-Team'] }));
    expect(q(el, 'fieldset.headers').textContent).to.contain('Value of X-Team');
    q<HTMLInputElement>(el, 'input[data-remove-header="X-Team"]').checked = true;
    const sent = oneEvent(el, UpdateServerEvent.type);
    save(el);
    expect(((await sent) as unknown as UpdateServerEvent).detail.headers).to.deep.equal([]);
  });

  it('is accessible', async () => {
    const el = await loaded(settings({ authKind: 'oauth', hasClientSecret: true, clientId: 'c', headers: ['X-Team'] }));
    await expect(el).to.be.accessible();
  });
});
