/**
 * The form for a chat's own system prompt (T5), opened from the header's "More" menu: a labelled
 * textarea prefilled with the chat's prompt, a hint that the provider's prompt applies when it is
 * empty, Save, "Use the provider's" (clears it) and Cancel. Escape cancels. It closes only once
 * the worker kept the prompt; a refusal stays in the form beside the text, so nothing typed is lost.
 */
import { el } from './dom.js';
import { t } from './i18n.js';

export const chatPromptFormCss = `
form.system-prompt { display: grid; gap: var(--space-1); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-2); }
form.system-prompt label { font-weight: 500; }
form.system-prompt textarea { width: 100%; box-sizing: border-box; min-height: 5em; resize: vertical; }
form.system-prompt .hint { margin: 0; color: var(--fg-muted); font-size: 0.85em; }
form.system-prompt .error { margin: 0; color: var(--danger); overflow-wrap: anywhere; }
form.system-prompt .row { display: flex; flex-wrap: wrap; gap: var(--space-1); justify-content: flex-end; }
.own-prompt { flex: none; font-size: 0.8em; color: var(--accent); border: 1px solid currentColor; border-radius: var(--radius); padding: 0 4px; }
`;

export interface PromptFormHandlers {
  /** Asks the worker to keep `text` ('' = the provider's); resolves with its refusal in words, if any. */
  save(text: string): Promise<string | undefined>;
  /** The form is done (saved or cancelled): the header removes it and moves focus back. */
  close(): void;
}

function button(label: string, cls: string, type: 'submit' | 'button' = 'button', role?: string): HTMLButtonElement {
  return el('button', { type, class: cls, ...(role ? { 'data-role': role } : {}) }, label);
}

export function systemPromptForm(current: string | undefined, on: PromptFormHandlers): HTMLFormElement {
  const area = el('textarea', {
    id: 'chat-system-prompt',
    name: 'chat-system-prompt',
    rows: '5',
    placeholder: t('chatSystemPromptPlaceholder'),
    'aria-describedby': 'chat-system-prompt-hint',
  });
  area.value = current ?? '';
  const error = el('p', { class: 'error', role: 'alert', hidden: true });
  const clear = button(t('chatSystemPromptClear'), 'clear');
  const cancel = button(t('chatSystemPromptCancel'), 'cancel', 'button', 'quiet');
  const form = el(
    'form',
    { class: 'system-prompt' },
    el('label', { for: 'chat-system-prompt' }, t('chatSystemPromptMenu')),
    area,
    el('p', { class: 'hint', id: 'chat-system-prompt-hint' }, t('chatSystemPromptHint')),
    error,
    el('div', { class: 'row' }, cancel, clear, button(t('chatSystemPromptSave'), 'save', 'submit', 'primary')),
  );
  const keep = async (text: string) => {
    const refused = await on.save(text);
    error.hidden = !refused;
    error.textContent = refused ?? '';
    if (!refused) on.close();
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void keep(area.value);
  });
  clear.addEventListener('click', () => void keep(''));
  cancel.addEventListener('click', () => on.close());
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      on.close();
    }
  });
  return form;
}
