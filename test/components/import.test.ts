import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent } from '../../src/components/events.js';
import type { McpImportElement } from '../../src/components/mcp-import.js';
import type { ImportEntry, ImportPreview } from '../../src/import/import-schema.js';

const base = { authKind: 'none' as const, headers: [], placeholders: [], enabled: true, disabledTools: [], connectOnStartup: true };
const entry = (e: Partial<ImportEntry> & Pick<ImportEntry, 'name' | 'status'>): ImportEntry => ({ ...base, ...e });

const preview: ImportPreview = {
  dialect: 'cursor',
  errors: [],
  entries: [
    entry({
      name: 'github',
      url: 'https://api.example.com/mcp',
      status: 'add',
      authKind: 'bearer',
      bearerToken: '${GITHUB_TOKEN}',
      placeholders: [{ field: 'bearerToken', token: '${GITHUB_TOKEN}', label: 'GITHUB_TOKEN', secret: true }],
    }),
    entry({ name: 'local', status: 'skip', reason: 'stdio needs a local process, which a browser cannot start' }),
    entry({
      name: 'demo',
      url: 'http://127.0.0.1:3939/mcp',
      status: 'conflict',
      reason: 'already exists — confirm to overwrite',
      conflictWith: 'Demo',
    }),
  ],
};

const $ = (el: McpImportElement, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel)!;

describe('mcp-import', () => {
  it('asks for a preview of the pasted text and does nothing for an empty paste', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    let asked = 0;
    el.addEventListener(ImportPreviewEvent.type, () => asked++);
    $(el, '[data-action="preview"]').click();
    expect(asked).to.equal(0);
    el.value = '{"mcpServers":{}}';
    const sent = oneEvent(el, ImportPreviewEvent.type);
    $(el, '[data-action="preview"]').click();
    expect(((await sent) as unknown as ImportPreviewEvent).text).to.equal('{"mcpServers":{}}');
    expect($(el, '[role="status"]').textContent).to.equal('Checking…');
  });

  it('shows add, skip and conflict with reasons, and a password field for a secret placeholder', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview(preview);
    const rows = [...el.shadowRoot!.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.querySelector('[data-status]')!.getAttribute('data-status'))).to.deep.equal(['add', 'skip', 'conflict']);
    expect(rows[1]!.textContent).to.contain('stdio needs a local process');
    const secret = $(el, 'input[data-token="${GITHUB_TOKEN}"]') as HTMLInputElement;
    expect(secret.type).to.equal('password');
    expect($(el, '[data-action="import"]').hidden).to.equal(false);
  });

  it('says which entries will need sign-in (OAuth) and which may (no credentials), from the config alone', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      ...preview,
      entries: [...preview.entries, entry({ name: 'linear', url: 'https://mcp.linear.app/mcp', status: 'add', authKind: 'oauth' })],
    });
    const hints = [...el.shadowRoot!.querySelectorAll('tbody tr')].map((r) =>
      r.querySelector('[data-sign-in]')?.getAttribute('data-sign-in'),
    );
    expect(hints).to.deep.equal([undefined, undefined, 'maybe', 'needed']);
    expect($(el, 'tr[data-entry="linear"] [data-sign-in]').textContent).to.contain('Needs sign-in');
  });

  it('never selects a conflict until its overwrite box is ticked', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.value = 'x';
    $(el, '[data-action="preview"]').click();
    el.showPreview(preview);
    expect(el.selectedEntries.map((e) => e.name)).to.deep.equal(['github']);
    (el.shadowRoot!.querySelector('input[data-overwrite="demo"]') as HTMLInputElement).click();
    expect(el.selectedEntries.map((e) => e.name)).to.deep.equal(['github', 'demo']);
    (el.shadowRoot!.querySelector('input[data-token="${GITHUB_TOKEN}"]') as HTMLInputElement).value = 's3cret';
    const sent = oneEvent(el, ImportApplyEvent.type);
    $(el, '[data-action="import"]').click();
    const e = (await sent) as unknown as ImportApplyEvent;
    expect(e.detail).to.deep.equal({ text: 'x', values: { '${GITHUB_TOKEN}': 's3cret' }, overwrite: ['demo'] });
  });

  it('hides Import when everything is skipped', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      dialect: 'claude-code',
      errors: ['The configuration lists no servers.'],
      entries: [entry({ name: 'a', status: 'skip', reason: 'r' })],
    });
    expect($(el, '[data-action="import"]').hidden).to.equal(true);
    expect($(el, '.errors').textContent).to.equal('The configuration lists no servers.');
  });

  it('renders hostile names, URLs and reasons as text', async () => {
    const evil = '<img src=x onerror="window.__pwnedImport=1">';
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      dialect: 'unknown',
      errors: [evil],
      entries: [entry({ name: evil, url: evil, status: 'skip', reason: evil, notes: [evil] })],
    });
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect(el.shadowRoot!.querySelector('tbody td')!.textContent).to.equal(evil);
  });

  it('clears the form, secrets included, after a successful import', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.value = 'x';
    el.showPreview(preview);
    el.showImported(2);
    expect(el.value).to.equal('');
    expect(el.shadowRoot!.querySelector('input[data-token]')).to.equal(null);
    expect($(el, '[role="status"]').textContent).to.equal('Imported 2 server(s).');
  });

  it('sends an export request', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    const sent = oneEvent(el, ExportConfigEvent.type);
    $(el, '[data-action="export"]').click();
    expect(await sent).to.be.instanceOf(ExportConfigEvent);
  });

  it('is accessible, empty and with a preview', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    await expect(el).to.be.accessible();
    el.showPreview(preview);
    await expect(el).to.be.accessible();
  });
});
