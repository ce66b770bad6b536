/**
 * The request log of one server (SPEC J2): a collapsed drawer that asks for the last 50
 * exchanges when opened, lists them newest first (method, time, status, duration, sizes, error)
 * and exports them as JSON. Entries arrive redacted from the worker and are rendered as text.
 */
import { ElementBase } from './element-base.js';
import type { RequestLogEntryView } from '../protocol/request-log-view.js';
import { el, sheet } from './dom.js';
import { downloadText } from './download.js';
import { LogRequestEvent } from './events.js';
import { t } from './i18n.js';

const css = sheet(`
details { margin-top: 6px; }
summary { cursor: pointer; }
.bar { display: flex; gap: 6px; margin: 6px 0; }
.scroll { max-height: 240px; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
th, td { text-align: left; padding: 2px 4px; border-top: 1px solid #8883; vertical-align: top; }
td.method { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
td.err { overflow-wrap: anywhere; }
td.time, td.num { white-space: nowrap; }
`);

const LOG_DRAWER_LIMIT = 50;

export class McpLogDrawerElement extends ElementBase {
  #entries: RequestLogEntryView[] = [];
  readonly #details = el('details');
  readonly #body = el('div', { class: 'scroll' });
  readonly #status = el('p', { class: 'muted', role: 'status' });

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const refresh = el('button', { type: 'button', 'data-action': 'refresh' }, t('refresh'));
    refresh.addEventListener('click', () => this.#ask());
    const exportButton = el('button', { type: 'button', 'data-action': 'export' }, t('exportJson'));
    exportButton.addEventListener('click', () => downloadText(`mcp-log-${this.serverId || 'server'}.json`, this.exportJson()));
    this.#details.append(el('summary', {}, t('requestLog')), el('div', { class: 'bar' }, refresh, exportButton), this.#status, this.#body);
    this.#details.addEventListener('toggle', () => {
      if (this.#details.open) this.#ask();
    });
    root.append(this.#details);
    this.update();
  }

  get serverId(): string {
    return this.getAttribute('server-id') ?? '';
  }

  get open(): boolean {
    return this.#details.open;
  }
  set open(value: boolean) {
    this.#details.open = value;
  }

  /** Oldest first as stored; only the last {@link LOG_DRAWER_LIMIT} are kept. */
  get entries(): RequestLogEntryView[] {
    return this.#entries;
  }
  set entries(value: RequestLogEntryView[]) {
    this.#entries = Array.isArray(value) ? value.slice(-LOG_DRAWER_LIMIT) : [];
    this.update();
  }

  /** The JSON the export button saves. */
  exportJson(): string {
    return JSON.stringify(
      { format: 'remote-mcp-for-chrome/request-log', version: 1, serverId: this.serverId, entries: this.#entries },
      null,
      2,
    );
  }

  #ask() {
    this.emit(new LogRequestEvent(this.serverId));
  }

  protected override update() {
    if (this.#entries.length === 0) {
      this.#status.textContent = t('logEmpty');
      this.#status.hidden = false;
      this.#body.replaceChildren();
      return;
    }
    this.#status.hidden = true;
    const head = el(
      'tr',
      {},
      ...[t('logTime'), t('logMethod'), t('logStatus'), t('logDuration'), t('logSize')].map((h) => el('th', { scope: 'col' }, h)),
    );
    const rows = [...this.#entries]
      .reverse()
      .map((e) =>
        el(
          'tr',
          {},
          el(
            'td',
            { class: 'time' },
            new Date(e.at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }),
          ),
          el('td', { class: 'method' }, e.method),
          el(
            'td',
            { class: e.status === 'error' || (typeof e.status === 'number' && e.status >= 400) ? 'err error' : 'err' },
            e.error ? `${String(e.status)}: ${e.error}` : String(e.status),
          ),
          el('td', { class: 'num' }, `${Math.round(e.durationMs)} ms`),
          el('td', {}, `${formatBytes(e.requestBytes)} / ${formatBytes(e.responseBytes)}`),
        ),
      );
    this.#body.replaceChildren(el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)));
  }
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}
