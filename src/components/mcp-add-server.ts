/**
 * The "add server" form: name, URL (HTTPS or explicit loopback HTTP), auth kind (SPEC K1).
 * Validation happens here for immediate feedback and again in the worker.
 */
import { ElementBase } from './element-base.js';
import { checkServerUrl } from '../common/url-rules.js';
import { el, sheet } from './dom.js';
import { AddServerEvent } from './events.js';
import { t, tReason } from './i18n.js';

const css = sheet(`
form { display: grid; gap: 6px; }
label { display: grid; gap: 2px; }
input, select { padding: 4px 6px; border: 1px solid #8888; border-radius: 6px; background: Field; color: FieldText; }
`);

export class McpAddServerElement extends ElementBase {
  readonly #name = el('input', { name: 'name', required: true, autocomplete: 'off', maxlength: '120' });
  readonly #url = el('input', { name: 'url', type: 'url', required: true, autocomplete: 'off', placeholder: 'https://example.com/mcp' });
  readonly #authKind = el(
    'select',
    { name: 'auth-kind' },
    el('option', { value: 'none' }, t('authNone')),
    el('option', { value: 'bearer' }, t('authBearer')),
    el('option', { value: 'oauth' }, t('authOAuth')),
  );
  readonly #clientId = el('input', { name: 'client-id', autocomplete: 'off', spellcheck: 'false', maxlength: '512' });
  readonly #clientSecret = el('input', { name: 'client-secret', type: 'password', autocomplete: 'off', spellcheck: 'false' });
  readonly #scopes = el('input', { name: 'scopes', autocomplete: 'off', spellcheck: 'false' });
  readonly #clientMetadataUrl = el('input', {
    name: 'client-metadata-url',
    type: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: '2048',
    placeholder: 'https://example.com/client.json',
  });
  readonly #oauthFields = el(
    'div',
    { class: 'oauth', hidden: true },
    el('label', {}, t('oauthClientId'), this.#clientId),
    el('label', {}, t('oauthClientSecret'), this.#clientSecret),
    el('label', {}, t('oauthScopes'), this.#scopes),
    el('label', {}, t('oauthClientMetadataUrl'), this.#clientMetadataUrl),
  );
  readonly #token = el('input', { name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false' });
  readonly #tokenLabel = el('label', { hidden: true }, t('bearerToken'), this.#token);
  readonly #message = el('p', { class: 'message', role: 'status', 'aria-live': 'polite' });
  readonly #submit = el('button', { type: 'submit' }, t('add'));

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const form = el(
      'form',
      { 'aria-label': t('addServer'), novalidate: true },
      el('label', {}, t('serverName'), this.#name),
      el('label', {}, t('serverUrl'), this.#url),
      el('label', {}, t('authKind'), this.#authKind),
      this.#tokenLabel,
      this.#oauthFields,
      this.#submit,
      this.#message,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#onSubmit();
    });
    this.#authKind.addEventListener('change', () => {
      this.#tokenLabel.hidden = this.#authKind.value !== 'bearer';
      this.#oauthFields.hidden = this.#authKind.value !== 'oauth';
    });
    root.append(form);
  }

  /** Feedback from whoever handled the add (error text, or cleared on success). */
  showResult(result: { ok: true } | { ok: false; message: string }) {
    this.#submit.disabled = false;
    if (result.ok) {
      this.#name.value = '';
      this.#url.value = '';
      this.#token.value = '';
      this.#clientId.value = '';
      this.#clientSecret.value = '';
      this.#scopes.value = '';
      this.#clientMetadataUrl.value = '';
      this.#setMessage(t('added'), false);
    } else this.#setMessage(result.message, true);
  }

  #setMessage(text: string, isError: boolean) {
    this.#message.textContent = text;
    this.#message.className = isError ? 'message error' : 'message muted';
  }

  #onSubmit() {
    const name = this.#name.value.trim();
    const checked = checkServerUrl(this.#url.value);
    if (!checked.ok) {
      this.#setMessage(tReason(checked), true);
      this.#url.setAttribute('aria-invalid', 'true');
      this.#url.focus();
      return;
    }
    this.#url.removeAttribute('aria-invalid');
    const bearer = this.#authKind.value === 'bearer';
    const token = this.#token.value.trim();
    if (bearer && !token) {
      this.#setMessage(t('tokenRequired'), true);
      this.#token.focus();
      return;
    }
    const fallbackName = new URL(checked.url).hostname;
    this.#submit.disabled = true;
    this.#setMessage(t('adding'), false);
    if (this.#authKind.value === 'oauth') {
      const clientId = this.#clientId.value.trim();
      const clientSecret = this.#clientSecret.value.trim();
      const scopes = this.#scopes.value.split(/\s+/).filter(Boolean);
      const clientMetadataUrl = this.#clientMetadataUrl.value.trim();
      this.emit(
        new AddServerEvent({
          name: name || fallbackName,
          url: checked.url,
          authKind: 'oauth',
          ...(clientId ? { clientId } : {}),
          ...(clientId && clientSecret ? { clientSecret } : {}),
          ...(scopes.length ? { scopes } : {}),
          ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
        }),
      );
      return;
    }
    this.emit(
      new AddServerEvent({
        name: name || fallbackName,
        url: checked.url,
        authKind: bearer ? 'bearer' : 'none',
        ...(bearer ? { token } : {}),
      }),
    );
  }
}
