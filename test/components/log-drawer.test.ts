import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { LogRequestEvent } from '../../src/components/events.js';
import type { McpLogDrawerElement } from '../../src/components/mcp-log-drawer.js';
import type { RequestLogEntryView } from '../../src/protocol/request-log-view.js';

const entry = (i: number, over: Partial<RequestLogEntryView> = {}): RequestLogEntryView => ({
  at: 1_700_000_000_000 + i * 1000,
  method: `call-tool-${i}`,
  durationMs: 12.6,
  status: 'ok',
  requestBytes: 100,
  responseBytes: 2048,
  ...over,
});

describe('mcp-log-drawer', () => {
  it('asks for the log when opened and says when it is empty', async () => {
    const el = await fixture<McpLogDrawerElement>(html`<mcp-log-drawer server-id="demo"></mcp-log-drawer>`);
    expect(el.shadowRoot!.textContent).to.contain('No requests recorded yet.');
    const asked = oneEvent(el, LogRequestEvent.type);
    el.shadowRoot!.querySelector('summary')!.click();
    expect(((await asked) as unknown as LogRequestEvent).serverId).to.equal('demo');
  });

  it('lists at most the last 50 entries, newest first, with status, timing and sizes', async () => {
    const el = await fixture<McpLogDrawerElement>(html`<mcp-log-drawer server-id="demo"></mcp-log-drawer>`);
    el.entries = Array.from({ length: 60 }, (_, i) => entry(i, i === 59 ? { status: 'error', error: 'timed out' } : {}));
    const rows = [...el.shadowRoot!.querySelectorAll('tbody tr')];
    expect(rows).to.have.length(50);
    const cells = [...rows[0]!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells.slice(1)).to.deep.equal(['call-tool-59', 'error: timed out', '13 ms', '100 B / 2.0 KiB']);
    expect(rows[49]!.querySelector('.method')!.textContent).to.equal('call-tool-10');
  });

  it('exports what it shows as JSON', async () => {
    const el = await fixture<McpLogDrawerElement>(html`<mcp-log-drawer server-id="demo"></mcp-log-drawer>`);
    el.entries = [entry(1)];
    const doc = JSON.parse(el.exportJson()) as { serverId: string; entries: unknown[] };
    expect(doc.serverId).to.equal('demo');
    expect(doc.entries).to.deep.equal([entry(1)]);
  });

  it('renders hostile methods and errors as text', async () => {
    const evil = '<img src=x onerror="window.__pwnedLog=1">';
    const el = await fixture<McpLogDrawerElement>(html`<mcp-log-drawer server-id="demo"></mcp-log-drawer>`);
    el.entries = [entry(1, { method: evil, status: 'error', error: evil })];
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
  });

  it('is accessible, closed and open with entries', async () => {
    const el = await fixture<McpLogDrawerElement>(html`<mcp-log-drawer server-id="demo"></mcp-log-drawer>`);
    await expect(el).to.be.accessible();
    el.open = true;
    el.entries = [entry(1), entry(2, { status: 503, error: 'Service unavailable' })];
    await expect(el).to.be.accessible();
  });
});
