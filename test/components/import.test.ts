import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { nextTask } from './wait.js';
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

  it('a preview that fails takes the old preview and its Import button away, and says why', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview(preview);
    expect($(el, '[data-action="import"]').hidden).to.equal(false);
    el.showPreviewFailed('The import check could not start; try again.');
    expect(el.preview).to.equal(undefined);
    expect(el.shadowRoot!.querySelectorAll('tbody tr').length).to.equal(0);
    expect($(el, '[data-action="import"]').hidden).to.equal(true);
    expect($(el, 'ul.problems').textContent).to.equal('The import check could not start; try again.');
    expect(($(el, '[data-action="preview"]') as HTMLButtonElement).disabled).to.equal(false);
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

  it('says which entry is another account on a saved URL, as text, and selects it without a box (S3)', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      dialect: 'cursor',
      errors: [],
      entries: [entry({ name: 'github home', url: 'https://gh.example/mcp', status: 'add', anotherAccountOf: '<b>GitHub</b>' })],
    });
    const note = $(el, 'tr[data-entry="github home"] [data-another-account]');
    expect(note.textContent).to.equal('Same URL as "<b>GitHub</b>": added as another account, with its own sign-in.');
    expect(note.querySelector('b')).to.equal(null);
    expect(el.shadowRoot!.querySelector('tr[data-entry="github home"] input[data-overwrite]')).to.equal(null);
    expect($(el, '[data-action="import"]').hidden).to.equal(false);
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
    expect($(el, '[role="status"]').textContent).to.equal('Imported 2 servers.');
  });

  it('says "1 server" and "3 servers", and the result fades away', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.resultVisibleMs = 20;
    el.showImported(1);
    expect($(el, '[role="status"]').textContent).to.equal('Imported 1 server.');
    el.showImported(3, ['api: the bearer token is empty']);
    expect($(el, '[role="status"]').textContent).to.equal('Imported 3 servers.');
    expect([...el.shadowRoot!.querySelectorAll('ul.problems li')].map((li) => li.textContent)).to.deep.equal([
      'api: the bearer token is empty',
    ]);
    await nextTask(20 + 700);
    expect($(el, '[role="status"]').textContent).to.equal('');
  });

  it('says how many servers an export holds and in which file', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showExported(3, 'remote-mcp-servers.json');
    expect($(el, '[role="status"]').textContent).to.equal('Exported 3 servers to remote-mcp-servers.json.');
    el.showExported(1, 'remote-mcp-servers.json');
    expect($(el, '[role="status"]').textContent).to.equal('Exported 1 server to remote-mcp-servers.json.');
  });

  it('names the dialect as users know it, and shows none for an unrecognised paste', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({ ...preview, dialect: 'gemini' });
    expect($(el, '[data-dialect]').textContent).to.equal('Recognised format: Gemini CLI');
    el.showPreview({ ...preview, dialect: 'vscode' });
    expect($(el, '[data-dialect]').textContent).to.equal('Recognised format: VS Code');
    el.showPreview({ dialect: 'unknown', errors: ['No MCP server configuration found.', 'Second problem.'], entries: [] });
    expect(el.shadowRoot!.querySelector('[data-dialect]')).to.equal(null);
    expect([...el.shadowRoot!.querySelectorAll('ul.errors li')].map((li) => li.textContent)).to.deep.equal([
      'No MCP server configuration found.',
      'Second problem.',
    ]);
  });

  it('shows several problems one per line', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showError(['a: first reason', 'b: second reason']);
    expect([...el.shadowRoot!.querySelectorAll('ul.problems li')].map((li) => li.textContent)).to.deep.equal([
      'a: first reason',
      'b: second reason',
    ]);
  });

  it('summarises how each entry authorizes', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      ...preview,
      entries: [
        ...preview.entries,
        entry({ name: 'linear', url: 'https://mcp.linear.app/mcp', status: 'add', authKind: 'oauth' }),
        entry({ name: 'keyed', url: 'https://k.example.com/mcp', status: 'add', headers: [{ name: 'X-Api-Key', value: 'k' }] }),
      ],
    });
    const auth = (name: string) => $(el, `tr[data-entry="${name}"] [data-auth]`).textContent;
    expect(auth('github')).to.equal('Authorization: Bearer token from ${GITHUB_TOKEN}');
    expect(auth('demo')).to.equal('Authorization: No authorization');
    expect(auth('linear')).to.equal('Authorization: OAuth');
    expect(auth('keyed')).to.equal('Authorization: custom headers X-Api-Key');
    expect(el.shadowRoot!.querySelector('tr[data-entry="local"] [data-auth]')).to.equal(null);
  });

  it('flags an empty value an entry to import needs at its field, and sends nothing until it is filled', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.value = 'x';
    $(el, '[data-action="preview"]').click();
    el.showPreview(preview);
    let sent = 0;
    el.addEventListener(ImportApplyEvent.type, () => sent++);
    $(el, '[data-action="import"]').click();
    expect(sent).to.equal(0);
    const field = $(el, 'input[data-token="${GITHUB_TOKEN}"]') as HTMLInputElement;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    const message = $(el, `#${field.getAttribute('aria-describedby')!}`);
    expect(message.hidden).to.equal(false);
    expect(message.textContent).to.equal('Fill this in to import.');
    expect(el.shadowRoot!.activeElement).to.equal(field);
    await expect(el).to.be.accessible();

    field.value = 's3cret';
    field.dispatchEvent(new Event('input'));
    expect(field.hasAttribute('aria-invalid')).to.equal(false);
    expect(message.hidden).to.equal(true);
    $(el, '[data-action="import"]').click();
    expect(sent).to.equal(1);
  });

  it('does not ask for the values of a conflict left unticked', async () => {
    const el = await fixture<McpImportElement>(html`<mcp-import></mcp-import>`);
    el.showPreview({
      dialect: 'cursor',
      errors: [],
      entries: [
        entry({ name: 'open', url: 'https://open.example.com/mcp', status: 'add' }),
        entry({
          name: 'demo',
          url: 'http://127.0.0.1:3939/mcp',
          status: 'conflict',
          authKind: 'bearer',
          bearerToken: '${T}',
          placeholders: [{ field: 'bearerToken', token: '${T}', label: 'T', secret: true }],
        }),
      ],
    });
    let sent = 0;
    el.addEventListener(ImportApplyEvent.type, () => sent++);
    $(el, '[data-action="import"]').click();
    expect(sent).to.equal(1);
    expect($(el, 'input[data-token="${T}"]').hasAttribute('aria-invalid')).to.equal(false);
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
