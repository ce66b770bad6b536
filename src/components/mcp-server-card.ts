/**
 * One server: name, URL, status with its reason, tool count, since when its catalog may be stale
 * (D2, C2), catalog warnings (N8), actions,
 * "test connection" with its latency, per-tool toggles and the request log (SPEC J1–J3, K1, K2).
 * Everything from the server is rendered as text (SPEC K5).
 *
 * The article and its children are created once and updated in place, so a state push (which
 * arrives on every status change) does not steal focus from the tool search or close an open
 * schema or log drawer.
 *
 * While a connect attempt runs, the seconds since it began tick beside the status ("Connecting…
 * 12 s", a `timer`, which screen readers do not announce every second) and Cancel stops it.
 * A click on Connect or Disconnect shows at once that it was taken: the button says
 * "Connecting…"/"Disconnecting…" and is inert until the next state for the server arrives.
 */
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { ServerActionEvent, type ServerAction } from './events.js';
import { t, tReason, uiLocale } from './i18n.js';
import type { Said } from '../protocol/wording.js';

/** What "Test connection" reported, as shown under the actions. */
export type PingOutcome = { ok: true; latencyMs: number } | { ok: false; message: string };

/** How long a clicked Connect/Disconnect stays busy when no new state arrives (the click may have been refused). */
const BUSY_LIMIT_MS = 15_000;

const css = sheet(`
:host { border: 1px solid #8886; border-radius: 8px; padding: 10px; margin-bottom: 8px; }
header { display: flex; align-items: center; gap: 8px; min-width: 0; }
.elapsed { font-size: 12px; font-variant-numeric: tabular-nums; }
button[aria-disabled="true"] { opacity: 0.6; cursor: progress; }
h3 { margin: 0; font-size: 14px; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.url { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.reason { margin: 4px 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.ping { font-size: 12px; margin: 4px 0 0; }
.ping:empty { display: none; }
.warnings { font-size: 12px; margin: 4px 0; }
.stale { font-size: 12px; margin: 4px 0; }
.warnings ul { margin: 4px 0; padding-left: 18px; }
.warnings li { overflow-wrap: anywhere; }
`);

/**
 * The words of the card's authorization button (SPEC E9, E11, K1). Every OAuth card has it:
 * "Authorize" while the server waits for its first authorization, "Re-authorize" once it has
 * been authorized, and when the worker's needs-auth reason asks for `reauthorize` (a sign-in
 * that lapsed with no user present). `edit`, `retry` and `connect` add no button of their own:
 * Connect is already on the card, and the settings editor is not here yet.
 */
function authorizeLabelKey(s: ServerView): 'authorize' | 'reauthorize' {
  return s.status === 'needs-auth' && s.reason?.action !== 'reauthorize' ? 'authorize' : 'reauthorize';
}

