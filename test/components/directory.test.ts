import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { AddServerEvent, DirectoryChooseEvent, DirectorySearchEvent, ProbeServerEvent } from '../../src/components/events.js';
import type { McpDirectoryElement } from '../../src/components/mcp-directory.js';
import type { McpAddServerElement } from '../../src/components/mcp-add-server.js';
import type { DirectoryEntry, DirectoryPage } from '../../src/protocol/panel-directory.js';

const REG = { registryUrl: 'https://registry.example', isDefault: false };
const weather: DirectoryEntry = {
  name: 'io.example/weather',
  title: 'Weather',
  description: 'Forecasts.',
  version: '1.2.0',
  repository: 'https://github.com/example/weather',
  remotes: [{ url: 'https://weather.example/mcp', headers: [{ name: 'X-Api-Key', required: true, secret: true, placeholder: 'wk_…' }] }],
  notes: [],
};
const local: DirectoryEntry = {
  name: 'io.example/files',
  remotes: [],
  unusable: {
    message: 'It runs as a local package (stdio), which a browser cannot start.',
    wording: { code: 'reasonDirectoryOnlyPackages' },
  },
  notes: [],
};
const page = (entries: DirectoryEntry[], nextCursor?: string): DirectoryPage => ({
  registryUrl: REG.registryUrl,
  entries,
  dropped: 0,
  ...(nextCursor ? { nextCursor } : {}),
});

async function directory() {
  const el = await fixture<McpDirectoryElement>(html`<mcp-directory></mcp-directory>`);
  el.settings = REG;
  return el;
}
const q = <T extends Element>(el: Element, s: string) => el.shadowRoot!.querySelector<T>(s)!;

async function searchFor(el: McpDirectoryElement, text: string) {
  q<HTMLInputElement>(el, 'input[name="search"]').value = text;
  const asked = oneEvent(el, DirectorySearchEvent.type);
  q<HTMLButtonElement>(el, 'button[name="search"]').click();
  return ((await asked) as unknown as DirectorySearchEvent).detail;
}

describe('mcp-directory (S1)', () => {
  it('asks for nothing until Search; then lists entries as text, with their endpoint or why not usable', async () => {
    let asked = 0;
    document.addEventListener(DirectorySearchEvent.type, () => asked++, { once: true });
    const el = await directory();
    expect(asked).to.equal(0);
    expect(q(el, '.registry .host').textContent).to.equal('Registry: registry.example');
    expect(await searchFor(el, ' weather ')).to.deep.equal({ search: 'weather' });
    expect(q(el, '.status').textContent).to.equal('Allow access to registry.example in Chrome’s dialog to search it.');
    el.showPage(page([weather, local], 'c2'));
    const rows = el.shadowRoot!.querySelectorAll('.entry');
    expect(rows.length).to.equal(2);
    expect(rows[0]!.querySelector('h3')!.textContent).to.equal('Weather1.2.0');
    expect(rows[0]!.querySelector<HTMLButtonElement>('button[name="use"]')!.getAttribute('aria-label')).to.equal(
      'Use Weather at https://weather.example/mcp',
    );
    expect(rows[0]!.querySelector('.asks')!.textContent).to.equal('Asks for: X-Api-Key');
    expect(rows[1]!.querySelector('.reason')!.textContent).to.equal(
      'Not usable here: It runs as a local package (stdio), which a browser cannot start.',
    );
    expect(rows[1]!.querySelector('button')).to.equal(null);
    expect(q(el, '.status').textContent).to.equal('2 servers shown.');
    await expect(el).to.be.accessible();
  });

  it('Load more sends the cursor and adds the next page; a failure says why and keeps the list', async () => {
    const el = await directory();
    await searchFor(el, 'x');
    el.showPage(page([weather], 'c2'));
    const more = q<HTMLButtonElement>(el, 'button[name="more"]');
    expect(more.hidden).to.equal(false);
    const asked = oneEvent(el, DirectorySearchEvent.type);
    more.click();
    expect(((await asked) as unknown as DirectorySearchEvent).detail).to.deep.equal({ search: 'x', cursor: 'c2' });
    el.showPage(page([local]));
    expect(el.shadowRoot!.querySelectorAll('.entry').length).to.equal(2);
    expect(more.hidden).to.equal(true);
    await searchFor(el, 'y');
    el.showError('The registry could not be searched: it is down.');
    expect(q(el, '.status').className).to.equal('status error');
    expect(el.shadowRoot!.querySelectorAll('.entry').length).to.equal(2, 'nothing lost');
  });

  it('registry strings are text, never markup', async () => {
    const el = await directory();
    await searchFor(el, '');
    el.showPage(
      page([{ ...weather, title: '<img src=x onerror="globalThis.hacked=1">', description: '<script>globalThis.hacked=1</script>' }]),
    );
    expect(el.shadowRoot!.querySelector('.entry img, .entry script')).to.equal(null);
    expect(q(el, '.entry h3 .title').textContent).to.equal('<img src=x onerror="globalThis.hacked=1">');
    expect((globalThis as { hacked?: number }).hacked).to.equal(undefined);
  });

  it('Use hands the entry and its endpoint on', async () => {
    const el = await directory();
    await searchFor(el, '');
    el.showPage(page([weather]));
    const chosen = oneEvent(el, DirectoryChooseEvent.type);
    q<HTMLButtonElement>(el, '.entry button[name="use"]').click();
    const e = (await chosen) as unknown as DirectoryChooseEvent;
    expect(e.detail.remote.url).to.equal('https://weather.example/mcp');
  });
});

