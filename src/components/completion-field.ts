/**
 * Server suggestions for a text field (`completion/complete`, SPEC R8), in a native `<datalist>`
 * the browser shows and screen readers announce as the field's list: asked when the field gets
 * the focus and after typing pauses ({@link COMPLETION_DELAY_MS}), never per keystroke; an answer
 * that arrives after a newer question, or after the text changed, is dropped. At most
 * {@link MAX_SHOWN} suggestions are shown, as text.
 */
import { el } from './dom.js';

export const COMPLETION_DELAY_MS = 250;
const MAX_SHOWN = 20;

let lists = 0;

/** Gives `input` a suggestion list filled from `ask`; returns the list element (to be placed beside it). */
export function withCompletion(input: HTMLInputElement, ask: (value: string) => Promise<string[]>): HTMLDataListElement {
  const list = el('datalist', { id: `completion-${++lists}` });
  input.setAttribute('list', list.id);
  input.setAttribute('autocomplete', 'off');
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const askNow = () => {
    const mine = ++asked;
    const value = input.value;
    void ask(value).then(
      (values) => {
        if (mine !== asked || input.value !== value) return;
        list.replaceChildren(...values.slice(0, MAX_SHOWN).map((v) => el('option', { value: v })));
      },
      () => undefined,
    );
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(askNow, COMPLETION_DELAY_MS);
  };
  input.addEventListener('input', later);
  input.addEventListener('focus', () => {
    if (list.childElementCount === 0) askNow();
  });
  return list;
}