export class McpServerCardElement extends ElementBase {
  #server: ServerView | undefined;
  #confirmingDelete = false;
  /** The Connect/Disconnect click waiting for its new state, and the state it was made in. */
  #busy: { action: 'connect' | 'disconnect'; status: string; since: number | undefined; timer: ReturnType<typeof setTimeout> } | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [css];
  }

  get server(): ServerView | undefined {
    return this.#server;
  }
  set server(value: ServerView | undefined) {
    this.#server = value;
    const busy = this.#busy;
    if (busy && (value?.status !== busy.status || value.connectingSince !== busy.since)) this.#clearBusy();
    this.requestUpdate();
  }

  connectedCallback() {
    this.requestUpdate();
  }

  disconnectedCallback() {
    this.#stopTicker();
    this.#clearBusy();
  }

  #clearBusy() {
    if (this.#busy) clearTimeout(this.#busy.timer);
    this.#busy = undefined;
  }

  #stopTicker() {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  /** "12 s" since the connect attempt began, updated once a second while it runs. */
  #renderElapsed() {
    const s = this.#server;
    const since = s?.status === 'connecting' ? s.connectingSince : undefined;
    this.#elapsed.hidden = since === undefined;
    if (since === undefined) {
      this.#stopTicker();
      this.#elapsed.textContent = '';
      return;
    }
    this.#elapsed.textContent = t('connectingFor', String(Math.max(0, Math.floor((Date.now() - since) / 1000))));
    this.#ticker ??= setInterval(() => this.#renderElapsed(), 1000);
  }

  /** Connect/Disconnect: inert and saying what it does until the server's next state arrives. */
  #connectionButton(action: 'connect' | 'disconnect', label: string) {
    const s = this.#server!;
    const busy = this.#busy?.action === action;
    const b = this.#button(busy ? t(action === 'connect' ? 'statusConnecting' : 'disconnectingBusy') : label, action, () => {
      if (this.#busy) return;
      this.#busy = { action, status: s.status, since: s.connectingSince, timer: setTimeout(() => this.#endBusy(), BUSY_LIMIT_MS) };
      this.#action(action);
    });
    // aria-disabled rather than disabled: the button keeps the keyboard focus while it waits.
    if (busy) b.setAttribute('aria-disabled', 'true');
    return b;
  }

  #endBusy() {
    this.#busy = undefined;
    this.update();
  }

  #action(action: ServerAction) {
    const s = this.#server;
    if (!s) return;
    if (action === 'delete' && !this.#confirmingDelete) {
      this.#confirmingDelete = true;
      this.update();
      this.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="confirm-delete"]')?.focus();
      return;
    }
    this.#confirmingDelete = false;
    this.emit(new ServerActionEvent(s.id, action));
    this.update();
  }

  #button(label: string, action: ServerAction | 'confirm-delete' | 'cancel-delete', onClick: () => void) {
    const b = el('button', { type: 'button', 'data-action': action }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  /** Shows the outcome of the "Test connection" the user asked for (SPEC J3). */
  showPing(outcome: PingOutcome) {
    this.#ping.classList.toggle('error', !outcome.ok);
    this.#ping.textContent = outcome.ok ? t('pingOk', String(Math.round(outcome.latencyMs))) : t('pingFailed', outcome.message);
  }

  protected override update() {
    const root = this.shadowRoot!;
    const s = this.#server;
    if (!s) {
      root.replaceChildren();
      return;
    }
    if (!root.contains(this.#article)) root.replaceChildren(this.#article);
    this.#article.setAttribute('aria-label', s.name);
    this.#title.textContent = s.name;
    this.#title.title = s.name;
    this.#badge.setAttribute('status', s.status);
    this.#renderElapsed();
    this.#url.textContent = s.url;
    this.#reason.hidden = !s.reason;
    this.#reason.className = s.status === 'error' || s.status === 'needs-auth' ? 'error reason' : 'muted reason';
    this.#reason.textContent = s.reason ? tReason(s.reason) : '';
    const enabledTools = s.tools.filter((tool) => !s.disabledTools.includes(tool.name)).length;
    this.#count.textContent = t('toolCount', String(enabledTools), String(s.tools.length));
    this.#renderWarnings(s.warnings ?? []);
    // A catalog kept from an earlier session, or whose refresh failed, may no longer be what the server offers.
    this.#stale.hidden = s.staleSince === undefined;
    this.#stale.textContent =
      s.staleSince === undefined
        ? ''
        : t('catalogStale', new Date(s.staleSince).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' }));

    const actions = this.#actions;
    const hadFocus = actions.contains(this.shadowRoot!.activeElement) ? this.shadowRoot!.activeElement?.getAttribute('data-action') : null;
    actions.replaceChildren();
    // While connecting, the disconnect action stops the attempt: it reads Cancel.
    if (s.status === 'ready' || s.status === 'connecting')
      actions.append(this.#connectionButton('disconnect', s.status === 'connecting' ? t('cancel') : t('disconnect')));
    // A server that asked for sign-in gets nothing from Connect but the same refusal: the
    // authorize (or switch-to-OAuth) action below is the way on.
    else if (s.enabled && !(s.status === 'needs-auth' && s.reason?.action === 'authorize'))
      actions.append(this.#connectionButton('connect', t('connect')));
    if (s.status === 'ready') {
      actions.append(
        this.#button(t('testConnection'), 'ping', () => {
          this.#ping.classList.remove('error');
          this.#ping.textContent = t('testing');
          this.#action('ping');
        }),
      );
    }
    if (s.reason?.action === 'grant-permission') actions.append(this.#button(t('grantAccess'), 'grant', () => this.#action('grant')));
    if (s.authKind === 'oauth') {
      // Up-front authorization (SPEC E11), and "Re-authorize" on every OAuth card, ready ones too (E9).
      actions.append(this.#button(t(authorizeLabelKey(s)), 'authorize', () => this.#action('authorize')));
      actions.append(this.#button(t('forgetAuthorization'), 'forget-auth', () => this.#action('forget-auth')));
    } else if (s.authKind === 'none' && s.status === 'needs-auth' && s.reason?.action === 'authorize') {
      // It answered 401 with a Bearer challenge: one click switches it to OAuth and authorizes (E3).
      actions.append(this.#button(t('switchToOAuth'), 'authorize', () => this.#action('authorize')));
    }
    actions.append(
      this.#button(s.enabled ? t('disable') : t('enable'), s.enabled ? 'disable' : 'enable', () =>
        this.#action(s.enabled ? 'disable' : 'enable'),
      ),
    );
    if (this.#confirmingDelete) {
      actions.append(
        el('span', { role: 'alert' }, t('confirmDelete', s.name)),
        this.#button(t('delete'), 'confirm-delete', () => this.#action('delete')),
        this.#button(t('cancel'), 'cancel-delete', () => {
          this.#confirmingDelete = false;
          this.update();
          this.#actions.querySelector<HTMLButtonElement>('[data-action="delete"]')?.focus();
        }),
      );
    } else {
      actions.append(this.#button(t('delete'), 'delete', () => this.#action('delete')));
    }
    if (hadFocus) actions.querySelector<HTMLElement>(`[data-action="${hadFocus}"]`)?.focus();
    if (s.status !== 'ready') this.#ping.textContent = '';

    this.#tools.setAttribute('server-id', s.id);
    this.#tools.setAttribute('aria-label', t('toolsOf', s.name));
    this.#tools.tools = s.tools;
    this.#tools.disabledTools = s.disabledTools;
    this.#tools.hidden = s.tools.length === 0;
    this.#log.setAttribute('server-id', s.id);
  }

  /** Collapsed unless the user opened it; the list is replaced only when its text changed. */
  #renderWarnings(said: readonly Said[]) {
    const warnings = said.map(tReason);
    this.#warnings.hidden = warnings.length === 0;
    this.#warningsSummary.textContent = t('catalogWarnings', String(warnings.length));
    const items = [...this.#warningsList.children].map((li) => li.textContent);
    if (items.length === warnings.length && items.every((text, i) => text === warnings[i])) return;
    this.#warningsList.replaceChildren(...warnings.map((w) => el('li', {}, w)));
  }

  readonly #title = el('h3');
  readonly #badge = el('mcp-status-badge');
  readonly #elapsed: HTMLSpanElement = el('span', { class: 'elapsed muted', role: 'timer', hidden: true });
  readonly #url = el('div', { class: 'url muted' });
  readonly #reason = el('p', { class: 'reason' });
  readonly #count = el('div', { class: 'tool-count' });
  readonly #stale = el('p', { class: 'stale muted' });
  readonly #actions = el('div', { class: 'actions', role: 'group', 'aria-label': t('serverActions') });
  readonly #ping = el('p', { class: 'ping', role: 'status' });
  readonly #warningsSummary = el('summary');
  readonly #warningsList = el('ul');
  readonly #warnings = el('details', { class: 'warnings' }, this.#warningsSummary, this.#warningsList);
  readonly #tools = document.createElement('mcp-tool-list');
  readonly #log = document.createElement('mcp-activity-log');
  /** Collapsed: the log asks the worker for its entries only once opened. */
  readonly #logDrawer = el('details', { class: 'log' }, el('summary', {}, t('requestLog')), this.#log);
  readonly #article: HTMLElement = el(
    'article',
    {},
    el('header', {}, this.#title, this.#badge, this.#elapsed),
    this.#url,
    this.#reason,
    this.#count,
    this.#stale,
    this.#warnings,
    this.#actions,
    this.#ping,
    this.#tools,
    this.#logDrawer,
  );
}
