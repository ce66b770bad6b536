/**
 * An error shown at its field (section K): the message sits under the input, which is marked
 * `aria-invalid` and names the message in `aria-describedby`, so a screen reader reads both.
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
    this.input.setAttribute('aria-describedby', this.node.id);
  }

  clear() {
    this.node.textContent = '';
    this.node.hidden = true;
    this.input.removeAttribute('aria-invalid');
    this.input.removeAttribute('aria-describedby');
  }
}
