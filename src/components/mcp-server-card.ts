/**
 * One server, in one of three forms (docs/ui.md):
 * - `mode="row"` (default): a one-line row for the server list — status dot, name (ellipsis, full
 *   name in `title`), a short status word, and the server's one on/off switch. The row opens the
 *   server's detail.
 * - `mode="detail"`: the detail view's header — name, URL, status and reason, tool count, catalog
 *   warnings, stale notice (D2, C2, N8), the state's one primary action and the secondary ones,
 *   "Test connection" with its latency (SPEC J1–J3, K1).
 * - `mode="settings"`: the destructive actions kept in Settings — Forget authorization and Delete
 *   (confirmed first). The view cannot tell whether a token is stored, so Forget is never offered
 *   beside Authorize.
 * Everything from the server is rendered as text (SPEC K5).
 *
 * The parts are created once and updated in place, so a state push (which arrives on every status
 * change) does not steal focus. While a connect attempt runs, the seconds since it began tick
 * beside the status (a `timer`, not announced every second) and Cancel stops it. A click on
 * Connect, Disconnect or the switch shows at once that it was taken and is inert until the next
 * state for the server arrives, or the worker's refusal (shown here, where the click was).
 */
import { isModernRevision } from '../protocol/modern-wire.js';
import { ElementBase } from './element-base.js';
import type { ServerView } from '../protocol/panel.js';
import { el, sheet } from './dom.js';
import { NavigateEvent, ServerActionEvent, type ServerAction } from './events.js';
import { t, tReason, uiLocale } from './i18n.js';
import type { Said } from '../protocol/wording.js';
import { icon } from './icons.js';
import { tokenRefused } from './server-next-step.js';

/** What "Test connection" reported, as shown under the actions. */
export type PingOutcome = { ok: true; latencyMs: number } | { ok: false; message: string };

/** How long a clicked action stays busy when no new state arrives (the click may have been refused). */
const BUSY_LIMIT_MS = 15_000;

type Mode = 'row' | 'detail' | 'settings';
type BusyAction = 'connect' | 'disconnect' | 'enable' | 'disable';

const css = sheet(`
:host { min-width: 0; }
.row { display: flex; align-items: center; gap: var(--space-1); min-width: 0; padding: 0 var(--space-1) 0 0; border-radius: var(--radius); }
.row:hover { background: var(--bg-hover); }
.open { flex: 1; min-width: 0; display: flex; align-items: center; gap: var(--space-2); border: 0; background: transparent; color: var(--fg);
  padding: 6px var(--space-2); text-align: start; font-weight: 400; border-radius: var(--radius); }
.open:hover { background: transparent; }
.open .name { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 500; }
.open mcp-status-badge { flex: none; max-width: 45%; }
.open .icon { flex: none; color: var(--fg-muted); }
.off .name { color: var(--fg-muted); }
.open .name.split { display: flex; }
.name .head { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.name .tail { flex: none; white-space: pre; }
.switch { flex: none; padding: 0; width: 32px; height: 18px; border-radius: var(--radius-pill); border: 0; background: var(--border); position: relative; }
.switch::after { content: ''; position: absolute; top: 3px; left: 3px; width: 12px; height: 12px; border-radius: 50%; background: var(--bg); transition: left 0.12s; }
.switch[aria-checked="true"] { background: var(--accent); }
.switch[aria-checked="true"]::after { left: 17px; background: var(--accent-fg); }
.switch:hover { background: var(--fg-muted); }
.switch[aria-checked="true"]:hover { background: var(--accent); filter: brightness(1.1); }
header { display: flex; align-items: center; gap: var(--space-2); min-width: 0; }
h2 { margin: 0; font-size: var(--text-heading); font-weight: 600; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.url { font-family: ui-monospace, monospace; font-size: var(--text-small); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.status { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-1) var(--space-2); margin-top: var(--space-1); font-size: var(--text-small); }
.elapsed { font-variant-numeric: tabular-nums; }
.reason { margin: var(--space-1) 0 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: var(--space-2); margin-top: var(--space-2); align-items: center; }
.actions:empty { display: none; }
.ping, .action-error, .stale { font-size: var(--text-small); margin: var(--space-1) 0 0; overflow-wrap: anywhere; }
.ping:empty, .action-error:empty { display: none; }
.warnings { font-size: var(--text-small); margin: var(--space-2) 0 0; padding: var(--space-1) var(--space-2); border-radius: var(--radius); background: var(--warn-soft); }
.warnings p { margin: 0; font-weight: 600; color: var(--warn); }
.warnings ul { margin: var(--space-1) 0 0; padding-left: 18px; }
.warnings li { overflow-wrap: anywhere; }
.confirm { flex-basis: 100%; overflow-wrap: anywhere; }
`);

