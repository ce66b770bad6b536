/**
 * "Add from directory" (SPEC S1, docs/ui.md): search an MCP Registry and pick a remote server.
 * Nothing is fetched when the view opens: the first request is the user's Search, in whose click
 * the panel asks Chrome for the registry's origin. Entries arrive validated and bounded from the
 * worker and are shown as text; "Load more" follows the registry's cursor; a failed search says
 * why and keeps what was listed. The registry (official by default) can be changed here.
 */
import { ElementBase } from './element-base.js';
import { el, sheet } from './dom.js';
import { DirectoryChooseEvent, DirectorySearchEvent, DirectorySetRegistryEvent } from './events.js';
import { t } from './i18n.js';
import { field, fieldCss } from './server-form-fields.js';
import { directoryEntry, directoryEntryCss } from './directory-entry.js';
import type { DirectoryPage } from '../protocol/panel-directory.js';

const css = sheet(`${fieldCss}${directoryEntryCss}
:host { display: grid; gap: var(--space-2); }
p { margin: 0; }
form.search { display: flex; gap: var(--space-2); align-items: end; }
form.search label { flex: 1; display: grid; gap: 2px; min-width: 0; }
.registry { display: grid; gap: var(--space-2); font-size: var(--text-small); }
.registry .host { overflow-wrap: anywhere; }
details[open] > summary { margin-bottom: var(--space-2); }
form.registry-form { display: grid; gap: var(--space-2); }
form.registry-form button { justify-self: start; }
[role="list"] { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--space-2); }
.more { justify-self: start; }
`);

type Settings = { registryUrl: string; isDefault: boolean };
const hostOf = (url: string) => new URL(url).host;

export class McpDirectoryElement extends ElementBase {
  readonly #search = el('input', { name: 'search', type: 'search', autocomplete: 'off', spellcheck: 'false', maxlength: '200' });
  readonly #searchButton = el('button', { type: 'submit', name: 'search', 'data-role': 'primary' }, t('directorySearchButton'));
  readonly #registryHost = el('span', { class: 'host' });
  readonly #registryInput = el('input', {
    name: 'registry-url',
    type: 'text',
    inputmode: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: '2048',
    placeholder: 'https://registry.example.com',
  });
  readonly #registryMessage = el('p', { class: 'registry-message muted', role: 'status' });
  readonly #status = el('p', { class: 'status muted', role: 'status', 'aria-live': 'polite' });
  readonly #list = el('div', { role: 'list', 'aria-label': t('directoryResults') });
  readonly #dropped = el('p', { class: 'dropped muted', hidden: true });
  readonly #more = el('button', { type: 'button', name: 'more', class: 'more', hidden: true }, t('directoryLoadMore'));
  #settings: Settings | undefined;
  #query = '';
  #cursor: string | undefined;
  /** What the answer being waited for does to the list: replace it (a search) or add to it (Load more). */
  #pending: 'search' | 'more' | undefined;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const search = el(
      'form',
      { class: 'search', role: 'search', novalidate: true },
      el('label', {}, t('directorySearchLabel'), this.#search),
      this.#searchButton,
    );
    search.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#ask('search', { search: this.#search.value.trim() });
    });
    this.#more.addEventListener('click', () => this.#cursor && this.#ask('more', { search: this.#query, cursor: this.#cursor }));
    root.append(
      el('p', { class: 'intro muted' }, t('directoryIntro')),
      search,
      this.#registryPart(),
      this.#status,
      this.#list,
      this.#dropped,
      this.#more,
    );
  }

  #registryPart(): HTMLElement {
    const form = el(
      'form',
      { class: 'registry-form', novalidate: true },
      field(t('directoryRegistryUrl'), this.#registryInput, t('directoryRegistryHelp')),
      el('button', { type: 'submit', name: 'save-registry' }, t('directoryRegistrySave')),
      this.#registryMessage,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.#registryMessage.textContent = '';
      this.emit(new DirectorySetRegistryEvent(this.#registryInput.value.trim()));
    });
    return el('div', { class: 'registry' }, this.#registryHost, el('details', {}, el('summary', {}, t('directoryChangeRegistry')), form));
  }

  /** The registry searched, as the worker has it (read when the view opens; no network). */
  set settings(value: Settings) {
    this.#settings = value;
    this.#registryHost.textContent = t('directoryRegistryIs', hostOf(value.registryUrl));
    this.#registryInput.value = value.isDefault ? '' : value.registryUrl;
  }
  get settings(): Settings | undefined {
    return this.#settings;
  }

  /** The registry setting's outcome: saved (the list is for the old registry, so it goes) or why not. */
  showRegistrySaved(result: { ok: true; value: Settings } | { ok: false; message: string }) {
    if (!result.ok) {
      this.#registryMessage.className = 'registry-message error';
      this.#registryMessage.textContent = result.message;
      return;
    }
    this.settings = result.value;
    this.#registryMessage.className = 'registry-message muted';
    this.#registryMessage.textContent = t('directoryRegistrySaved', hostOf(result.value.registryUrl));
    this.#showList([], undefined, 0);
    this.#setStatus('', false);
  }

  #ask(kind: 'search' | 'more', detail: { search: string; cursor?: string }) {
    if (this.#pending) return;
    this.#pending = kind;
    this.#searchButton.disabled = true;
    this.#more.disabled = true;
    if (kind === 'search') this.#query = detail.search;
    // Said before the event: the receiver opens Chrome's dialog synchronously while handling it.
    if (this.#settings) this.#setStatus(t('directoryAllowAccess', hostOf(this.#settings.registryUrl)), false);
    this.emit(new DirectorySearchEvent(detail));
  }

  /** The origin is granted: the request is on its way. */
  showSearching() {
    if (this.#settings) this.#setStatus(t('directorySearching', hostOf(this.#settings.registryUrl)), false);
  }

  /** A page arrived: it replaces the list (a new search) or is added to it (Load more). */
  showPage(page: DirectoryPage) {
    const append = this.#pending === 'more';
    this.#done();
    const before = append ? [...this.#list.children] : [];
    const rows = page.entries.map((entry) => directoryEntry(entry, (remote) => this.emit(new DirectoryChooseEvent({ entry, remote }))));
    this.#showList([...before, ...rows], page.nextCursor, page.dropped);
    const count = this.#list.children.length;
    this.#setStatus(count ? t('directoryShown', String(count)) : t('directoryNoResults'), false);
    if (append) (rows[0]?.querySelector('button') ?? this.#search).focus();
  }

  /** The search failed (or was not allowed): said in words; what was listed stays. */
  showError(message: string) {
    this.#done();
    this.#setStatus(message, true);
  }

  #done() {
    this.#pending = undefined;
    this.#searchButton.disabled = false;
    this.#more.disabled = false;
  }

  #showList(rows: Element[], cursor: string | undefined, dropped: number) {
    this.#list.replaceChildren(...rows);
    this.#cursor = cursor;
    this.#more.hidden = !cursor;
    this.#dropped.hidden = dropped === 0;
    this.#dropped.textContent = dropped ? t('directoryDropped', String(dropped)) : '';
  }

  #setStatus(text: string, isError: boolean) {
    this.#status.textContent = text;
    this.#status.className = isError ? 'status error' : 'status muted';
  }
}
