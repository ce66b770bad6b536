/**
 * SPEC R8: the composer's prompt-argument and resource-template forms ask the server for
 * suggestions (`completion/complete`) — on focus and after typing pauses, not per keystroke —
 * show them in a native list the field points at, drop an answer that a newer question overtook,
 * and pass the other fields' values along for dependent suggestions. Suggestions are text.
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpComposerElement } from '../../src/components/mcp-composer.js';
import { CompletionRequestEvent } from '../../src/components/events.js';
import { COMPLETION_DELAY_MS } from '../../src/components/completion-field.js';
import type { ServerView } from '../../src/protocol/panel.js';
import { serverView } from './server-view.js';

const servers: ServerView[] = [
  serverView({
    prompts: [{ name: 'team', title: 'Team member', arguments: [{ name: 'department' }, { name: 'member' }] }],
    resources: [],
    resourceTemplates: [{ uriTemplate: 'demo://notes/{id}{?lang}', name: 'note', title: 'A note by id' }],
  }),
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function composer() {
  const el = await fixture<McpComposerElement>(html`<mcp-composer></mcp-composer>`);
  el.servers = servers;
  return el;
}

function choose(el: McpComposerElement, text: string) {
  const ta = el.shadowRoot!.querySelector<HTMLTextAreaElement>('textarea.text')!;
  ta.value = text;
  ta.setSelectionRange(text.length, text.length);
  ta.dispatchEvent(new Event('input'));
  el.shadowRoot!.querySelector<HTMLButtonElement>('.suggestions button')!.click();
}

function type(input: HTMLInputElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const optionsOf = (root: ShadowRoot, input: HTMLInputElement) =>
  [...(root.getElementById(input.getAttribute('list')!)?.querySelectorAll('option') ?? [])].map((o) => o.value);

describe('mcp-composer completion (R8)', () => {
  it('a prompt argument gets the server’s suggestions; dependent fields send the others’ values', async () => {
    const el = await composer();
    const asked: CompletionRequestEvent['detail'][] = [];
    el.addEventListener(CompletionRequestEvent.type, (e) => {
      asked.push(e.detail);
      const { name, value } = e.detail.argument;
      e.respond(
        name === 'department'
          ? ['Engineering', 'Sales'].filter((d) => d.startsWith(value))
          : [`${e.detail.context?.['department'] ?? '?'}: Ada`],
      );
    });
    choose(el, '/team');
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    await form.updateComplete;
    const [department, member] = [...form.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type="text"]')];
    expect(department!.getAttribute('list')).to.be.a('string');
    type(department!, 'En');
    type(department!, 'Eng');
    expect(asked.length, 'not asked per keystroke').to.equal(0);
    await sleep(COMPLETION_DELAY_MS + 50);
    expect(asked.map((a) => a.argument)).to.deep.equal([{ name: 'department', value: 'Eng' }]);
    expect(asked[0]!.ref).to.deep.equal({ type: 'ref/prompt', name: 'team' });
    expect(optionsOf(form.shadowRoot!, department!)).to.deep.equal(['Engineering']);
    type(member!, 'A');
    await sleep(COMPLETION_DELAY_MS + 50);
    expect(asked.at(-1)!.context).to.deep.equal({ department: 'Eng' });
    expect(optionsOf(form.shadowRoot!, member!)).to.deep.equal(['Eng: Ada']);
  });

  it('an answer overtaken by a newer question, or by more typing, is dropped', async () => {
    const el = await composer();
    const pending: ((v: string[]) => void)[] = [];
    el.addEventListener(CompletionRequestEvent.type, (e) => pending.push(e.respond));
    choose(el, '/team');
    const form = el.shadowRoot!.querySelector('mcp-schema-form')!;
    await form.updateComplete;
    const input = form.shadowRoot!.querySelector<HTMLInputElement>('input[type="text"]')!;
    type(input, 'a');
    await sleep(COMPLETION_DELAY_MS + 50);
    type(input, 'ab');
    await sleep(COMPLETION_DELAY_MS + 50);
    expect(pending.length).to.equal(2);
    pending[1]!(['abc']);
    pending[0]!(['stale']);
    await sleep(0);
    expect(optionsOf(form.shadowRoot!, input)).to.deep.equal(['abc']);
    type(input, 'abz');
    pending[1]!(['late']);
    await sleep(0);
    expect(optionsOf(form.shadowRoot!, input)).to.deep.equal(['abc']);
  });

  it('a resource template gets one field per variable with suggestions; the URI follows them', async () => {
    const el = await composer();
    const asked: CompletionRequestEvent['detail'][] = [];
    el.addEventListener(CompletionRequestEvent.type, (e) => {
      asked.push(e.detail);
      e.respond(['n1', 'n2', '<img src=x onerror=alert(1)>']);
    });
    choose(el, '@note');
    const root = el.shadowRoot!;
    const id = root.querySelector<HTMLInputElement>('input[name="var-id"]')!;
    const lang = root.querySelector<HTMLInputElement>('input[name="var-lang"]')!;
    const uri = root.querySelector<HTMLInputElement>('input[name="uri"]')!;
    type(id, 'n');
    type(lang, 'en');
    expect(uri.value).to.equal('demo://notes/n?lang=en');
    await sleep(COMPLETION_DELAY_MS + 50);
    const forId = asked.find((a) => a.argument.name === 'id')!;
    expect(forId.ref).to.deep.equal({ type: 'ref/resource', uri: 'demo://notes/{id}{?lang}' });
    expect(optionsOf(root, id)).to.deep.equal(['n1', 'n2', '<img src=x onerror=alert(1)>']);
    expect(root.querySelector('img'), 'a suggestion is text, never markup').to.equal(null);
    type(id, 'a b/c');
    expect(uri.value).to.equal('demo://notes/a%20b%2Fc?lang=en');
    await expect(el).to.be.accessible();
  });
});
