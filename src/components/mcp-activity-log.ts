/**
 * The Activity log (SPEC J2): what the extension sent to its servers and what they sent back,
 * newest start first — the JSON-RPC method with its subject (`tools/call echo`), the direction,
 * the server, the outcome and the duration, with the redacted payloads one click away. OAuth
 * traffic (discovery, registration, token) is marked as such. A search narrows the rows; Export
 * saves what is shown as JSON and says so. With a `server-id` attribute it shows one server's log
 * (a server's detail), without it every server's. Entries arrive redacted and bounded from the
 * worker; every string of them is rendered as text.
 */
import { ElementBase } from './element-base.js';
import type { RequestLogEntryView } from '../protocol/request-log-view.js';
import { activityRows, exportDocument, formatDuration, matchesSearch, payloadText, type ActivityRow } from './activity-model.js';
import { el, sheet } from './dom.js';
import { downloadText } from './download.js';
import { LogRequestEvent } from './events.js';
import { t, tReason, uiLocale } from './i18n.js';
import { RefreshWhenShown } from './refresh-when-shown.js';

const css = sheet(`
.bar { display: flex; gap: var(--space-2); align-items: center; margin: var(--space-2) 0; }
.bar { flex-wrap: wrap; }
.bar input { flex: 1 1 10em; min-width: 0; }
.bar button { white-space: nowrap; }
.status { margin: var(--space-1) 0; min-height: 1em; }
ol { list-style: none; margin: 0; padding: 0; }
li { border-top: 1px solid var(--border); }
summary { cursor: pointer; display: grid; grid-template-columns: auto minmax(0, 1fr) auto; column-gap: var(--space-2); padding: var(--space-1) 0; list-style: none; }
summary::-webkit-details-marker { display: none; }
.dir { color: var(--fg-muted); }
.method { font-family: ui-monospace, monospace; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.duration { white-space: nowrap; text-align: end; }
.meta { grid-column: 2 / 4; display: flex; flex-wrap: wrap; gap: 0 var(--space-2); font-size: var(--text-small, 12px); color: var(--fg-muted); min-width: 0; }
.meta > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 100%; }
[data-outcome="error"] .outcome { color: var(--danger); }
.tag { border: 1px solid var(--border); border-radius: var(--radius); padding: 0 var(--space-1); }
.body { padding: 0 0 var(--space-2) var(--space-3, 12px); }
.body h4 { margin: var(--space-2) 0 var(--space-1); font-size: var(--text-small, 12px); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow: auto; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1); margin: 0; font-size: var(--text-small, 12px); }
.error { overflow-wrap: anywhere; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`);

/** Rows rendered at most; a search narrows the rest. */
const MAX_ROWS = 300;

/** "OK" or "Failed", with the HTTP status when there is one (`ok`/`error` add nothing to the words). */
function outcomeText(row: ActivityRow): string {
  const http = /^\d+$/.test(row.status);
  if (row.outcome === 'ok') return http ? t('activityOkHttp', row.status) : t('activityOk');
  return http ? t('activityFailedHttp', row.status) : t('activityFailed');
}

export class McpActivityLogElement extends ElementBase {
  static readonly observedAttributes = ['server-id'];

  #entries: RequestLogEntryView[] = [];
  #rows: ActivityRow[] = [];
  readonly #search = el('input', { type: 'search', 'data-action': 'search' });
  readonly #status = el('p', { class: 'status muted', role: 'status' });
  readonly #empty = el('p', { class: 'empty muted' });
  readonly #list = el('ol');
  readonly #more = el('p', { class: 'more muted' });
  readonly #refresher = new RefreshWhenShown(this, 'log', () => this.#ask());

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#search.addEventListener('input', () => this.requestUpdate());
    const refresh = el('button', { type: 'button', 'data-action': 'refresh', 'data-role': 'quiet' }, t('refresh'));
    refresh.addEventListener('click', () => this.#ask());
    const exportButton = el('button', { type: 'button', 'data-action': 'export' }, t('activityExport'));
    exportButton.addEventListener('click', () => this.#export());
    root.append(el('div', { class: 'bar' }, this.#search, refresh, exportButton), this.#status, this.#empty, this.#list, this.#more);
    this.#label();
  }

  connectedCallback() {
    this.#refresher.connect();
  }

  disconnectedCallback() {
    this.#refresher.disconnect();
  }

  attributeChangedCallback() {
    this.#label();
    this.#refresher.invalidate();
    this.requestUpdate();
  }

  /** The server whose log is shown; empty for every server's. */
  get serverId(): string {
    return this.getAttribute('server-id') ?? '';
  }

  /** Entries as the worker sends them (any order); shown newest start first. */
  get entries(): RequestLogEntryView[] {
    return this.#entries;
  }
  set entries(value: RequestLogEntryView[]) {
    this.#entries = Array.isArray(value) ? value : [];
    this.requestUpdate();
  }

  /** The rows the search lets through, newest first. */
  get shownRows(): ActivityRow[] {
    const query = this.#search.value;
    return this.#rows.filter((r) => matchesSearch(r, query));
  }

  #label() {
    this.#search.setAttribute('aria-label', t('activitySearch'));
    this.#search.placeholder = t('activitySearchPlaceholder');
  }

  #ask() {
    this.emit(new LogRequestEvent(this.serverId));
  }

  #export() {
    const rows = this.shownRows;
    const name = `remote-mcp-activity${this.serverId ? `-${this.serverId}` : ''}.json`;
    downloadText(name, exportDocument(this.serverId || undefined, rows, Date.now()));
    this.#status.textContent = t('activityExported', String(rows.length), name);
  }

