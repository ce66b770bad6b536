/**
 * A saved server's settings (`<mcp-server-settings>`, property `server`): every field
 * of the add form with the same checks (server-form-model.ts). Secrets are never shown: a stored
 * bearer token, client secret or header value reads "unchanged" and is sent only when the user
 * types a new one. Before a save that would lose something (authorization, "always allow"
 * grants, a stored secret; edit-drops.ts) the form lists it and asks for confirmation; a move to
 * another origin asks Chrome for it inside the confirming click (SPEC L1).
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import {
  authKindSelect,
  clientIdInput,
  clientSecretInput,
  clientMetadataUrlInput,
  field,
  fieldCss,
  timeoutHelp,
  timeoutInput,
  tokenInput,
} from './server-form-fields.js';
import { ServerSettingsRequestEvent, UpdateServerEvent } from './events.js';
import { t } from './i18n.js';
import { FieldError } from './field-error.js';
import { checkClientMetadataUrlField, checkTimeoutField, checkUrlField, scopesOf, type FieldCheck } from './server-form-model.js';
import { editDrops, originChanged, type EditDrop } from '../common/edit-drops.js';
import type { PanelParams, ServerView } from '../protocol/panel.js';
import type { ServerSettings } from '../protocol/panel-edit.js';
import type { SettingsField } from './server-next-step.js';

const css = sheet(`${fieldCss}
form { display: grid; gap: var(--space-2); }
label { display: grid; gap: 2px; }
form .oauth { display: grid; gap: var(--space-2); }
label.check { display: flex; gap: var(--space-2); align-items: center; }
fieldset { display: grid; gap: var(--space-2); border: 1px solid var(--border); border-radius: var(--radius); margin: 0; padding: var(--space-2); min-width: 0; }
.header-row { display: grid; gap: 2px; }
.field-error, .message, .drops p { margin: 0; }
.drops { display: grid; gap: var(--space-2); border: 1px solid var(--danger); border-radius: var(--radius); padding: var(--space-2); }
.drops ul { margin: 0; padding-inline-start: var(--space-4, 16px); }
.buttons { display: flex; gap: var(--space-2); flex-wrap: wrap; }
`);

type AuthKind = 'none' | 'bearer' | 'oauth';
type Pending = { update: PanelParams<'panel:update-server'>; newOrigin: boolean };

const DROP_KEYS = {
  authorization: 'dropAuthorization',
  approvals: 'dropApprovals',
  token: 'dropToken',
  'client-secret': 'dropClientSecret',
} as const;

/** The settings form's values after their checks. */
interface CheckedFields {
  name: string;
  url: string;
  kind: AuthKind;
  token: string;
  /** The URL now has another origin than the saved one: the bearer token must be typed again. */
  movedOrigin: boolean;
  clientId: string;
  clientSecret: string;
  metadataUrl: string | undefined;
  timeoutMs: number | null;
}

export class McpServerSettingsElement extends ElementBase {
  #server: ServerView | undefined;
  #settings: ServerSettings | undefined;
  /** The update waiting for the user to confirm what it drops. */
  #pending: Pending | undefined;
  /** The field to focus once the stored settings have filled the form ("Edit settings"). */
  #focusWanted: SettingsField | undefined;

