/**
 * The inputs the add form and the settings form share, built once so their limits (timeout
 * range, URL length) cannot drift apart between the two forms.
 */
import { el } from './dom.js';
import { t } from './i18n.js';

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