describe('mcp-add-server filled from the directory (S1)', () => {
  const header = { name: 'X-Api-Key', required: true, secret: true, placeholder: 'wk_…', description: 'Your key.' };

  async function prefilled() {
    const el = await fixture<McpAddServerElement>(html`<mcp-add-server></mcp-add-server>`);
    el.prefill({
      name: 'Weather',
      url: 'https://weather.example/mcp',
      headers: [header, { name: 'Authorization', required: true, secret: true }],
    });
    return el;
  }

  it('the URL, the name and each declared header as a field; a required one must be filled; its value goes in the add', async () => {
    const el = await prefilled();
    expect(q(el, '.from-directory').textContent).to.equal('From the directory: Weather. Continue checks the server.');
    expect(q<HTMLInputElement>(el, 'input[name="url"]').value).to.equal('https://weather.example/mcp');
    const probe = oneEvent(el, ProbeServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="continue"]').click();
    await probe;
    el.showProbe({ ok: true, authKind: 'bearer' });
    expect(q<HTMLSelectElement>(el, 'select[name="auth-kind"]').value).to.equal('none', 'the 403 was the missing header');
    expect(q<HTMLInputElement>(el, 'input[name="name"]').value).to.equal('Weather');
    const input = q<HTMLInputElement>(el, 'input[data-header="X-Api-Key"]');
    expect(input.type).to.equal('password');
    expect(input.placeholder).to.equal('wk_…');
    expect(input.value).to.equal('', 'a placeholder is never a value');
    expect(q(el, '.reserved').textContent).to.match(/Authorization header/);
    let added = 0;
    el.addEventListener(AddServerEvent.type, () => added++);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(added).to.equal(0);
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    input.value = 'k-1';
    const sent = oneEvent(el, AddServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="add"]').click();
    expect(((await sent) as unknown as AddServerEvent).detail.headers).to.deep.equal([{ name: 'X-Api-Key', value: 'k-1' }]);
    await expect(el).to.be.accessible();
  });

  it('another URL typed over the directory’s drops its headers', async () => {
    const el = await prefilled();
    q<HTMLInputElement>(el, 'input[name="url"]').value = 'https://other.example/mcp';
    const probe = oneEvent(el, ProbeServerEvent.type);
    q<HTMLButtonElement>(el, 'button[name="continue"]').click();
    await probe;
    el.showProbe({ ok: true, authKind: 'none' });
    expect(el.shadowRoot!.querySelector('input[data-header]')).to.equal(null);
    expect(q<HTMLInputElement>(el, 'input[name="name"]').value).to.equal('other.example');
  });
});
