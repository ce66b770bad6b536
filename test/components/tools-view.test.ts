import { expect, fixture, html, nextFrame, oneEvent } from '@open-wc/testing';
import './setup.js';
import { pollUntil } from './wait.js';
import { NavigateEvent } from '../../src/components/events.js';
import type { McpToolsViewElement } from '../../src/components/mcp-tools-view.js';
import { FIRST_CHUNK } from '../../src/components/mcp-tools-view.js';
import type { Tool } from '../../src/protocol/mcp-shapes.js';
import { serverView } from './server-view.js';

const many = (n: number): Tool[] =>
  Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, description: `Does thing ${i}`, inputSchema: { type: 'object' } }));

/** Lets the update run, then every later chunk of rows. */
async function settled(view: McpToolsViewElement, rows?: number) {
  await view.updateComplete;
  await pollUntil(() => rows !== undefined && $$(view, 'li').length >= rows, 100, 5);
  await nextFrame();
}

const $$ = (view: McpToolsViewElement, sel: string) => [...view.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const search = (view: McpToolsViewElement, text: string) => {
  const input = view.shadowRoot!.querySelector('input[type=search]') as HTMLInputElement;
  input.value = text;
  input.dispatchEvent(new InputEvent('input'));
};

async function make(servers = [serverView({ tools: many(3) })]) {
  const view = await fixture<McpToolsViewElement>(html`<mcp-tools-view></mcp-tools-view>`);
  view.servers = servers;
  await settled(view);
  return view;
}

describe('mcp-tools-view', () => {
  it('lists the enabled tools of ready servers, grouped and named by server, and opens a tool', async () => {
    const view = await make([
      serverView({ tools: many(3), disabledTools: ['tool_1'] }),
      serverView({ id: 'off', name: 'Off', enabled: false, tools: many(2) }),
      serverView({ id: 'down', name: 'Down', status: 'disconnected', tools: many(2) }),
    ]);
    expect($$(view, 'h2').map((h) => h.textContent)).to.deep.equal(['Demo']);
    expect($$(view, 'ul')[0]!.getAttribute('aria-label')).to.equal('Tools of Demo');
    expect($$(view, 'button.tool').map((b) => b.dataset['tool'])).to.deep.equal(['tool_0', 'tool_2']);
    setTimeout(() => $$(view, 'button.tool')[1]!.click());
    const e = await oneEvent<NavigateEvent>(view, NavigateEvent.type);
    expect(e.to).to.deep.equal({ view: 'tool', serverId: 'demo', tool: 'tool_2' });
  });

  it('attaches the first rows at once and the rest in later tasks, until every row is in', async () => {
    const view = await fixture<McpToolsViewElement>(html`<mcp-tools-view></mcp-tools-view>`);
    view.servers = [serverView({ tools: many(1000) })];
    await Promise.resolve();
    expect($$(view, 'li')).to.have.length(FIRST_CHUNK);
    await settled(view, 1000);
    expect($$(view, 'li').map((li) => li.querySelector('button')!.dataset['tool'])).to.deep.equal(many(1000).map((t) => t.name));
  });

  it('keeps every row element across a push that changes nothing, and rebuilds only a changed tool', async () => {
    const tools = many(200);
    const view = await make([serverView({ tools })]);
    await settled(view, 200);
    const before = $$(view, 'li');
    view.servers = [serverView({ tools: tools.map((t) => ({ ...t })) })];
    await settled(view);
    expect($$(view, 'li')).to.deep.equal(before);
    view.servers = [serverView({ tools: tools.map((t, i) => (i === 5 ? { ...t, description: 'New' } : { ...t })) })];
    await settled(view);
    const after = $$(view, 'li');
    expect(after.filter((li, i) => li !== before[i])).to.have.length(1);
    expect(after[5]!.textContent).to.contain('New');
  });

  it('filters by search reusing rows, says when nothing matches, and shows every row again when cleared', async () => {
    const view = await make([serverView({ tools: many(300) })]);
    await settled(view, 300);
    const row7 = $$(view, 'li')[7];
    search(view, 'tool_7');
    await settled(view);
    expect($$(view, 'li')).to.have.length(11); // tool_7, tool_70 … tool_79
    expect($$(view, 'li')[0]).to.equal(row7);
    search(view, 'zzz');
    await settled(view);
    expect($$(view, 'li')).to.have.length(0);
    expect(view.shadowRoot!.querySelector<HTMLElement>('.empty')!.hidden).to.equal(false);
    search(view, '');
    await settled(view, 300);
    expect($$(view, 'li')).to.have.length(300);
  });

  it('keeps every row that still matches attached, wherever it is, as the search narrows and widens', async () => {
    const view = await make([serverView({ tools: many(300) })]);
    await settled(view, 300);
    const row29 = $$(view, 'li')[29];
    search(view, 'tool_2');
    await settled(view);
    expect($$(view, 'li')).to.have.length(111); // tool_2, tool_20 … tool_29, tool_200 … tool_299
    search(view, 'tool_29');
    await Promise.resolve();
    // Narrowing only detaches: the rows that still match are the same elements, none waits for a later task.
    expect($$(view, 'li')).to.have.length(11);
    expect($$(view, 'li')[0]).to.equal(row29);
    search(view, '');
    await Promise.resolve();
    // Widening inserts at once the rows missing among the first FIRST_CHUNK (the rows in view, tool_29
    // kept among them), before the kept ones; the rest later, in catalog order.
    const names = () => $$(view, 'li').map((li) => li.querySelector('button')!.dataset['tool']);
    expect(names().slice(0, FIRST_CHUNK)).to.deep.equal(
      many(300)
        .slice(0, FIRST_CHUNK)
        .map((t) => t.name),
    );
    expect(names().slice(FIRST_CHUNK)).to.deep.equal(
      many(300)
        .slice(290)
        .map((t) => t.name),
    );
    await settled(view, 300);
    const rows = $$(view, 'li');
    expect(rows.map((li) => li.querySelector('button')!.dataset['tool'])).to.deep.equal(many(300).map((t) => t.name));
    expect(rows[29]).to.equal(row29);
  });

  it('attaches no row past the first FIRST_CHUNK in the task of a keystroke that comes while the list is still filling', async () => {
    const view = await fixture<McpToolsViewElement>(html`<mcp-tools-view></mcp-tools-view>`);
    view.servers = [serverView({ tools: many(500) }), serverView({ id: 'b', name: 'B', tools: many(500) })];
    await Promise.resolve();
    expect($$(view, 'li')).to.have.length(FIRST_CHUNK);
    search(view, 'tool');
    // Every row still matches: the first FIRST_CHUNK are in, the others come in later tasks.
    expect($$(view, 'li')).to.have.length(FIRST_CHUNK);
    await settled(view, 1000);
    expect($$(view, 'h2').map((h) => h.textContent)).to.deep.equal(['Demo', 'B']);
    expect($$(view, 'li').map((li) => li.querySelector('button')!.dataset['tool'])).to.deep.equal(
      [...many(500), ...many(500)].map((t) => t.name),
    );
  });

  it('keeps the focus on the focused row across a push', async () => {
    const tools = many(100);
    const view = await make([serverView({ tools })]);
    await settled(view, 100);
    $$(view, 'button.tool')[80]!.focus();
    view.servers = [serverView({ tools: tools.map((t) => ({ ...t })) })];
    await settled(view);
    expect((view.shadowRoot!.activeElement as HTMLElement).dataset['tool']).to.equal('tool_80');
  });

  it('is accessible', async () => {
    const view = await make();
    await expect(view).to.be.accessible();
  });
  it('a group out of view is neither laid out nor painted until shown, its size estimated from its rows; its rows stay focusable', async () => {
    const servers = ['a', 'b', 'c'].map((id) => serverView({ id, name: `Server ${id}`, tools: many(40) }));
    const view = await make(servers);
    await settled(view, 120);
    const groups = $$(view, 'ul');
    expect(getComputedStyle(groups[2]!).contentVisibility).to.equal('auto');
    expect(groups[2]!.style.containIntrinsicBlockSize).to.equal('auto 2000px');
    search(view, 'tool_3');
    await settled(view);
    expect(groups[2]!.style.containIntrinsicBlockSize).to.equal(`auto ${11 * 50}px`, 'tool_3 and tool_30–39');
    const last = groups[2]!.querySelector<HTMLButtonElement>('li:last-child button')!;
    last.focus();
    expect(view.shadowRoot!.activeElement).to.equal(last);
  });
});