  protected override update() {
    const serverId = this.serverId;
    this.#rows = activityRows(serverId ? this.#entries.filter((e) => e.serverId === serverId) : this.#entries);
    const shown = this.shownRows;
    this.#empty.hidden = shown.length > 0;
    this.#empty.textContent = this.#rows.length === 0 ? t('activityEmpty') : t('activityNoMatch');
    this.#more.hidden = shown.length <= MAX_ROWS;
    this.#more.textContent = t('activityMore', String(MAX_ROWS), String(shown.length));
    // A row the user opened stays open when new calls arrive (the list is rebuilt on every change).
    const opened = new Set([...this.#list.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.dataset['open']));
    this.#list.replaceChildren(...shown.slice(0, MAX_ROWS).map((r) => el('li', {}, this.#row(r, !serverId, opened))));
  }

  #row(row: ActivityRow, withServer: boolean, opened: ReadonlySet<string | undefined>): HTMLDetailsElement {
    const e = row.entry;
    const direction = t(
      row.direction === 'in'
        ? row.notification
          ? 'activityInNotification'
          : 'activityInRequest'
        : row.notification
          ? 'activityOutNotification'
          : 'activityOutRequest',
    );
    const time = new Date(e.at);
    const summary = el(
      'summary',
      {},
      el('span', { class: 'dir', 'aria-hidden': 'true', title: direction }, row.direction === 'in' ? '←' : '→'),
      el('span', { class: 'method', title: row.label }, row.label),
      el('span', { class: 'duration' }, formatDuration(e.durationMs)),
      el(
        'span',
        { class: 'meta' },
        el('span', { class: 'sr' }, direction),
        row.oauth ? el('span', { class: 'tag' }, t('activityOAuth')) : null,
        withServer ? el('span', { class: 'server', title: e.serverName }, e.serverName) : null,
        el('span', { class: 'outcome' }, outcomeText(row)),
        el(
          'time',
          { datetime: time.toISOString() },
          time.toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }),
        ),
      ),
    );
    // Not `row.key`: its position part shifts when the oldest entries drop out of the log.
    const identity = `${e.at}|${e.serverId}|${row.label}`;
    const details = el('details', { 'data-outcome': row.outcome, 'data-method': row.method, 'data-open': identity }, summary);
    if (opened.has(identity)) {
      details.append(this.#body(row));
      details.open = true;
    }
    // Payloads can be large: built the first time the row is opened.
    details.addEventListener('toggle', () => {
      if (details.open && details.childElementCount === 1) details.append(this.#body(row));
    });
    return details;
  }

  #body(row: ActivityRow): HTMLElement {
    const e = row.entry;
    const part = (title: string, cls: string, body: unknown) =>
      body === undefined ? null : [el('h4', {}, title), el('pre', { class: cls, tabindex: '0', 'aria-label': title }, payloadText(body))];
    return el(
      'div',
      { class: 'body' },
      e.error !== undefined ? el('p', { class: 'error' }, tReason({ message: e.error, wording: e.errorWording })) : null,
      ...(part(t(row.direction === 'in' ? 'activityServerSent' : 'activityParams'), 'request', e.request) ?? []),
      ...(part(t(row.direction === 'in' ? 'activityAnswer' : 'activityResult'), 'response', e.response) ?? []),
      el('p', { class: 'sizes muted' }, t('activitySizes', bytes(e.requestBytes), bytes(e.responseBytes))),
    );
  }
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}
