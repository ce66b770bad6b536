/**
 * The guided add (SPEC K1): the URL first (`https://` added when no scheme is typed,
 * `http://` for a loopback host), then Continue asks Chrome for the origin and has the worker
 * probe the server, whose answer proposes the authorization (none / bearer / OAuth) and the name.
 * The user can change both; the rarely needed fields are folded under "Advanced". Errors show at
 * their field. Validation happens here for immediate feedback and again in the worker.
 */
import { ElementBase } from './element-base.js';
import { anotherAccountName, duplicateOf, otherAccountsOf, type NamedEntry } from '../common/accounts.js';
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
import { AddServerEvent, ProbeServerEvent } from './events.js';
import { t } from './i18n.js';
import { FieldError } from './field-error.js';
import { DirectoryHeaderFields } from './directory-fields.js';
import type { DirectoryEntry } from '../protocol/panel-directory.js';
import {
  checkClientMetadataUrlField,
  checkHeaderLines,
  checkTimeoutField,
  checkUrlField,
  proposedName,
  scopesOf,
  type FieldCheck,
} from './server-form-model.js';

const css = sheet(`${fieldCss}
form { display: grid; gap: var(--space-2); }
label { display: grid; gap: 2px; }
.step { display: grid; gap: var(--space-2); }
.summary { display: flex; gap: var(--space-2); align-items: center; min-width: 0; }
.summary .url { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
details[open] > summary { margin-bottom: var(--space-2); }
.advanced { display: grid; gap: var(--space-2); }
.field-error, .message, .note, .from-directory, .reserved { margin: 0; }
.directory-headers { display: grid; gap: var(--space-2); }
.directory-headers:empty { display: none; }
textarea { min-height: 3em; resize: vertical; }
.another-account { display: grid; gap: 2px; padding: var(--space-2); border-left: 3px solid var(--accent, currentColor); overflow-wrap: anywhere; }
.another-account p { margin: 0; }
`);

type AuthKind = 'none' | 'bearer' | 'oauth';
type Header = { name: string; value: string };