/**
 * The words of the authorization button (SPEC E9, E11, K1): "Authorize" while the server waits
 * for its first authorization, "Re-authorize" once it has been authorized and when the worker's
 * needs-auth reason asks for `reauthorize` (a sign-in that lapsed with no user present).
 */
function authorizeLabelKey(s: ServerView): 'authorize' | 'reauthorize' {
  return s.status === 'needs-auth' && s.reason?.action !== 'reauthorize' ? 'authorize' : 'reauthorize';
}

export class McpServerCardElement extends ElementBase {
  static get observedAttributes() {
    return ['mode'];
  }

  #server: ServerView | undefined;
  #confirmingDelete = false;
  /** The click waiting for its new state, and the state it was made in. */
  #busy:
    { action: BusyAction; status: string; enabled: boolean; since: number | undefined; timer: ReturnType<typeof setTimeout> } | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [css];
    this.#open.addEventListener('click', () => {
      if (this.#server) this.emit(new NavigateEvent({ view: 'detail', serverId: this.#server.id }));
    });
    this.#switch.addEventListener('click', () => this.#toggleEnabled());
    this.#detailSwitch.addEventListener('click', () => this.#toggleEnabled());
  }

  get mode(): Mode {
    const m = this.getAttribute('mode');
    return m === 'detail' || m === 'settings' ? m : 'row';
  }

  get server(): ServerView | undefined {
    return this.#server;
  }
  set server(value: ServerView | undefined) {
    const busy = this.#busy;
    if (busy && (value?.status !== busy.status || value.enabled !== busy.enabled || value.connectingSince !== busy.since))
      this.#clearBusy();
    if (value?.id !== this.#server?.id) {
      this.#confirmingDelete = false;
      this.#actionError.textContent = '';
      this.#ping.textContent = '';
    }
    this.#server = value;
    this.requestUpdate();
  }

  connectedCallback() {
    this.requestUpdate();
  }

  attributeChangedCallback() {
    this.requestUpdate();
  }

  disconnectedCallback() {
    this.#stopTicker();
    this.#clearBusy();
  }

  /** Focuses the control that opens the detail (Back from the detail returns here). */
  override focus() {
    (this.mode === 'row' ? this.#open : this.#title).focus();
  }

  /** Shows the outcome of the "Test connection" the user asked for (SPEC J3). */
  showPing(outcome: PingOutcome) {
    this.#ping.classList.toggle('error', !outcome.ok);
    this.#ping.textContent = outcome.ok ? t('pingOk', String(Math.round(outcome.latencyMs))) : t('pingFailed', outcome.message);
  }

  /** The worker refused an action clicked here: say why, here, and stop waiting for a new state. */
  showActionError(message: string) {
    this.#clearBusy();
    this.#actionError.textContent = message;
    this.update();
  }

  #clearBusy() {
    if (this.#busy) clearTimeout(this.#busy.timer);
    this.#busy = undefined;
  }

  #stopTicker() {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #toggleEnabled() {
    const s = this.#server;
    if (!s || this.#busy) return;
    this.#startBusy(s.enabled ? 'disable' : 'enable');
  }

  #startBusy(action: BusyAction) {
    const s = this.#server!;
    this.#busy = {
      action,
      status: s.status,
      enabled: s.enabled,
      since: s.connectingSince,
      timer: setTimeout(() => {
        this.#busy = undefined;
        this.update();
      }, BUSY_LIMIT_MS),
    };
    this.#action(action);
  }

  /** "12 s" since the connect attempt began, updated once a second while it runs. */
  #renderElapsed() {
    const s = this.#server;
    const since = s?.status === 'connecting' ? s.connectingSince : undefined;
    this.#elapsed.hidden = since === undefined;
    if (since === undefined || this.mode !== 'detail') {
      this.#stopTicker();
      this.#elapsed.textContent = '';
      return;
    }
    this.#elapsed.textContent = t('connectingFor', String(Math.max(0, Math.floor((Date.now() - since) / 1000))));
    this.#ticker ??= setInterval(() => this.#renderElapsed(), 1000);
  }

  /** Connect/Retry/Disconnect/Cancel: inert and saying what it does until the server's next state arrives. */
  #connectionButton(action: 'connect' | 'disconnect', label: string, primary: boolean) {
    const busy = this.#busy?.action === action;
    const b = this.#button(busy ? t(action === 'connect' ? 'statusConnecting' : 'disconnectingBusy') : label, action, () => {
      if (!this.#busy) this.#startBusy(action);
    });
    if (primary) b.dataset.role = 'primary';
    // aria-disabled rather than disabled: the button keeps the keyboard focus while it waits.
    if (busy) b.setAttribute('aria-disabled', 'true');
    return b;
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
    this.#actionError.textContent = '';
    this.emit(new ServerActionEvent(s.id, action));
    this.update();
  }

  #button(label: string, action: ServerAction | 'confirm-delete' | 'cancel-delete', onClick: () => void, role?: 'primary' | 'danger') {
    const b = el('button', { type: 'button', 'data-action': action, ...(role ? { 'data-role': role } : {}) }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  #syncSwitch(sw: HTMLButtonElement, s: ServerView) {
    const busy = this.#busy?.action === 'enable' || this.#busy?.action === 'disable';
    sw.setAttribute('aria-checked', String(busy ? !s.enabled : s.enabled));
    sw.setAttribute('aria-label', t('serverEnabled', s.name));
    sw.title = t('serverEnabled', s.name);
    if (busy) sw.setAttribute('aria-disabled', 'true');
    else sw.removeAttribute('aria-disabled');
  }

  protected override update() {
    const root = this.shadowRoot!;
    const s = this.#server;
    if (!s) {
      root.replaceChildren();
      return;
    }
    const mode = this.mode;
    const part = mode === 'row' ? this.#rowPart : mode === 'detail' ? this.#detailPart : this.#settingsPart;
    if (!root.contains(part)) root.replaceChildren(part, this.#actionError);
    this.#badge.toggleAttribute('disabled', !s.enabled);
    this.#badge.setAttribute('status', s.status);
    if (mode === 'row') this.#updateRow(s);
    else if (mode === 'detail') this.#updateDetail(s);
    else this.#updateSettings(s);
  }

  #updateRow(s: ServerView) {
    if (!this.#open.contains(this.#badge)) this.#open.replaceChildren(this.#name, this.#badge, icon('chevron', 16));
    this.#rowPart.classList.toggle('off', !s.enabled);
    this.#showName(s.name);
    this.#open.title = s.name;
    this.#syncSwitch(this.#switch, s);
  }

  /**
   * The row's name. Two accounts on one URL (S3, the list sets `shared-url`) often differ only at
   * the end of their names ("GitHub (2)", "GitHub personal"): the last word stays in view and the
   * ellipsis goes before it.
   */
  #showName(name: string) {
    const cut = name.trimEnd().lastIndexOf(' ');
    const tail = cut > 0 ? name.slice(cut) : '';
    const split = this.hasAttribute('shared-url') && tail.length > 1 && tail.length <= 16;
    this.#name.classList.toggle('split', split);
    if (split) this.#name.replaceChildren(el('span', { class: 'head' }, name.slice(0, cut)), el('span', { class: 'tail' }, tail));
    else this.#name.textContent = name;
  }

  #updateDetail(s: ServerView) {
    if (!this.#status.contains(this.#badge)) this.#status.prepend(this.#badge);
    this.#title.textContent = s.name;
    this.#title.title = s.name;
    this.#syncSwitch(this.#detailSwitch, s);
    this.#url.textContent = s.url;
    this.#url.title = s.url;
    this.#renderElapsed();
    // A needs-auth reason is the way on, not a failure: it is not shown as an error.
    this.#reason.hidden = !s.reason || !s.enabled;
    this.#reason.className = s.status === 'error' ? 'error reason' : 'muted reason';
    this.#reason.textContent = s.reason ? tReason(s.reason) : '';
    // "0 of 0 tools" says nothing about a server that never connected.
    const known = s.status === 'ready' || s.tools.length > 0;
    this.#count.hidden = !known;
    const enabledTools = s.tools.filter((tool) => !s.disabledTools.includes(tool.name)).length;
    this.#count.textContent = known ? t('toolCount', String(enabledTools), String(s.tools.length)) : '';
    // The revision the live session speaks (SPEC R1); 2026-07-28 and later hold no session on the server.
    const version = s.status === 'ready' ? s.protocolVersion : undefined;
    this.#version.hidden = version === undefined;
    this.#version.textContent =
      version === undefined ? '' : t(isModernRevision(version) ? 'protocolStateless' : 'protocolSession', version);
    this.#renderWarnings(s.warnings ?? []);
    // A catalog kept from an earlier session, or whose refresh failed, may no longer be what the server offers.
    this.#stale.hidden = s.staleSince === undefined;
    this.#stale.textContent =
      s.staleSince === undefined
        ? ''
        : t('catalogStale', new Date(s.staleSince).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' }));
    this.#renderActions(this.#actions, this.#detailActions(s));
    if (s.status !== 'ready') this.#ping.textContent = '';
  }

  /** The state's one primary action first, then the secondary ones (table in docs/ui.md). */
  #detailActions(s: ServerView): HTMLButtonElement[] {
    if (!s.enabled) return [];
    const out: HTMLButtonElement[] = [];
    const action = s.reason?.action;
    if (s.status === 'connecting') out.push(this.#connectionButton('disconnect', t('cancel'), false));
    else if (s.status === 'ready') {
      out.push(this.#connectionButton('disconnect', t('disconnect'), false));
      out.push(
        this.#button(t('testConnection'), 'ping', () => {
          this.#ping.classList.remove('error');
          this.#ping.textContent = t('testing');
          this.#action('ping');
        }),
      );
      // "Re-authorize" stays on a ready OAuth server (E9).
      if (s.authKind === 'oauth') out.push(this.#button(t('reauthorize'), 'authorize', () => this.#action('authorize')));
    } else if (action === 'grant-permission') {
      out.push(this.#button(t('grantAccess'), 'grant', () => this.#action('grant'), 'primary'));
    } else if (s.status === 'needs-auth' && (action === 'authorize' || action === 'reauthorize') && s.authKind === 'oauth') {
      // Up-front authorization (E11): Connect would only meet the same refusal.
      out.push(this.#button(t(authorizeLabelKey(s)), 'authorize', () => this.#action('authorize'), 'primary'));
    } else if (s.status === 'needs-auth' && action === 'authorize' && s.authKind === 'none') {
      // It answered 401 with a Bearer challenge: one click switches it to OAuth and authorizes (E3).
      out.push(this.#button(t('switchToOAuth'), 'authorize', () => this.#action('authorize'), 'primary'));
    } else if (tokenRefused(s)) {
      // Retrying would send the same refused token: a new one is the way on (E1).
      out.push(this.#button(t('updateToken'), 'edit', () => this.#action('edit'), 'primary'));
      out.push(this.#connectionButton('connect', t('retry'), false));
      return out;
    } else {
      out.push(this.#connectionButton('connect', s.status === 'error' ? t('retry') : t('connect'), true));
      if (s.authKind === 'oauth') out.push(this.#button(t(authorizeLabelKey(s)), 'authorize', () => this.#action('authorize')));
    }
    // The fix is in the server's settings (a timeout, the URL, the kind of authorization).
    if (action === 'edit') out.push(this.#button(t('editSettings'), 'edit', () => this.#action('edit')));
    return out;
  }

  #updateSettings(s: ServerView) {
    const out: (HTMLElement | string)[] = [];
    // Nothing to forget while the server waits for its first authorization.
    if (s.authKind === 'oauth' && authorizeLabelKey(s) === 'reauthorize')
      out.push(this.#button(t('forgetAuthorization'), 'forget-auth', () => this.#action('forget-auth'), 'danger'));
    if (this.#confirmingDelete) {
      out.push(
        el('span', { role: 'alert', class: 'confirm' }, t('confirmDelete', s.name)),
        this.#button(t('delete'), 'confirm-delete', () => this.#action('delete'), 'danger'),
        this.#button(t('cancel'), 'cancel-delete', () => {
          this.#confirmingDelete = false;
          this.update();
          this.#settingsPart.querySelector<HTMLButtonElement>('[data-action="delete"]')?.focus();
        }),
      );
    } else {
      const del = this.#button(t('delete'), 'delete', () => this.#action('delete'), 'danger');
      del.setAttribute('aria-label', t('deleteServer', s.name));
      out.push(del);
    }
    this.#renderActions(this.#settingsPart, out);
  }

  /** Replaces the buttons, keeping the keyboard focus on the same action. */
  #renderActions(box: HTMLElement, buttons: (HTMLElement | string)[]) {
    const active = this.shadowRoot!.activeElement;
    const hadFocus = active && box.contains(active) ? active.getAttribute('data-action') : null;
    box.replaceChildren(...buttons);
    if (hadFocus) box.querySelector<HTMLElement>(`[data-action="${hadFocus}"]`)?.focus();
  }

  /** Listed in full (they explain what is missing from the catalog); the list is replaced only when its text changed. */
  #renderWarnings(said: readonly Said[]) {
    const warnings = said.map(tReason);
    this.#warnings.hidden = warnings.length === 0;
    this.#warningsTitle.textContent = t('catalogWarnings', String(warnings.length));
    const items = [...this.#warningsList.children].map((li) => li.textContent);
    if (items.length === warnings.length && items.every((text, i) => text === warnings[i])) return;
    this.#warningsList.replaceChildren(...warnings.map((w) => el('li', {}, w)));
  }

  // Row parts.
  readonly #badge = el('mcp-status-badge');
  readonly #name = el('span', { class: 'name' });
  readonly #open = el('button', { type: 'button', class: 'open', 'data-action': 'open' });
  readonly #switch = el('button', { type: 'button', role: 'switch', class: 'switch', 'data-action': 'toggle-enabled' });
  readonly #rowPart = el('div', { class: 'row' }, this.#open, this.#switch);

  // Detail parts.
  readonly #title = el('h2', { tabindex: '-1' });
  readonly #detailSwitch = el('button', { type: 'button', role: 'switch', class: 'switch', 'data-action': 'toggle-enabled' });
  readonly #elapsed: HTMLSpanElement = el('span', { class: 'elapsed muted', role: 'timer', hidden: true });
  readonly #count = el('span', { class: 'tool-count muted' });
  readonly #version = el('span', { class: 'protocol-version muted', 'data-part': 'protocol-version' });
  readonly #status = el('div', { class: 'status' }, this.#elapsed, this.#count, this.#version);
  readonly #url = el('div', { class: 'url muted' });
  readonly #reason = el('p', { class: 'reason' });
  readonly #stale = el('p', { class: 'stale muted' });
  readonly #actions = el('div', { class: 'actions', role: 'group', 'aria-label': t('serverActions') });
  readonly #ping = el('p', { class: 'ping', role: 'status' });
  readonly #warningsTitle = el('p');
  readonly #warningsList = el('ul');
  readonly #warnings = el('div', { class: 'warnings' }, this.#warningsTitle, this.#warningsList);
  readonly #detailPart: HTMLElement = el(
    'div',
    { class: 'detail' },
    el('header', {}, this.#title, this.#detailSwitch),
    this.#url,
    this.#status,
    this.#reason,
    this.#stale,
    this.#actions,
    this.#ping,
    this.#warnings,
  );

  // Settings parts.
  readonly #settingsPart = el('div', { class: 'actions settings', role: 'group', 'aria-label': t('serverActions') });

  /** Where a refused action says why; in every mode, under the part the click was in. */
  readonly #actionError = el('p', { class: 'action-error error', role: 'alert' });
}
