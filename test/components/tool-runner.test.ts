import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
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

  it('renders images only from image/* data, and resources and links as text', async () => {
    const el = await runner();
    el.showResult({
      content: [
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'image', mimeType: 'text/html', data: 'PGI+' },
        { type: 'resource', resource: { uri: 'demo://x', text: '<b>hi</b>' } },
        { type: 'resource_link', uri: 'demo://y', name: 'Y' },
        { type: 'text', text: 'abc\n[… truncated: 2.0 KiB cut to fit the result size budget]' },
      ],
    });
    const root = el.shadowRoot!;
    const imgs = root.querySelectorAll('img');
    expect(imgs.length).to.equal(1);
    expect(imgs[0]!.getAttribute('src')).to.equal('data:image/png;base64,iVBORw0KGgo=');
    expect(root.querySelector('.image-placeholder')!.textContent).to.contain('text/html');
    expect(root.querySelector('.resource pre')!.textContent).to.equal('<b>hi</b>');
    expect(root.querySelector('b')).to.equal(null);
    expect(root.querySelector('.resource-link')!.textContent).to.equal('Y → demo://y');
    expect(root.querySelector('pre.truncated')).to.not.equal(null);
  });

  it("fills a form generated from the chosen tool's schema, and does not run with invalid input", async () => {
    const el = await runner();
    const select = el.shadowRoot!.querySelector('select')!;
    select.value = JSON.stringify(['demo', 'add']);
    select.dispatchEvent(new Event('change'));
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    const a = form.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['a'])}']`)!;
    const b = form.shadowRoot!.querySelector<HTMLInputElement>(`[name='${JSON.stringify(['b'])}']`)!;
    a.value = 'x';
    let ran = false;
    el.addEventListener(RunToolEvent.type, () => (ran = true), { once: true });
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    expect(ran).to.equal(false);
    expect(form.shadowRoot!.querySelector('.field-error')!.textContent).to.equal('must be a number');
    a.value = '2';
    b.value = '3';
    const run = await start(el);
    expect([run.tool, run.args]).to.deep.equal(['add', { a: 2, b: 3 }]);
  });

  it('keeps the chosen tool and what was typed while its server is briefly not ready (a worker restart)', async () => {
    const { el, select, choose, input } = await draftRunner();
    choose('add');
    input('a').value = '12';
    input('b').value = 'not a number yet';
    el.servers = [{ ...servers[0]!, status: 'connecting' }];
    expect(select.options.length).to.equal(0);
    el.servers = [{ ...servers[0]!, status: 'ready' }];
    expect(select.value).to.equal(JSON.stringify(['demo', 'add']));
    expect(input('a').value).to.equal('12');
    expect(input('b').value).to.equal('not a number yet', 'kept as typed, even when not valid yet');
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
