/**
 * The inputs the add form and the settings form share, built once so their limits (timeout
 * range, URL length) cannot drift apart between the two forms.
 */
import { el } from './dom.js';
import { t } from './i18n.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../storage/config-schema.js';

let helpIds = 0;

/**
 * A field: its label holds the input and only the field's name; what the field is for goes in a
 * help line under it, which the input names in `aria-describedby` (docs/ui.md: names never
 * include descriptions). {@link FieldError} keeps the help when it adds its message.
 */
export function field(label: string, input: HTMLElement, help?: string): HTMLDivElement {
  const wrap = el('div', { class: 'field' }, el('label', {}, label, input));
  if (help) {
    const id = `field-help-${++helpIds}`;
    input.setAttribute('aria-describedby', id);
    input.dataset['help'] = id;
    wrap.append(el('p', { class: 'help muted', id }, help));
  }
  return wrap;
}

/** The connect timeout's help: the defaults the worker really uses (config-schema.ts), in seconds. */
export function timeoutHelp(): string {
  return t('connectTimeoutHelp', String(DEFAULT_CONNECT_TIMEOUT_MS / 1000), String(DEFAULT_TIMEOUT_MS / 1000));
}

/** The styles of {@link field}, for the forms that use it. */
export const fieldCss = `
.field { display: grid; gap: 2px; min-width: 0; }
.field > label { display: grid; gap: 2px; }
.field > .help { margin: 0; font-size: var(--text-small); overflow-wrap: anywhere; }
`;

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

/** How the server authenticates: none, a bearer token, or OAuth. */
export function authKindSelect(): HTMLSelectElement {
  return el(
    'select',
    { name: 'auth-kind' },
    el('option', { value: 'none' }, t('authNone')),
    el('option', { value: 'bearer' }, t('authBearer')),
    el('option', { value: 'oauth' }, t('authOAuth')),
  );
}

/** The bearer token: a password field the browser neither fills nor spell-checks. */
export function tokenInput(): HTMLInputElement {
  return el('input', { name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false' });
}

/** The OAuth client id the user registered, if any. */
export function clientIdInput(): HTMLInputElement {
  return el('input', { name: 'client-id', autocomplete: 'off', spellcheck: 'false', maxlength: '512' });
}

/** The OAuth client secret, when the client id needs one. */
export function clientSecretInput(): HTMLInputElement {
  return el('input', { name: 'client-secret', type: 'password', autocomplete: 'off', spellcheck: 'false' });
}
