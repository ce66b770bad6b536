import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpComposerElement } from '../../src/components/mcp-composer.js';
import { ComposerRequestEvent } from '../../src/components/events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

const servers: ServerView[] = [
  serverView({
    prompts: [{ name: 'greet', title: 'Greeting', arguments: [{ name: 'name', required: true }] }],
    resources: [{ uri: 'demo://readme', name: 'readme', title: 'Read me' }],
    resourceTemplates: [{ uriTemplate: 'demo://items/{id}', name: 'item' }],
  }),
];

async function composer() {
  const el = await fixture<McpComposerElement>(html`<mcp-composer></mcp-composer>`);
  el.servers = servers;
  return el;
}
function typeText(el: McpComposerElement, value: string) {
  const ta = el.shadowRoot!.querySelector<HTMLTextAreaElement>('textarea.text')!;
  ta.value = value;
  ta.setSelectionRange(value.length, value.length);
  ta.dispatchEvent(new Event('input'));
}
const options = (el: McpComposerElement) => [...el.shadowRoot!.querySelectorAll('.suggestions button')].map((b) => b.textContent);

describe('mcp-composer', () => {
  it('lists server:prompt after "/" and asks for the prompt with its argument form', async () => {
    const el = await composer();
    typeText(el, 'hello /gr');
    expect(options(el)).to.deep.equal(['demo:greet']);
    el.shadowRoot!.querySelector<HTMLButtonElement>('.suggestions button')!.click();
    expect(el.shadowRoot!.querySelector<HTMLTextAreaElement>('textarea.text')!.value).to.equal('hello ');
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    const attach = el.shadowRoot!.querySelector<HTMLButtonElement>('button.attach')!;
    let asked = 0;
    el.addEventListener(ComposerRequestEvent.type, () => asked++, { once: true });
    attach.click();
    expect(asked, 'a required argument is missing').to.equal(0);
    form.shadowRoot!.querySelector<HTMLInputElement>('input')!.value = 'Ada';
    setTimeout(() => attach.click());
    const e = await oneEvent<ComposerRequestEvent>(el, ComposerRequestEvent.type);
    expect(e.detail).to.deep.equal({ kind: 'prompt', serverId: 'demo', prompt: 'greet', arguments: { name: 'Ada' } });
  });

  it('searches resources and templates by name or uri after "@"', async () => {
    const el = await composer();
    typeText(el, '@read');
    expect(options(el)).to.deep.equal(['Read me · demo://readme']);
    typeText(el, '@items');
    expect(options(el)).to.deep.equal(['item · demo://items/{id}']);
    typeText(el, '@nothing');
    expect(el.shadowRoot!.querySelector('.no-match')).to.not.equal(null);
    typeText(el, '@demo://readme');
    setTimeout(() => el.shadowRoot!.querySelector<HTMLButtonElement>('.suggestions button')!.click());
    const e = await oneEvent<ComposerRequestEvent>(el, ComposerRequestEvent.type);
    expect(e.detail).to.deep.equal({ kind: 'resource', serverId: 'demo', uri: 'demo://readme' });
  });

  it('shows blocks as text under the message and the message object as JSON', async () => {
    const el = await composer();
    typeText(el, 'Summarize this');
    el.addBlock({
      kind: 'resource',
      provenance: { serverId: 'demo', serverName: 'Demo', uri: 'demo://readme' },
      untrusted: true,
      delimiter: 'mcp-untrusted-ab',
      text: '<b>fenced</b>',
    });
    const root = el.shadowRoot!;
    expect(root.querySelector('.block pre')!.textContent).to.equal('<b>fenced</b>');
    expect(root.querySelector('b')).to.equal(null);
    const msg = JSON.parse(root.querySelector('.message-json')!.textContent) as { role: string; content: Record<string, unknown>[] };
    expect(msg.role).to.equal('user');
    expect(msg.content[0]).to.deep.equal({ type: 'text', text: 'Summarize this' });
    expect(msg.content[1]).to.deep.include({ type: 'context', kind: 'resource', untrusted: true, delimiter: 'mcp-untrusted-ab' });
    expect(msg.content[1]!.provenance).to.deep.equal({ source: 'mcp', serverId: 'demo', serverName: 'Demo', uri: 'demo://readme' });
    root.querySelector<HTMLButtonElement>('.block button.remove')!.click();
    expect((JSON.parse(root.querySelector('.message-json')!.textContent) as { content: unknown[] }).content.length).to.equal(1);
    await expect(el).to.be.accessible();
  });
});