export class McpAddServerElement extends ElementBase {
  readonly #url: HTMLInputElement = el('input', {
    name: 'url',
    type: 'text',
    inputmode: 'url',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://example.com/mcp',
  });
  readonly #urlError: FieldError = new FieldError(this.#url);
  /** Said when the URL came from the directory (S1): which entry it is. */
  readonly #fromNote: HTMLParagraphElement = el('p', { class: 'from-directory muted', hidden: true });
  readonly #continue: HTMLButtonElement = el('button', { type: 'submit', name: 'continue', 'data-role': 'primary' }, t('continueAdd'));
  readonly #stepUrl: HTMLDivElement = el(
    'div',
    { class: 'step url-step' },
    this.#fromNote,
    el('label', {}, t('serverUrl'), this.#url),
    this.#urlError.node,
    this.#continue,
  );

  readonly #shownUrl: HTMLSpanElement = el('span', { class: 'url' });
  readonly #note: HTMLParagraphElement = el('p', { class: 'note muted' });
  readonly #accountQuestion: HTMLParagraphElement = el('p', { class: 'question' });
  readonly #accountHelp: HTMLParagraphElement = el('p', { class: 'muted' });
  /** Shown when a saved entry already uses the URL: this one would be another account (S3). */
  readonly #anotherAccount: HTMLDivElement = el(
    'div',
    { class: 'another-account', 'data-another-account': '', role: 'note', hidden: true },
    this.#accountQuestion,
    this.#accountHelp,
  );
  readonly #name: HTMLInputElement = el('input', { name: 'name', required: true, autocomplete: 'off', maxlength: '120' });
  readonly #nameError: FieldError = new FieldError(this.#name);
  readonly #authKind: HTMLSelectElement = authKindSelect();
  readonly #token: HTMLInputElement = tokenInput();
  readonly #tokenError: FieldError = new FieldError(this.#token);
  readonly #tokenLabel: HTMLDivElement = field(t('bearerToken'), this.#token, t('bearerTokenHelp'));
  readonly #clientId: HTMLInputElement = clientIdInput();
  readonly #clientSecret: HTMLInputElement = clientSecretInput();
  readonly #secretError: FieldError = new FieldError(this.#clientSecret);
  readonly #scopes: HTMLInputElement = el('input', { name: 'scopes', autocomplete: 'off', spellcheck: 'false' });
  readonly #clientMetadataUrl: HTMLInputElement = clientMetadataUrlInput('https://example.com/client.json');
  readonly #metadataError: FieldError = new FieldError(this.#clientMetadataUrl);
  readonly #oauthFields: HTMLDivElement = el(
    'div',
    { class: 'oauth advanced', hidden: true },
    field(t('oauthClientId'), this.#clientId, t('oauthClientIdHelp')),
    field(t('oauthClientSecret'), this.#clientSecret, t('oauthClientSecretHelp')),
    this.#secretError.node,
    field(t('oauthScopes'), this.#scopes, t('oauthScopesHelp')),
    field(t('oauthClientMetadataUrl'), this.#clientMetadataUrl, t('oauthClientMetadataUrlHelp')),
    this.#metadataError.node,
  );
  readonly #timeout: HTMLInputElement = timeoutInput();
  readonly #timeoutError: FieldError = new FieldError(this.#timeout);
  readonly #headers: HTMLTextAreaElement = el('textarea', { name: 'headers', autocomplete: 'off', spellcheck: 'false', rows: '2' });
  readonly #headersError: FieldError = new FieldError(this.#headers);
  readonly #advanced: HTMLDetailsElement = el(
    'details',
    { class: 'more' },
    el('summary', {}, t('advancedSettings')),
    el(
      'div',
      { class: 'advanced' },
      this.#oauthFields,
      field(t('connectTimeoutSeconds'), this.#timeout, timeoutHelp()),
      this.#timeoutError.node,
      field(t('headersField'), this.#headers, t('headersHelp')),
      this.#headersError.node,
    ),
  );
  /** The headers the directory entry's endpoint declares, as fields (directory-fields.ts). */
  readonly #directoryHeaders = new DirectoryHeaderFields();
  readonly #submit: HTMLButtonElement = el('button', { type: 'submit', name: 'add', 'data-role': 'primary' }, t('add'));
  readonly #stepDetails: HTMLDivElement = el(
    'div',
    { class: 'step details-step', hidden: true },
    el(
      'p',
      { class: 'summary' },
      this.#shownUrl,
      el('button', { type: 'button', name: 'change-url', 'data-role': 'quiet' }, t('changeUrl')),
    ),
    this.#note,
    this.#anotherAccount,
    el('label', {}, t('serverName'), this.#name),
    this.#nameError.node,
    el('label', {}, t('authKind'), this.#authKind),
    this.#tokenLabel,
    this.#tokenError.node,
    this.#directoryHeaders.node,
    this.#advanced,
    this.#submit,
  );
  readonly #message: HTMLParagraphElement = el('p', { class: 'message', role: 'status', 'aria-live': 'polite' });
  /** The URL Continue accepted; the details step adds this one. */
  #checkedUrl = '';
  /** The directory entry the form was filled from, while its URL is the one being added. */
  #fromDirectory: { url: string; name: string; headers: DirectoryEntry['remotes'][number]['headers'] } | undefined;

  /** The saved servers (from the panel's state), to tell another account on a saved URL. */
  #known: readonly NamedEntry[] = [];

  /** The panel's latest server list: names and URLs only. */
  setKnownServers(servers: readonly NamedEntry[]) {
    this.#known = servers.map(({ name, url }) => ({ name, url }));
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const form = el('form', { 'aria-label': t('addServer'), novalidate: true }, this.#stepUrl, this.#stepDetails, this.#message);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (this.#stepDetails.hidden) this.#onContinue();
      else this.#onSubmit();
    });
    this.#stepDetails.querySelector('button[name="change-url"]')!.addEventListener('click', () => this.#backToUrl());
    this.#authKind.addEventListener('change', () => this.#showAuthFields());
    root.append(form);
  }

  /** The worker's answer to Continue: a proposal, a failure to show, or no permission to probe. */
  showProbe(result: { ok: true; authKind: AuthKind; name?: string | undefined } | { ok: false; message: string } | { denied: string }) {
    this.#continue.disabled = false;
    this.#setMessage('', false);
    if ('denied' in result) this.#note.textContent = t('probeNoAccess', result.denied);
    else if (!result.ok) this.#note.textContent = t('probeFailed', result.message);
    else if (result.authKind === 'bearer' && this.#directoryHeaders.required.length) {
      // Refused without the header the directory says it needs: that header, not a bearer token, is what is missing.
      this.#authKind.value = 'none';
      this.#note.textContent = t('probeDirectoryHeaders', this.#directoryHeaders.required.join(', '));
    } else {
      this.#authKind.value = result.authKind;
      this.#note.textContent = t(result.authKind === 'none' ? 'probeNone' : result.authKind === 'bearer' ? 'probeBearer' : 'probeOAuth');
    }
    // The directory's title is what the user chose the server by.
    this.#name.value =
      this.#fromDirectory?.name.slice(0, 120) ?? proposedName(this.#checkedUrl, 'ok' in result && result.ok ? result.name : undefined);
    this.#showAnotherAccount();
    this.#showAuthFields();
    this.#shownUrl.textContent = this.#checkedUrl;
    this.#shownUrl.title = this.#checkedUrl;
    this.#stepUrl.hidden = true;
    this.#stepDetails.hidden = false;
    (this.#authKind.value === 'bearer' ? this.#token : this.#name).focus();
  }

  /** Permission granted: the probe runs now. */
  showChecking() {
    this.#setMessage(t('checkingServer'), false);
  }

  /** Feedback from whoever handled the add: error text, or an empty form again on success (the detail opens). */
  showResult(result: { ok: true } | { ok: false; message: string }) {
    this.#submit.disabled = false;
    if (!result.ok) {
      this.#setMessage(result.message, true);
      return;
    }
    for (const input of [
      this.#name,
      this.#url,
      this.#token,
      this.#clientId,
      this.#clientSecret,
      this.#scopes,
      this.#clientMetadataUrl,
      this.#timeout,
      this.#headers,
    ])
      input.value = '';
    this.#authKind.value = 'none';
    this.#advanced.open = false;
    this.#forgetDirectory();
    this.#backToUrl();
    // No "Added." here: the panel shows the new server's detail, with its next step (K1).
    this.#setMessage('', false);
  }

  /**
   * Fills the form from a directory entry's endpoint (S1): its URL, its name, and its declared
   * headers as fields. Continue then runs the usual probe; nothing is sent before.
   */
  prefill(entry: { name: string; url: string; headers: DirectoryEntry['remotes'][number]['headers'] }) {
    this.showResult({ ok: true });
    this.#url.value = entry.url;
    this.#fromDirectory = entry;
    this.#fromNote.textContent = t('addFromDirectory', entry.name);
    this.#fromNote.hidden = false;
    this.#directoryHeaders.show(entry.headers);
  }

  #forgetDirectory() {
    this.#fromDirectory = undefined;
    this.#fromNote.hidden = true;
    this.#directoryHeaders.clear();
  }

  #backToUrl() {
    this.#stepDetails.hidden = true;
    this.#stepUrl.hidden = false;
    this.#note.textContent = '';
    this.#url.focus();
  }

  #showAuthFields() {
    this.#tokenLabel.hidden = this.#authKind.value !== 'bearer';
    this.#oauthFields.hidden = this.#authKind.value !== 'oauth';
    this.#tokenError.clear();
    this.#accountHelp.textContent = t(this.#authKind.value === 'oauth' ? 'anotherAccountHelpOAuth' : 'anotherAccountHelp');
  }

  /** Another account on a saved URL: say so, and propose a name no entry on that URL has. */
  #showAnotherAccount() {
    const siblings = otherAccountsOf(this.#known, { name: '', url: this.#checkedUrl });
    this.#anotherAccount.hidden = siblings.length === 0;
    this.#nameError.clear();
    this.#submit.textContent = t(siblings.length > 0 ? 'addAnotherAccount' : 'add');
    if (siblings.length === 0) return;
    const names = siblings.slice(0, 3).map((s) => s.name.slice(0, 60));
    this.#accountQuestion.textContent = t('anotherAccountQuestion', names.join('", "') + (siblings.length > 3 ? '…' : ''));
    this.#name.value = anotherAccountName(siblings[0]!.name.slice(0, 100), siblings);
  }

  #setMessage(text: string, isError: boolean) {
    this.#message.textContent = text;
    this.#message.className = isError ? 'message error' : 'message muted';
  }

  /** Shows a failed check at its field and focuses it; true when the check passed. */
  #check<T>(check: FieldCheck<T>, error: FieldError, open?: HTMLDetailsElement): check is { ok: true; value: T } {
    if (check.ok) {
      error.clear();
      return true;
    }
    error.show(t(check.key, ...(check.subs ?? [])));
    if (open) open.open = true;
    error.input.focus();
    return false;
  }

  #onContinue() {
    const checked = checkUrlField(this.#url.value);
    if (!this.#check(checked, this.#urlError)) return;
    this.#url.value = checked.value;
    this.#checkedUrl = checked.value;
    // Another URL typed over the directory's: its headers belong to the entry's server only.
    if (this.#fromDirectory && this.#fromDirectory.url !== checked.value) this.#forgetDirectory();
    this.#continue.disabled = true;
    // Said before the event: the receiver opens Chrome's dialog synchronously while handling it.
    this.#setMessage(t('allowAccessTo', new URL(checked.value).host), false);
    this.emit(new ProbeServerEvent(checked.value));
  }

  #onSubmit() {
    const kind = this.#authKind.value as AuthKind;
    const token = this.#token.value.trim();
    if (kind === 'bearer' && !token) {
      this.#check({ ok: false, key: 'tokenRequired' }, this.#tokenError);
      return;
    }
    this.#tokenError.clear();
    const clientId = this.#clientId.value.trim();
    const clientSecret = this.#clientSecret.value.trim();
    if (
      kind === 'oauth' &&
      !this.#check(
        clientSecret && !clientId ? { ok: false, key: 'clientSecretNeedsId' } : { ok: true, value: 0 },
        this.#secretError,
        this.#advanced,
      )
    )
      return;
    const metadata =
      kind === 'oauth' ? checkClientMetadataUrlField(this.#clientMetadataUrl.value) : ({ ok: true, value: undefined } as const);
    if (!this.#check(metadata, this.#metadataError, this.#advanced)) return;
    const timeout = checkTimeoutField(this.#timeout.value);
    if (!this.#check(timeout, this.#timeoutError, this.#advanced)) return;
    const declared = this.#directoryHeaders.values();
    if (!declared) return;
    const headers = withDeclared(checkHeaderLines(this.#headers.value), declared);
    if (!this.#check(headers, this.#headersError, this.#advanced)) return;
    const name = this.#name.value.trim() || proposedName(this.#checkedUrl);
    const twin = duplicateOf(this.#known, { name, url: this.#checkedUrl });
    if (!this.#check(twin ? { ok: false, key: 'nameTakenOnUrl', subs: [twin.name] } : { ok: true, value: 0 }, this.#nameError)) return;
    const scopes = scopesOf(this.#scopes.value);
    this.#submit.disabled = true;
    this.#setMessage(t('adding'), false);
    this.emit(
      new AddServerEvent({
        name,
        url: this.#checkedUrl,
        authKind: kind,
        ...(kind === 'bearer' ? { token } : {}),
        ...(kind === 'oauth' && clientId ? { clientId } : {}),
        ...(kind === 'oauth' && clientId && clientSecret ? { clientSecret } : {}),
        ...(kind === 'oauth' && scopes.length ? { scopes } : {}),
        ...(kind === 'oauth' && metadata.value ? { clientMetadataUrl: metadata.value } : {}),
        ...(headers.value.length ? { headers: headers.value } : {}),
        ...(timeout.value !== null ? { connectTimeoutMs: timeout.value } : {}),
      }),
    );
  }
}

/** The typed header lines with the directory's declared headers first; a header given twice is refused. */
function withDeclared(lines: FieldCheck<Header[]>, declared: Header[]): FieldCheck<Header[]> {
  if (!lines.ok || declared.length === 0) return lines;
  const twice = lines.value.find((h) => declared.some((d) => d.name.toLowerCase() === h.name.toLowerCase()));
  if (twice) return { ok: false, key: 'headerDuplicate', subs: [twice.name] };
  return { ok: true, value: [...declared, ...lines.value] };
}