  readonly #form: HTMLFormElement = el('form', { novalidate: true, hidden: true });
  readonly #name: HTMLInputElement = el('input', { name: 'name', required: true, autocomplete: 'off', maxlength: '120' });
  readonly #nameError: FieldError = new FieldError(this.#name);
  readonly #url: HTMLInputElement = el('input', {
    name: 'url',
    type: 'text',
    inputmode: 'url',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  readonly #urlError: FieldError = new FieldError(this.#url);
  readonly #authKind: HTMLSelectElement = authKindSelect();
  readonly #token: HTMLInputElement = tokenInput();
  readonly #tokenError: FieldError = new FieldError(this.#token);
  readonly #tokenLabel: HTMLDivElement = field(t('bearerToken'), this.#token, t('bearerTokenHelp'));
  readonly #clientId: HTMLInputElement = clientIdInput();
  readonly #clientSecret: HTMLInputElement = clientSecretInput();
  readonly #secretError: FieldError = new FieldError(this.#clientSecret);
  readonly #removeSecret: HTMLInputElement = el('input', { name: 'remove-client-secret', type: 'checkbox' });
  readonly #removeSecretLabel: HTMLLabelElement = el('label', { class: 'check' }, this.#removeSecret, t('removeClientSecret'));
  readonly #scopes: HTMLInputElement = el('input', { name: 'scopes', autocomplete: 'off', spellcheck: 'false' });
  readonly #clientMetadataUrl: HTMLInputElement = clientMetadataUrlInput();
  readonly #metadataError: FieldError = new FieldError(this.#clientMetadataUrl);
  readonly #oauthFields: HTMLDivElement = el(
    'div',
    { class: 'oauth' },
    field(t('oauthClientId'), this.#clientId, t('oauthClientIdHelp')),
    field(t('oauthClientSecret'), this.#clientSecret, t('oauthClientSecretHelp')),
    this.#secretError.node,
    this.#removeSecretLabel,
    field(t('oauthScopes'), this.#scopes, t('oauthScopesHelp')),
    field(t('oauthClientMetadataUrl'), this.#clientMetadataUrl, t('oauthClientMetadataUrlHelp')),
    this.#metadataError.node,
  );
  readonly #headers: HTMLFieldSetElement = el('fieldset', { class: 'headers' });
  readonly #headerRows: { name: string; value: HTMLInputElement; remove: HTMLInputElement }[] = [];
  readonly #timeout: HTMLInputElement = timeoutInput();
  readonly #timeoutError: FieldError = new FieldError(this.#timeout);
  readonly #startup: HTMLInputElement = el('input', { name: 'connect-on-startup', type: 'checkbox' });
  readonly #drops: HTMLDivElement = el('div', { class: 'drops', hidden: true, role: 'alert' });
  readonly #save: HTMLButtonElement = el('button', { type: 'submit', name: 'save', 'data-role': 'primary' }, t('saveSettings'));
  readonly #message: HTMLParagraphElement = el('p', { class: 'message muted', role: 'status', 'aria-live': 'polite' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#form.append(
      el('label', {}, t('serverName'), this.#name),
      this.#nameError.node,
      el('label', {}, t('serverUrl'), this.#url),
      this.#urlError.node,
      el('label', {}, t('authKind'), this.#authKind),
      this.#tokenLabel,
      this.#tokenError.node,
      this.#oauthFields,
      this.#headers,
      field(t('connectTimeoutSeconds'), this.#timeout, timeoutHelp()),
      this.#timeoutError.node,
      el('label', { class: 'check' }, this.#startup, t('connectOnStartupField')),
      this.#drops,
      el('div', { class: 'buttons' }, this.#save),
    );
    this.#form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#onSave();
    });
    // Any change after the drop list was shown makes it out of date.
    this.#form.addEventListener('input', () => this.#hideDrops());
    this.#authKind.addEventListener('change', () => this.#showAuthFields());
    root.append(this.#form, this.#message);
  }

  get server(): ServerView | undefined {
    return this.#server;
  }

  /** The server to edit; a different server (re)loads its stored settings from the worker. */
  set server(server: ServerView | undefined) {
    const changed = server?.id !== this.#server?.id;
    this.#server = server;
    if (!changed) return;
    this.#settings = undefined;
    this.#focusWanted = undefined;
    this.#form.hidden = true;
    this.#message.className = 'message muted';
    this.#message.textContent = server ? t('loadingSettings') : '';
    if (server) {
      this.#form.setAttribute('aria-label', t('serverSettingsOf', server.name));
      if (this.isConnected) this.emit(new ServerSettingsRequestEvent(server.id));
    }
  }

  connectedCallback() {
    if (this.#server && !this.#settings) this.emit(new ServerSettingsRequestEvent(this.#server.id));
  }

  get settings(): ServerSettings | undefined {
    return this.#settings;
  }

  /** The worker's answer to the settings request: fills the form. */
  set settings(s: ServerSettings | undefined) {
    this.#settings = s;
    if (!s) return;
    this.#name.value = s.name;
    this.#url.value = s.url;
    this.#authKind.value = s.authKind;
    this.#token.value = '';
    this.#token.placeholder = s.authKind === 'bearer' ? t('unchangedSecret') : '';
    this.#clientId.value = s.clientId ?? '';
    this.#clientSecret.value = '';
    this.#clientSecret.placeholder = s.hasClientSecret ? t('unchangedSecret') : '';
    this.#removeSecret.checked = false;
    this.#removeSecretLabel.hidden = !s.hasClientSecret;
    this.#scopes.value = (s.scopes ?? []).join(' ');
    this.#clientMetadataUrl.value = s.clientMetadataUrl ?? '';
    this.#timeout.value = s.connectTimeoutMs !== undefined ? String(Math.round(s.connectTimeoutMs / 1000)) : '';
    this.#startup.checked = s.connectOnStartup;
    this.#renderHeaders(s.headers);
    for (const e of [this.#nameError, this.#urlError, this.#tokenError, this.#secretError, this.#metadataError, this.#timeoutError])
      e.clear();
    this.#hideDrops();
    this.#showAuthFields();
    this.#form.hidden = false;
    if (this.#focusWanted) this.focusField(this.#focusWanted);
    // A reload after a save keeps its "Saved." in view.
    if (this.#message.textContent === t('loadingSettings')) this.#message.textContent = '';
  }

  /**
   * Puts the focus in one field — now if the form is filled, else as soon as it is (the stored
   * settings come from the worker). A refused token gets the token field, empty for the new one.
   */
  focusField(which: SettingsField) {
    if (!this.#settings || this.#form.hidden) {
      this.#focusWanted = which;
      return;
    }
    this.#focusWanted = undefined;
    const input = { token: this.#token, 'auth-kind': this.#authKind, url: this.#url, timeout: this.#timeout }[which];
    // The token field shows only for a bearer server; elsewhere the kind of authorization is the way to it.
    (input === this.#token && this.#tokenLabel.hidden ? this.#authKind : input).focus();
  }

  showError(message: string) {
    this.#save.disabled = false;
    this.#message.className = 'message error';
    this.#message.textContent = message;
  }

  /** Feedback from whoever saved; on success the settings are loaded again from the worker. */
  showSaveResult(result: { ok: true; note?: string } | { ok: false; message: string }) {
    this.#save.disabled = false;
    if (!result.ok) return this.showError(result.message);
    this.#message.className = 'message muted';
    this.#message.textContent = result.note ?? t('settingsSaved');
    if (this.#server) this.emit(new ServerSettingsRequestEvent(this.#server.id));
  }

  #renderHeaders(names: string[]) {
    this.#headerRows.length = 0;
    this.#headers.replaceChildren(el('legend', {}, t('headersField')));
    this.#headers.hidden = names.length === 0;
    for (const name of names) {
      const value = el('input', {
        type: 'password',
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: t('unchangedSecret'),
        'data-header': name,
      });
      const remove = el('input', { type: 'checkbox', 'data-remove-header': name });
      this.#headerRows.push({ name, value, remove });
      this.#headers.append(
        el(
          'div',
          { class: 'header-row' },
          el('label', {}, t('headerValueOf', name), value),
          el('label', { class: 'check' }, remove, t('removeHeader', name)),
        ),
      );
    }
  }

  #showAuthFields() {
    const kind = this.#authKind.value;
    this.#tokenLabel.hidden = kind !== 'bearer';
    this.#oauthFields.hidden = kind !== 'oauth';
  }

  #hideDrops() {
    this.#pending = undefined;
    this.#drops.hidden = true;
    this.#drops.replaceChildren();
  }

  #check<T>(check: FieldCheck<T>, error: FieldError): check is { ok: true; value: T } {
    if (check.ok) {
      error.clear();
      return true;
    }
    error.show(t(check.key, ...(check.subs ?? [])));
    error.input.focus();
    return false;
  }

  /** The form's values once each passed its check, else undefined (the first failing one shows its error). */
  #checkedFields(s: ServerSettings): CheckedFields | undefined {
    const name = this.#name.value.trim();
    if (!this.#check(name ? { ok: true, value: name } : { ok: false, key: 'serverName' }, this.#nameError)) return undefined;
    const url = checkUrlField(this.#url.value);
    if (!this.#check(url, this.#urlError)) return undefined;
    const kind = this.#authKind.value as AuthKind;
    const token = this.#token.value.trim();
    const movedOrigin = originChanged(s.url, url.value);
    if (kind === 'bearer' && !token) {
      const missing =
        s.authKind !== 'bearer'
          ? { key: 'tokenRequired' as const }
          : movedOrigin
            ? { key: 'tokenAgain' as const, subs: [new URL(s.url).origin] }
            : undefined;
      if (missing && !this.#check({ ok: false, ...missing }, this.#tokenError)) return undefined;
    }
    this.#tokenError.clear();
    const clientId = this.#clientId.value.trim();
    const clientSecret = this.#clientSecret.value.trim();
    const keepsSecret = s.hasClientSecret && !this.#removeSecret.checked && clientId === (s.clientId ?? '');
    const secretCheck =
      !clientId && (clientSecret || keepsSecret)
        ? { ok: false as const, key: 'clientSecretNeedsId' as const }
        : { ok: true as const, value: 0 };
    if (kind === 'oauth' && !this.#check(secretCheck, this.#secretError)) return undefined;
    const metadata =
      kind === 'oauth' ? checkClientMetadataUrlField(this.#clientMetadataUrl.value) : ({ ok: true, value: undefined } as const);
    if (!this.#check(metadata, this.#metadataError)) return undefined;
    const timeout = checkTimeoutField(this.#timeout.value);
    if (!this.#check(timeout, this.#timeoutError)) return undefined;
    return {
      name,
      url: url.value,
      kind,
      token,
      movedOrigin,
      clientId,
      clientSecret,
      metadataUrl: metadata.value,
      timeoutMs: timeout.value,
    };
  }

  #authFrom(f: CheckedFields): PanelParams<'panel:update-server'>['auth'] {
    const scopes = scopesOf(this.#scopes.value);
    if (f.kind === 'none') return { kind: f.kind };
    if (f.kind === 'bearer') return { kind: f.kind, ...(f.token ? { token: f.token } : {}) };
    return {
      kind: f.kind,
      ...(f.clientId ? { clientId: f.clientId } : {}),
      ...(f.clientSecret ? { clientSecret: f.clientSecret } : {}),
      ...(this.#removeSecret.checked ? { removeClientSecret: true } : {}),
      ...(scopes.length ? { scopes } : {}),
      ...(f.metadataUrl ? { clientMetadataUrl: f.metadataUrl } : {}),
    };
  }

  /** The header rows as sent: kept ones, with a new value where one was typed. */
  #headersUpdate() {
    if (!this.#headerRows.length) return {};
    return {
      headers: this.#headerRows
        .filter((h) => !h.remove.checked)
        .map((h) => ({ name: h.name, ...(h.value.value ? { value: h.value.value } : {}) })),
    };
  }

  #onSave() {
    const s = this.#settings;
    const server = this.#server;
    if (!s || !server) return;
    const f = this.#checkedFields(s);
    if (!f) return;
    const update: PanelParams<'panel:update-server'> = {
      serverId: server.id,
      name: f.name,
      url: f.url,
      auth: this.#authFrom(f),
      ...this.#headersUpdate(),
      connectTimeoutMs: f.timeoutMs,
      connectOnStartup: this.#startup.checked,
    };
    const oauth = f.kind === 'oauth';
    const drops = editDrops(s, {
      url: f.url,
      authKind: f.kind,
      clientId: oauth ? f.clientId || undefined : undefined,
      newClientSecret: oauth && !!f.clientSecret,
      removeClientSecret: oauth && this.#removeSecret.checked,
      clientMetadataUrl: oauth ? f.metadataUrl : undefined,
    });
    if (drops.length > 0) {
      this.#askToConfirm(drops, { update: { ...update, confirmDrops: true }, newOrigin: f.movedOrigin }, f.url);
      return;
    }
    this.#send({ update, newOrigin: f.movedOrigin });
  }

  #askToConfirm(drops: EditDrop[], pending: Pending, url: string) {
    this.#pending = pending;
    const confirm = el('button', { type: 'button', name: 'confirm-drops', 'data-role': 'danger' }, t('saveAndDrop'));
    const cancel = el('button', { type: 'button', name: 'cancel-drops' }, t('cancel'));
    confirm.addEventListener('click', () => {
      const p = this.#pending;
      this.#hideDrops();
      if (p) this.#send(p);
    });
    cancel.addEventListener('click', () => {
      this.#hideDrops();
      this.#save.focus();
    });
    this.#drops.replaceChildren(
      el('p', {}, t('dropsIntro')),
      el('ul', {}, ...drops.map((d) => el('li', {}, t(DROP_KEYS[d], String(this.#settings?.alwaysGrants ?? 0))))),
      ...(pending.newOrigin ? [el('p', {}, t('dropsOrigin', new URL(url).origin))] : []),
      el('div', { class: 'buttons' }, confirm, cancel),
    );
    this.#drops.hidden = false;
    confirm.focus();
  }

  #send(p: Pending) {
    this.#save.disabled = true;
    this.#message.className = 'message muted';
    this.#message.textContent = p.newOrigin ? t('allowAccessTo', new URL(p.update.url).host) : t('savingSettings');
    this.emit(new UpdateServerEvent(p.update, p.newOrigin));
  }
}
