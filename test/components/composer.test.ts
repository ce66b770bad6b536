import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import './setup.js';
import type { McpComposerElement } from '../../src/components/mcp-composer.js';
import { ComposerRequestEvent } from '../../src/components/events.js';
import { ComposerSendEvent } from '../../src/components/chat-events.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

const servers: ServerView[] = [
  serverView({
    prompts: [{ name: 'greet', title: 'Greeting', arguments: [{ name: 'name', required: true }] }],
    resources: [{ uri: 'demo://readme', name: 'readme', title: 'Read me' }],
    resourceTemplates: [{ uriTemplate: 'demo://items/{id}', name: 'item' }],
  }),
  serverView({
    id: 'srv_7f3a',
    name: 'Team Wiki',
    prompts: [
      { name: 'summarize', title: 'Summarize a page' },
      { name: 'summarize', title: 'Summarize a page' },
    ],
    resources: [],
    resourceTemplates: [],
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
const options = (el: McpComposerElement) =>
  [...el.shadowRoot!.querySelectorAll('.suggestions button')].map(
    (b) => `${b.querySelector('.label')!.textContent} · ${b.querySelector('.server')!.textContent}`,
  );
const textarea = (el: McpComposerElement) => el.shadowRoot!.querySelector<HTMLTextAreaElement>('textarea.text')!;
const key = (el: McpComposerElement, k: string) =>
  textarea(el).dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
const highlighted = (el: McpComposerElement) => el.shadowRoot!.querySelector('li[aria-selected="true"] .label')?.textContent ?? null;

describe('mcp-composer', () => {
  it('lists server:prompt after "/" and asks for the prompt with its argument form', async () => {
    const el = await composer();
    typeText(el, 'hello /gr');
    expect(options(el)).to.deep.equal(['Greeting · Demo']);
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
    expect(options(el)).to.deep.equal(['Read me · Demo']);
    typeText(el, '@items');
    expect(options(el)).to.deep.equal(['item · Demo']);
    typeText(el, '@nothing');
    expect(el.shadowRoot!.querySelector('.no-match')).to.not.equal(null);
    typeText(el, '@demo://readme');
    setTimeout(() => el.shadowRoot!.querySelector<HTMLButtonElement>('.suggestions button')!.click());
    const e = await oneEvent<ComposerRequestEvent>(el, ComposerRequestEvent.type);
    expect(e.detail).to.deep.equal({ kind: 'resource', serverId: 'demo', uri: 'demo://readme' });
  });

  it('shows titles and server names, never internal ids, each entry once', async () => {
    const el = await composer();
    typeText(el, '/');
    expect(options(el)).to.deep.equal(['Greeting · Demo', 'Summarize a page · Team Wiki']);
    expect(el.shadowRoot!.querySelector('.suggestions')!.textContent).to.not.contain('srv_7f3a');
    typeText(el, '/wiki');
    expect(options(el), 'found by the server name').to.deep.equal(['Summarize a page · Team Wiki']);
  });

  it('arrow keys move the highlight (the caret stays in the text), Enter chooses it, Esc closes the list', async () => {
    const el = await composer();
    el.setAttribute('chat', '');
    typeText(el, '/');
    textarea(el).focus();
    expect(highlighted(el)).to.equal('Greeting');
    key(el, 'ArrowDown');
    expect(highlighted(el)).to.equal('Summarize a page');
    expect(el.shadowRoot!.activeElement).to.equal(textarea(el));
    expect(textarea(el).getAttribute('aria-activedescendant')).to.equal('suggestion-1');
    key(el, 'ArrowDown');
    expect(highlighted(el), 'wraps to the first').to.equal('Greeting');
    key(el, 'ArrowUp');
    expect(highlighted(el), 'wraps to the last').to.equal('Summarize a page');
    let sent = 0;
    el.addEventListener(ComposerSendEvent.type, () => sent++);
    key(el, 'Enter');
    expect(sent, 'Enter in the list chooses, it does not send').to.equal(0);
    expect(el.shadowRoot!.querySelector('.prompt-name')!.textContent).to.equal('Summarize a page · Team Wiki');
    expect(options(el)).to.deep.equal([]);

    typeText(el, 'x @rea');
    expect(options(el)).to.deep.equal(['Read me · Demo']);
    key(el, 'Escape');
    expect(options(el)).to.deep.equal([]);
    expect(textarea(el).value).to.equal('x @rea');
    key(el, 'Enter');
    expect(sent, 'with the list closed, Enter sends').to.equal(1);
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
