import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import { nextTask } from './wait.js';
import type { McpToolRunnerElement } from '../../src/components/mcp-tool-runner.js';
import { CancelToolEvent, RunToolEvent } from '../../src/components/events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

const servers: ServerView[] = [
  serverView({
    tools: [
      { name: 'slow', inputSchema: { type: 'object' } },
      { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
    ],
  }),
];

async function runner() {
  const el = await fixture<McpToolRunnerElement>(html`<mcp-tool-runner></mcp-tool-runner>`);
  el.servers = servers;
  return el;
}

async function start(el: McpToolRunnerElement): Promise<RunToolEvent> {
  setTimeout(() => el.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
  return await oneEvent<RunToolEvent>(el, RunToolEvent.type);
}

/** The runner's tool select, a way to choose a demo tool, and the form's input for an argument. */
async function draftRunner() {
  const el = await runner();
  const root = el.shadowRoot!;
  const select = root.querySelector('select')!;
  const choose = (tool: string) => {
    select.value = JSON.stringify(['demo', tool]);
    select.dispatchEvent(new Event('change'));
  };
  const input = (name: string) =>
    root.querySelector('mcp-schema-form')!.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify([name])}']`)!;
  return { el, select, choose, input };
}

describe('mcp-tool-runner', () => {
  it('gives every run its own operationId and offers Abort for it', async () => {
    const el = await runner();
    const run = await start(el);
    expect(run.operationId).to.match(/^[0-9a-f]{32}$/);
    const abort = el.shadowRoot!.querySelector<HTMLButtonElement>('button.abort')!;
    expect(abort.hidden).to.equal(false);
    setTimeout(() => abort.click());
    const cancel = await oneEvent<CancelToolEvent>(el, CancelToolEvent.type);
    expect([cancel.serverId, cancel.operationId]).to.deep.equal(['demo', run.operationId]);
  });

  it('shows progress of its own call only', async () => {
    const el = await runner();
    const run = await start(el);
    const bar = el.shadowRoot!.querySelector('progress')!;
    el.showProgress('someoneelse', 5, 10, 'not mine');
    expect(bar.hidden).to.equal(true);
    el.showProgress(run.operationId!, 3, 10, 'step 3/10');
    expect(bar.hidden).to.equal(false);
    expect([bar.value, bar.max]).to.deep.equal([3, 10]);
    expect(el.shadowRoot!.querySelector('.progress-text')!.textContent).to.equal('step 3/10');
    el.showResult({ content: [{ type: 'text', text: 'done' }] });
    expect(bar.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('button.abort')!.hidden).to.equal(true);
  });

  it('shows the result in its viewer, and clears it when another tool is picked', async () => {
    const { el, choose } = await draftRunner();
    choose('add');
    el.showResult({ content: [{ type: 'text', text: 'sum=5' }], structuredContent: { sum: 5 } });
    const view = el.shadowRoot!.querySelector('mcp-result-view')!;
    expect(view.shadowRoot!.querySelector('pre.text')!.textContent).to.equal('sum=5');
    expect(view.shadowRoot!.querySelector('.structured')!.textContent).to.contain('sum: 5');
    choose('slow');
    expect(view.shadowRoot!.querySelector('.parts')!.children.length).to.equal(0);
  });

  it("maps a server's refusal of the arguments to the form's field instead of showing it raw", async () => {
    const { el, choose, input } = await draftRunner();
    choose('add');
    input('a').value = '1';
    input('b').value = '2';
    await start(el);
    el.showResult({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'MCP error -32602: Input validation error: Invalid arguments for tool add: [{"code":"too_big","path":["b"],"message":"Too big: expected number to be <=1"}]',
        },
      ],
    });
    expect(input('b').getAttribute('aria-invalid')).to.equal('true');
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    expect(form.shadowRoot!.querySelector('.field-error[data-path=\'["b"]\']')!.textContent).to.equal('Too big: expected number to be <=1');
    const view = el.shadowRoot!.querySelector('mcp-result-view')!;
    expect(view.shadowRoot!.querySelector('.output')!.textContent).to.not.contain('too_big');
    expect(view.shadowRoot!.querySelector('p.error')!.textContent).to.contain('did not accept');
  });

  it('says it waits for an answer while a question of its call is slotted next to its buttons', async () => {
    const el = await runner();
    await start(el);
    const card = document.createElement('mcp-elicitation-card');
    card.slot = 'question';
    el.append(card);
    await nextTask();
    const waiting = el.shadowRoot!.querySelector('.waiting')!;
    expect(waiting.textContent).to.equal('Waiting for your answer');
    expect(el.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="question"]')!.assignedElements()).to.deep.equal([card]);
    card.remove();
    await nextTask();
    expect(waiting.textContent).to.equal('');
  });

  it("fills a form generated from the chosen tool's schema, and does not run with invalid input", async () => {
    const el = await runner();
    const select = el.shadowRoot!.querySelector('select')!;
    select.value = JSON.stringify(['demo', 'add']);
    select.dispatchEvent(new Event('change'));
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    const a = form.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['a'])}']`)!;
    const b = form.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['b'])}']`)!;
    a.value = '';
    let ran = false;
    el.addEventListener(RunToolEvent.type, () => (ran = true), { once: true });
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    expect(ran).to.equal(false);
    expect(form.shadowRoot!.querySelector('.field-error')!.textContent).to.equal('is required');
    expect(a.type).to.equal('number');
    a.value = '2';
    b.value = '3';
    const run = await start(el);
    expect([run.tool, run.args]).to.deep.equal(['add', { a: 2, b: 3 }]);
  });

  it('keeps the chosen tool and what was typed while its server is briefly not ready (a worker restart)', async () => {
    const { el, select, choose, input } = await draftRunner();
    choose('add');
    input('a').value = '12';
    input('b').value = '-7';
    el.servers = [{ ...servers[0]!, status: 'connecting' }];
    expect(select.options.length).to.equal(0);
    el.servers = [{ ...servers[0]!, status: 'ready' }];
    expect(select.value).to.equal(JSON.stringify(['demo', 'add']));
    expect(input('a').value).to.equal('12');
    expect(input('b').value).to.equal('-7');
  });

  it('keeps what was typed for each tool when switching between them', async () => {
    const { choose, input } = await draftRunner();
    choose('add');
    input('a').value = '5';
    choose('slow');
    choose('add');
    expect(input('a').value).to.equal('5');
  });

  it('does not force a draft into a tool whose schema changed', async () => {
    const { el, select, choose, input } = await draftRunner();
    choose('add');
    input('a').value = '5';
    el.servers = [{ ...servers[0]!, status: 'connecting' }];
    const changed = { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } };
    el.servers = [{ ...servers[0]!, tools: [servers[0]!.tools[0]!, changed] }];
    expect(select.value).to.equal(JSON.stringify(['demo', 'add']));
    expect(input('a').value).to.equal('');
  });
});
