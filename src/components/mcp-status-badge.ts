/**
 * A server's connection state as a coloured dot and a short word (SPEC J1, K1; palette in
 * docs/ui.md). With the `disabled` attribute it says "Disabled" whatever the connection state,
 * so a server the user switched off does not look like one that merely is not connected.
 *
 * Not a live region: every reconnect would be read out for every server in the list.
 */
import { ElementBase } from './element-base.js';
import { t } from './i18n.js';
import { sheet } from './dom.js';
import type { MessageKey } from '../i18n/en.js';

const STATUSES = ['disconnected', 'connecting', 'ready', 'needs-auth', 'error'] as const;
export type BadgeStatus = (typeof STATUSES)[number];

const LABEL: Record<BadgeStatus, MessageKey> = {
  disconnected: 'statusDisconnected',
  connecting: 'statusConnecting',
  ready: 'statusReady',
  'needs-auth': 'statusNeedsAuth',
  error: 'statusError',
};

const css = sheet(`
:host { display: inline-flex; min-width: 0; }
.badge { display: inline-flex; align-items: center; gap: 6px; min-width: 0; font-size: var(--text-small); color: var(--fg-muted); white-space: nowrap; }
.dot { flex: none; width: 8px; height: 8px; border-radius: 50%; box-sizing: border-box; border: 2px solid var(--fg-muted); }
.word { overflow: hidden; text-overflow: ellipsis; }
[data-status="ready"] .dot { background: var(--ok); border-color: var(--ok); }
[data-status="ready"] .word { color: var(--ok); }
[data-status="connecting"] .dot { border-color: var(--accent); border-right-color: transparent; }
[data-status="needs-auth"] .dot { background: var(--warn); border-color: var(--warn); }
[data-status="needs-auth"] .word { color: var(--warn); }
[data-status="error"] .dot { background: var(--danger); border-color: var(--danger); }
[data-status="error"] .word { color: var(--danger); }
.badge.off .dot { background: transparent; border-color: var(--border); }
.badge.off .word { color: var(--fg-muted); }
@media (prefers-reduced-motion: no-preference) {
  [data-status="connecting"]:not(.off) .dot { animation: spin 1s linear infinite; }
}
@keyframes spin { to { transform: rotate(360deg); } }
`);

export class McpStatusBadgeElement extends ElementBase {
  static get observedAttributes() {
    return ['status', 'disabled'];
  }
  readonly #word = document.createElement('span');
  readonly #badge = document.createElement('span');

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    const dot = document.createElement('span');
    dot.className = 'dot';
    this.#word.className = 'word';
    this.#badge.append(dot, this.#word);
    root.append(this.#badge);
  }

  /** Unknown values fall back to `disconnected`. */
  get status(): BadgeStatus {
    const v = this.getAttribute('status');
    return (STATUSES as readonly string[]).includes(v ?? '') ? (v as BadgeStatus) : 'disconnected';
  }
  set status(value: BadgeStatus) {
    this.setAttribute('status', value);
  }

  connectedCallback() {
    this.update();
  }
  attributeChangedCallback() {
    this.update();
  }

  protected override update() {
    const off = this.hasAttribute('disabled');
    this.#badge.className = off ? 'badge off' : 'badge';
    this.#badge.dataset.status = this.status;
    this.#word.textContent = off ? t('statusDisabled') : t(LABEL[this.status]);
  }
}
