import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { ActivityChangedEvent, LogRequestEvent } from '../../src/components/events.js';
import type { McpActivityLogElement } from '../../src/components/mcp-activity-log.js';
import type { RequestLogEntryView } from '../../src/protocol/request-log-view.js';

const entry = (i: number, over: Partial<RequestLogEntryView> = {}): RequestLogEntryView => ({
  serverId: 'demo',
  serverName: 'Demo',
  at: 1_700_000_000_000 + i * 1000,
  method: 'tools/call',
  subject: `tool${i}`,
  durationMs: 12.6,
  status: 'ok',
  requestBytes: 100,
  responseBytes: 2048,
  ...over,
});

async function log(attrs = '') {
  const asked = new Promise<LogRequestEvent>((resolve) => document.addEventListener(LogRequestEvent.type, resolve, { once: true }));
  const el = await fixture<McpActivityLogElement>(
    attrs ? html`<mcp-activity-log server-id=${attrs}></mcp-activity-log>` : html`<mcp-activity-log></mcp-activity-log>`,
  );
  return { el, asked };
}

const labels = (el: McpActivityLogElement) => [...el.shadowRoot!.querySelectorAll('.method')].map((m) => m.textContent);

describe('mcp-activity-log', () => {
  it("asks for its server's log once shown, and again when the worker says the log changed", async () => {
    const { el, asked } = await log('demo');
    expect((await asked).serverId).to.equal('demo');
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.equal('No activity recorded yet.');
    const again = oneEvent(el, LogRequestEvent.type);
    document.dispatchEvent(new ActivityChangedEvent('log'));
    expect(((await again) as unknown as LogRequestEvent).serverId).to.equal('demo');
  });

  it("without server-id asks for every server and names each row's server", async () => {
    const { el, asked } = await log();
    expect((await asked).serverId).to.equal('');
    el.entries = [entry(1), entry(2, { serverId: 'b', serverName: 'Atlassian Confluence (work account)' })];
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll('.server')].map((s) => s.textContent)).to.deep.equal([
      'Atlassian Confluence (work account)',
      'Demo',
    ]);
  });

  it('shows rows newest start first with method and subject, direction, outcome and duration', async () => {
    const { el } = await log('demo');
    el.entries = [
      entry(1, { method: 'initialize', subject: 'https://mcp.example/mcp' }),
      entry(3, { method: 'elicitation/create', subject: undefined, direction: 'in' }),
      entry(2, { subject: 'echo', status: 503, error: 'Service unavailable' }),
    ];
    await el.updateComplete;
    expect(labels(el)).to.deep.equal(['elicitation/create', 'tools/call echo', 'initialize https://mcp.example/mcp']);
    const rows = [...el.shadowRoot!.querySelectorAll('details')];
    expect(rows[0]!.querySelector('.dir')!.textContent).to.equal('←');
    expect(rows[0]!.querySelector('.sr')!.textContent).to.equal('Request from the server');
    expect(rows[1]!.dataset.outcome).to.equal('error');
    expect(rows[1]!.querySelector('.outcome')!.textContent).to.equal('Failed (HTTP 503)');
    expect(rows[0]!.querySelector('.outcome')!.textContent).to.equal('OK', 'a status that is not HTTP adds nothing to the word');
    expect(rows[1]!.querySelector('.duration')!.textContent).to.equal('13 ms');
  });

  it('marks OAuth traffic', async () => {
    const { el } = await log('demo');
    el.entries = [entry(1, { method: 'oauth:token', subject: undefined, status: 200 })];
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.tag')!.textContent).to.equal('OAuth');
  });

  it('opens a row to show its payloads and error', async () => {
    const { el } = await log('demo');
    el.entries = [entry(1, { request: { name: 'echo', arguments: { text: 'hi' } }, response: { content: [] }, error: 'oops' })];
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('details')!;
    expect(row.querySelector('pre')).to.equal(null, 'built on first open');
    row.open = true;
    await oneEvent(row, 'toggle');
    expect(row.querySelector('pre.request')!.textContent).to.contain('"text": "hi"');
    expect(row.querySelector('pre.response')!.textContent).to.contain('"content"');
    expect(row.querySelector('.error')!.textContent).to.equal('oops');
  });

  it('a row the user opened stays open with its payloads when new calls arrive', async () => {
    const { el } = await log('demo');
    const first = entry(1, { request: { name: 'echo' }, response: { content: [] } });
    el.entries = [first, entry(2)];
    await el.updateComplete;
    const opened = [...el.shadowRoot!.querySelectorAll('details')].find((d) => d.textContent.includes('tool1'))!;
    opened.open = true;
    await oneEvent(opened, 'toggle');
    // The worker sends the whole log again, one entry longer and without the oldest position.
    el.entries = [entry(3), first, entry(2)];
    await el.updateComplete;
    const rows = [...el.shadowRoot!.querySelectorAll('details')];
    expect(labels(el)).to.deep.equal(['tools/call tool3', 'tools/call tool2', 'tools/call tool1']);
    expect(rows.map((d) => d.open)).to.deep.equal([false, false, true]);
    expect(rows[2]!.querySelector('pre.request')!.textContent).to.contain('"name": "echo"');
  });

  it('filters by the search, and says when nothing matches', async () => {
    const { el } = await log('demo');
    el.entries = [entry(1, { subject: 'echo' }), entry(2, { method: 'prompts/get', subject: 'greet' })];
    await el.updateComplete;
    const search = el.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    search.value = 'GREET';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(labels(el)).to.deep.equal(['prompts/get greet']);
    search.value = 'nothing-like-this';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(labels(el)).to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.equal('No activity matches the search.');
  });

  it('exports the shown rows and says so', async () => {
    const { el } = await log('demo');
    el.entries = [entry(1), entry(2)];
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[data-action="export"]')!.click();
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('Exported 2 entries to remote-mcp-activity-demo.json.');
  });

  it('renders hostile methods, subjects, server names, errors and payloads as text', async () => {
    const evil = '<img src=x onerror="window.__pwnedLog=1">';
    const { el } = await log();
    el.entries = [
      entry(1, { method: evil, subject: evil, serverName: evil, status: 'error', error: evil, request: evil, response: { evil } }),
    ];
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('details')!;
    row.open = true;
    await oneEvent(row, 'toggle');
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect(row.querySelector('.method')!.textContent).to.equal(`${evil} ${evil}`);
    expect((window as unknown as { __pwnedLog?: number }).__pwnedLog).to.equal(undefined);
  });

  it('names its search field, and is accessible empty and with an open row', async () => {
    const { el } = await log('demo');
    expect(el.shadowRoot!.querySelector('input')!.getAttribute('aria-label')).to.equal('Search activity');
    await expect(el).to.be.accessible();
    el.entries = [entry(1, { request: { a: 1 } }), entry(2, { status: 503, error: 'Service unavailable' })];
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('details')!;
    row.open = true;
    await oneEvent(row, 'toggle');
    await expect(el).to.be.accessible();
  });
});
