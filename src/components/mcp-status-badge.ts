/** A server's connection state as a coloured, labelled badge (SPEC J1, K1). */
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
:host { display: inline-block; }
span { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: #8883; }
span[data-status="ready"] { background: #1e8e3e33; color: #137333; }
span[data-status="connecting"] { background: #1a73e833; }
span[data-status="needs-auth"] { background: #f9ab0040; }
span[data-status="error"] { background: #d9302540; color: #a50e0e; }
@media (prefers-color-scheme: dark) { span[data-status="ready"] { color: #81c995; } span[data-status="error"] { color: #f28b82; } }
`);

export class McpStatusBadgeElement extends ElementBase {
  static get observedAttributes() {
    return ['status'];
  }
  readonly #span = document.createElement('span');

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [css];
    this.#span.setAttribute('role', 'status');
    root.append(this.#span);
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
    this.#span.dataset.status = this.status;
    this.#span.textContent = t(LABEL[this.status]);
  }
}
