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
});
