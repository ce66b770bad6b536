import { expect, fixture, html, nextFrame, oneEvent } from '@open-wc/testing';
import './setup.js';
import { laterChunks } from './wait.js';
import { BulkToolToggleEvent, ToolToggleEvent } from '../../src/components/events.js';
import type { McpToolListElement } from '../../src/components/mcp-tool-list.js';
import { PAGE_SIZE } from '../../src/components/mcp-tool-list.js';
import type { Tool } from '../../src/protocol/mcp-shapes.js';

/** The update, then the later chunk of a page of rows (see chunked-children.ts). */
async function settled(list: McpToolListElement) {
  await list.updateComplete;
  await laterChunks();
}

async function make(tools: Tool[], disabled: string[] = []) {
  const list = await fixture<McpToolListElement>(html`<mcp-tool-list server-id="demo" aria-label="Tools of Demo"></mcp-tool-list>`);
  list.tools = tools;
  list.disabledTools = disabled;
  await settled(list);
  return list;
}

const $ = (list: McpToolListElement, sel: string) => list.shadowRoot!.querySelector<HTMLElement>(sel);
const $$ = (list: McpToolListElement, sel: string) => [...list.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const visibleRows = (list: McpToolListElement) => $$(list, 'li');
const many = (n: number): Tool[] =>
  Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, description: `Does thing ${i}`, inputSchema: { type: 'object' } }));

