import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpSchemaFormElement } from '../../src/components/mcp-schema-form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: '<b>your</b> name', minLength: 2 },
    count: { type: 'integer', minimum: 1, default: 3 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
    tags: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } }, required: ['city'] },
  },
  required: ['name'],
};

async function form(s: unknown = schema) {
  const el = await fixture<McpSchemaFormElement>(html`<mcp-schema-form></mcp-schema-form>`);
  el.schema = s;
  return el;
}
const q = <T extends Element>(el: McpSchemaFormElement, sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
const field = <T extends Element = HTMLInputElement>(el: McpSchemaFormElement, ...path: string[]) =>
  q<T>(el, `[name="${CSS.escape(JSON.stringify(path))}"]`);
function type(input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('mcp-schema-form', () => {
  it('renders a control per kind, with defaults, and the server text as text', async () => {
    const el = await form();
    expect(field(el, 'name').type).to.equal('text');
    expect(field(el, 'count').value).to.equal('3');
    expect([field(el, 'count').type, field(el, 'count').min, field(el, 'count').step]).to.deep.equal(['number', '1', '1']);
    expect(field(el, 'ok').checked).to.equal(true);
    const color = field<HTMLSelectElement>(el, 'color');
    expect([...color.options].map((o) => o.textContent)).to.deep.equal(['—', 'Red', 'Green']);
    expect(field(el, 'tags').tagName).to.equal('TEXTAREA');
    expect(field(el, 'address', 'city')).to.not.equal(null);
    expect(q(el, 'fieldset legend').textContent).to.equal('address');
    expect(q(el, '.description').textContent).to.equal('<b>your</b> name');
    expect(el.shadowRoot!.querySelector('b')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('reads typed values, arrays and nested objects into arguments', async () => {
    const el = await form();
    type(field(el, 'name'), 'Ada');
    type(field(el, 'ratio'), '0.5');
    type(field<HTMLSelectElement>(el, 'color'), 'green');
    type(field(el, 'tags'), 'a\nb');
    type(field(el, 'address', 'city'), 'Paris');
    type(field(el, 'address', 'zip'), '75001');
    expect(el.read()).to.deep.equal({
      ok: true,
      value: { name: 'Ada', count: 3, ratio: 0.5, ok: true, color: 'green', tags: ['a', 'b'], address: { city: 'Paris', zip: 75001 } },
    });
  });

  it('shows validation messages next to the fields and refuses to read', async () => {
    const el = await form();
    type(field(el, 'name'), 'A');
    type(field(el, 'count'), '1.5');
    const r = el.read();
    expect(el.shadowRoot!.activeElement).to.equal(field(el, 'name'), 'the first invalid field is focused');
    const describedBy = field(el, 'name').getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => el.shadowRoot!.getElementById(id)!.textContent)).to.deep.equal([
      '<b>your</b> name',
      'must be at least 2 characters',
    ]);
    expect(r.ok).to.equal(false);
    expect(q(el, `.field-error[data-path="${CSS.escape(JSON.stringify(['name']))}"]`).textContent).to.equal(
      'must be at least 2 characters',
    );
    expect(q(el, `.field-error[data-path="${CSS.escape(JSON.stringify(['count']))}"]`).textContent).to.equal('must be a whole number');
    expect(field(el, 'count').getAttribute('aria-invalid')).to.equal('true');
  });

  it('switches to raw JSON and back without losing edits', async () => {
    const el = await form();
    type(field(el, 'name'), 'Ada');
    q<HTMLButtonElement>(el, 'button.toggle').click();
    const json = q<HTMLTextAreaElement>(el, 'textarea.json');
    expect(json.hidden).to.equal(false);
    expect(JSON.parse(json.value)).to.deep.include({ name: 'Ada', count: 3 });
    json.value = JSON.stringify({ name: 'Grace', count: 7, extra: [1] });
    expect(el.read()).to.deep.equal({ ok: true, value: { name: 'Grace', count: 7, extra: [1] } });
    q<HTMLButtonElement>(el, 'button.toggle').click();
    expect(el.jsonMode).to.equal(false);
    expect(field(el, 'name').value).to.equal('Grace');
    expect(field(el, 'count').value).to.equal('7');
  });

  it('keeps the raw JSON editor for schemas it cannot draw, and rejects non-objects', async () => {
    const el = await form({ type: 'string' });
    expect(el.jsonMode).to.equal(true);
    expect(q<HTMLButtonElement>(el, 'button.toggle').hidden).to.equal(true);
    q<HTMLTextAreaElement>(el, 'textarea.json').value = '[1]';
    expect(el.read().ok).to.equal(false);
    expect(q(el, '.json-error').textContent).to.contain('JSON object');
  });

  it('draws multiple choices as checkbox groups labelled with titles, bounded by minItems/maxItems', async () => {
    const el = await form({
      type: 'object',
      properties: {
        fish: {
          type: 'array',
          title: 'Fish',
          minItems: 1,
          maxItems: 2,
          items: {
            anyOf: [
              { const: 'fish-1', title: 'Tuna' },
              { const: 'fish-2', title: 'Salmon' },
              { const: 'fish-3', title: 'Trout' },
            ],
          },
          default: ['fish-1'],
        },
        hero: {
          type: 'string',
          oneOf: [
            { const: 'hero-1', title: 'Superman' },
            { const: 'hero-2', title: 'Wonder Woman' },
          ],
          default: 'hero-2',
        },
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        birthdate: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
      },
      required: ['fish'],
    });
    const group = q<HTMLFieldSetElement>(el, 'fieldset.choices');
    expect(group.querySelector('legend')!.textContent).to.equal('Fish *');
    const boxes = [...group.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((b) => b.parentElement!.textContent)).to.deep.equal(['Tuna', 'Salmon', 'Trout']);
    expect(boxes.map((b) => b.checked)).to.deep.equal([true, false, false]);
    expect(field<HTMLSelectElement>(el, 'hero').selectedOptions[0]!.textContent).to.equal('Wonder Woman');
    expect(['email', 'homepage', 'birthdate', 'at'].map((k) => field(el, k).type)).to.deep.equal([
      'email',
      'url',
      'date',
      'datetime-local',
    ]);
    boxes[1]!.click();
    boxes[2]!.click();
    expect(el.read().ok).to.equal(false);
    expect(group.getAttribute('aria-invalid')).to.equal('true');
    expect(q(el, `.field-error[data-path="${CSS.escape(JSON.stringify(['fish']))}"]`).textContent).to.equal('choose at most 2');
    boxes[0]!.click();
    expect(el.read()).to.deep.equal({ ok: true, value: { fish: ['fish-2', 'fish-3'], hero: 'hero-2' } });
    await expect(el).to.be.accessible();
  });

  it("shows a server's refusal at the field it names, and the rest above the form in plain words", async () => {
    const el = await form();
    const text =
      'MCP error -32602: Input validation error: Invalid arguments for tool x: [{"code":"custom","path":["ratio"],"message":"Too large"},{"code":"custom","path":[],"message":"Slow down"}]';
    expect(el.showServerErrors(text)).to.equal(true);
    expect(field(el, 'ratio').getAttribute('aria-invalid')).to.equal('true');
    expect(q(el, `.field-error[data-path="${CSS.escape(JSON.stringify(['ratio']))}"]`).textContent).to.equal('Too large');
    expect(q(el, '.server-error').textContent).to.equal('The server did not accept these arguments:Slow down');
    expect(el.showServerErrors('connection reset')).to.equal(false);
  });

  it('keeps line breaks: multi-line defaults and long-text schemas get a textarea, and a value is read back as it was given', async () => {
    // The shape of sheet-music's tool: an ABC tune as a string default with line breaks.
    const abc = 'X:1\nT:Twinkle\nM:4/4\nK:C\nCCGG|AAG2|FFEE|DDC2|';
    const el = await form({
      type: 'object',
      properties: {
        abcNotation: { type: 'string', default: abc, description: 'ABC notation string to render as sheet music' },
        notes: { type: 'string', maxLength: 5000 },
        page: { type: 'string', contentMediaType: 'text/html' },
        crlf: { type: 'string', default: 'one\r\ntwo' },
        title: { type: 'string', default: 'one line' },
      },
    });
    expect(field(el, 'abcNotation').tagName).to.equal('TEXTAREA');
    expect(field(el, 'abcNotation').value).to.equal(abc);
    expect(field(el, 'notes').tagName).to.equal('TEXTAREA');
    expect(field(el, 'page').tagName).to.equal('TEXTAREA');
    expect(field(el, 'title').tagName).to.equal('INPUT');
    expect(el.read()).to.deep.equal({ ok: true, value: { abcNotation: abc, crlf: 'one\r\ntwo', title: 'one line' } });
    // A value with line breaks put into a one-line field (from the JSON editor) turns it into a textarea.
    q<HTMLButtonElement>(el, 'button.toggle').click();
    q<HTMLTextAreaElement>(el, 'textarea.json').value = JSON.stringify({ abcNotation: abc, title: 'a\nb' });
    q<HTMLButtonElement>(el, 'button.toggle').click();
    expect(field(el, 'title').tagName).to.equal('TEXTAREA');
    expect(el.read()).to.deep.equal({ ok: true, value: { abcNotation: abc, title: 'a\nb' } });
  });
});
