/**
 * The inputs the add form and the settings form share, built once so their limits (timeout
 * range, URL length) cannot drift apart between the two forms.
 */
import { el } from './dom.js';

/** The connect timeout in seconds, 1–600. */
export function timeoutInput(): HTMLInputElement {
  return el('input', { name: 'connect-timeout', type: 'number', min: '1', max: '600', step: '1', inputmode: 'numeric' });
}

/** The OAuth client metadata document URL (a URL-formatted client id). */
export function clientMetadataUrlInput(placeholder?: string): HTMLInputElement {
  return el('input', {
    name: 'client-metadata-url',
    type: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: '2048',
    ...(placeholder ? { placeholder } : {}),
  });
}