describe('mcp-tool-list', () => {
  it('renders nothing but the toolbar for an empty catalog', async () => {
    const list = await make([]);
    expect($$(list, 'li')).to.have.length(0);
    expect($(list, '.count')!.textContent).to.equal('0 of 0 shown');
  });

  it('shows title, name, description and annotation hints as claims', async () => {
    const list = await make([
      {
        name: 'read',
        title: 'Read a file',
        description: 'Reads.',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true, destructiveHint: false },
      },
    ]);
    const li = $$(list, 'li')[0]!;
    expect(li.querySelector('.name')!.textContent).to.equal('Read a file');
    expect(li.querySelector('.id')!.textContent).to.equal('read');
    expect(li.querySelector('.desc')!.textContent).to.equal('Reads.');
    expect([...li.querySelectorAll('.chip')].map((c) => c.textContent)).to.deep.equal(['read-only hint']);
  });

  it('renders the input schema as text only when opened', async () => {
    const evil = '<img src=x onerror="window.__pwnedSchema=1">';
    const list = await make([{ name: 'x', inputSchema: { type: 'object', description: evil } }]);
    const details = $(list, 'details') as HTMLDetailsElement;
    expect($(list, 'pre')!.textContent).to.equal('');
    details.open = true;
    await oneEvent(details, 'toggle');
    expect(JSON.parse($(list, 'pre')!.textContent)).to.deep.equal({ type: 'object', description: evil });
    expect(list.shadowRoot!.querySelector('img')).to.equal(null);
  });

  it('renders hostile names and descriptions as text, creating no element (K5)', async () => {
    const evil = '<img src=x onerror="window.__pwnedTool=1">';
    const list = await make([{ name: evil, title: evil, description: evil, inputSchema: {}, annotations: { title: evil } }]);
    await nextFrame();
    expect(list.shadowRoot!.querySelector('img')).to.equal(null);
    expect($(list, '.desc')!.textContent).to.equal(evil);
    expect($(list, '.name')!.textContent).to.equal(evil);
    expect((window as unknown as { __pwnedTool?: number }).__pwnedTool).to.equal(undefined);
  });

  it('emits a single toggle with the tool and its new state', async () => {
    const list = await make(many(3), ['tool_1']);
    const box = $(list, 'input[data-tool="tool_1"]') as HTMLInputElement;
    expect(box.checked).to.equal(false);
    const sent = oneEvent(list, ToolToggleEvent.type);
    box.click();
    const e = (await sent) as unknown as ToolToggleEvent;
    expect([e.serverId, e.tool, e.enabled]).to.deep.equal(['demo', 'tool_1', true]);
    expect(e.composed && e.bubbles).to.equal(true);
  });

  it('filters by search without rebuilding rows, and Escape clears it', async () => {
    const list = await make(many(30));
    const before = $$(list, 'li');
    const row2 = before[2];
    const search = $(list, 'input[type=search]') as HTMLInputElement;
    search.value = 'TOOL_2';
    search.dispatchEvent(new Event('input'));
    expect(visibleRows(list).map((li) => li.querySelector('input')!.dataset['tool'])).to.deep.equal([
      'tool_2',
      'tool_20',
      'tool_21',
      'tool_22',
      'tool_23',
      'tool_24',
      'tool_25',
      'tool_26',
      'tool_27',
      'tool_28',
      'tool_29',
    ]);
    expect(visibleRows(list)[0]).to.equal(row2);
    expect($(list, '.count')!.textContent).to.equal('11 of 30 shown');
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await settled(list);
    expect(visibleRows(list)).to.deep.equal(before);
  });

  it('says so when nothing matches', async () => {
    const list = await make(many(3));
    list.query = 'zzz';
    expect(visibleRows(list)).to.have.length(0);
    expect(($(list, 'p') as HTMLElement).hidden).to.equal(false);
  });

  it('bulk-disables only the shown tools, keeping other disabled names', async () => {
    const list = await make(many(5), ['gone', 'tool_0']);
    expect(($(list, '[data-bulk="disable-shown"]') as HTMLElement).hidden).to.equal(true);
    list.query = 'thing 3';
    const sent = oneEvent(list, BulkToolToggleEvent.type);
    ($(list, '[data-bulk="disable-shown"]') as HTMLButtonElement).click();
    const e = (await sent) as unknown as BulkToolToggleEvent;
    expect(e.disabledTools).to.deep.equal(['gone', 'tool_0', 'tool_3']);
    expect(($(list, 'input[data-tool="tool_3"]') as HTMLInputElement).checked).to.equal(false);
    list.query = '';
    expect(($(list, 'input[data-tool="tool_4"]') as HTMLInputElement).checked).to.equal(true);
  });

  it('bulk enable all and disable all cover every tool', async () => {
    const list = await make(many(4), ['tool_1']);
    let sent = oneEvent(list, BulkToolToggleEvent.type);
    ($(list, '[data-bulk="disable-all"]') as HTMLButtonElement).click();
    expect(((await sent) as unknown as BulkToolToggleEvent).disabledTools).to.deep.equal(['tool_0', 'tool_1', 'tool_2', 'tool_3']);
    sent = oneEvent(list, BulkToolToggleEvent.type);
    ($(list, '[data-bulk="enable-all"]') as HTMLButtonElement).click();
    expect(((await sent) as unknown as BulkToolToggleEvent).disabledTools).to.deep.equal([]);
    expect($$(list, 'input[type=checkbox]').every((b) => (b as HTMLInputElement).checked)).to.equal(true);
  });

  it('handles 1,000 tools: renders, filters and re-renders quickly, reusing rows', async () => {
    const tools = many(1000);
    const frames = async () => {
      await nextFrame();
      await nextFrame();
    };
    let start = performance.now();
    const list = await make(tools);
    await frames();
    const firstRender = performance.now() - start;
    expect($$(list, 'li')).to.have.length(PAGE_SIZE);
    expect($(list, '[data-more]')!.hidden).to.equal(false);
    expect($(list, '[data-more]')!.textContent).to.equal('Show 100 more (900 not shown)');
    ($(list, '[data-more]') as HTMLButtonElement).click();
    await settled(list);
    expect($$(list, 'li')).to.have.length(2 * PAGE_SIZE);
    const row99 = $(list, 'input[data-tool="tool_99"]')!.closest('li');

    start = performance.now();
    list.query = 'thing 99';
    await frames();
    const filterMs = performance.now() - start;
    expect(visibleRows(list)).to.have.length(19);

    start = performance.now();
    list.tools = tools.map((t) => ({ ...t }));
    list.disabledTools = ['tool_99'];
    await settled(list);
    await frames();
    const updateMs = performance.now() - start;
    console.log(
      `1,000 tools: first render ${firstRender.toFixed(0)} ms, filter ${filterMs.toFixed(0)} ms, re-render ${updateMs.toFixed(0)} ms`,
    );
    expect($(list, 'input[data-tool="tool_99"]')!.closest('li')).to.equal(row99);
    expect(($(list, 'input[data-tool="tool_99"]') as HTMLInputElement).checked).to.equal(false);
    expect(visibleRows(list)).to.have.length(19);
  });

  it('builds a row only when it is attached, with its current state', async () => {
    const tools = many(300);
    const list = await make(tools, ['tool_150']);
    expect($$(list, 'input[type=checkbox]')).to.have.length(PAGE_SIZE);
    list.tools = tools.map((t) => (t.name === 'tool_150' ? { ...t, title: 'Renamed' } : t));
    await settled(list);
    list.query = 'tool_150';
    await settled(list);
    const box = $(list, 'input[data-tool="tool_150"]') as HTMLInputElement;
    expect(box.checked).to.equal(false);
    expect(box.getAttribute('aria-label')).to.equal('Renamed enabled');
    expect($$(list, 'input[type=checkbox]')).to.have.length(1);
  });

  it('keeps very long names from widening the panel', async () => {
    const long = 'x'.repeat(128);
    const list = await make([{ name: long, description: 'y'.repeat(5000), inputSchema: {} }]);
    list.style.width = '300px';
    await nextFrame();
    expect(list.scrollWidth).to.be.at.most(300);
  });

  it('is keyboard operable: every control is a native focusable control', async () => {
    const list = await make(many(2));
    const focusables = $$(list, 'input, button:not([hidden]), summary');
    expect(focusables.length).to.be.greaterThan(4);
    const box = $(list, 'input[data-tool="tool_0"]') as HTMLInputElement;
    box.focus();
    expect(list.shadowRoot!.activeElement).to.equal(box);
  });

  it('is accessible', async () => {
    const list = await make([...many(3), { name: 'r', title: 'R', inputSchema: {}, annotations: { readOnlyHint: true } }], ['tool_1']);
    await expect(list).to.be.accessible();
  });
});
