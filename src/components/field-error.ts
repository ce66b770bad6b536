/**
 * An error shown at its field (section K): the message sits under the input, which is marked
 * `aria-invalid` and names the message in `aria-describedby` (before the field's help, if any), so a
 * screen reader reads both.
 */
import { el } from './dom.js';

let next = 0;

export class FieldError {
  readonly node: HTMLParagraphElement;

  constructor(readonly input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) {
    this.node = el('p', { class: 'field-error error', id: `field-error-${++next}`, hidden: true });
  }

  show(text: string) {
    this.node.textContent = text;
    this.node.hidden = false;
    this.input.setAttribute('aria-invalid', 'true');
    // The error first, then the field's help (server-form-fields.ts `field`), both read.
    this.input.setAttribute('aria-describedby', [this.node.id, this.input.dataset['help']].filter(Boolean).join(' '));
  }

  clear() {
    this.node.textContent = '';
    this.node.hidden = true;
    this.input.removeAttribute('aria-invalid');
    const help = this.input.dataset['help'];
    if (help) this.input.setAttribute('aria-describedby', help);
    else this.input.removeAttribute('aria-describedby');
  }
}
