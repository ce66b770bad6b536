/**
 * One tool call waiting for the user's approval (SPEC G1, K3): who asks, which tool on which
 * server, the exact arguments, and the server's annotations — shown as the server's own claims,
 * since they never relax approval. Three answers: allow once, always allow this tool, deny.
 * A card whose call is `gone` (the worker restarted while it waited) says that nothing was run
 * and offers only Dismiss. Every server-provided string is text.
 */
import { ElementBase } from './element-base.js';
import type { ApprovalView } from '../protocol/panel-use.js';
import { el, sheet } from './dom.js';
import { ApprovalDecisionEvent, ApprovalDismissEvent } from './events.js';
import { t } from './i18n.js';

const css = sheet(`
:host { border: 2px solid var(--accent, #1a73e8); border-radius: 8px; padding: 8px; margin: 6px 0; }
:host([status="gone"]) { border-color: #8888; }
h3 { margin: 0 0 4px; font-size: 14px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; border: 1px solid #8885; border-radius: 6px; padding: 6px; margin: 4px 0; }
.actions { display: flex; gap: 6px; flex-wrap: wrap; }
`);

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Annotation flags as plain words, e.g. `readOnlyHint=true, openWorldHint=false`. */
function describeHints(annotations: ApprovalView['annotations']): string {
  if (!annotations) return '';
  return HINTS.filter((h) => typeof annotations[h] === 'boolean')
    .map((h) => `${h}=${String(annotations[h])}`)
    .join(', ');
}

export class McpApprovalCardElement extends ElementBase {
  #approval: ApprovalView | undefined;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [css];
  }

  set approval(value: ApprovalView | undefined) {
    this.#approval = value;
    this.requestUpdate();
  }
  get approval() {
    return this.#approval;
  }

  protected override update() {
    const a = this.#approval;
    const root = this.shadowRoot!;
    if (!a) {
      root.replaceChildren();
      return;
    }
    const gone = a.status === 'gone';
    if (gone) this.setAttribute('status', 'gone');
    else this.removeAttribute('status');
    // A gone card has nothing left to decide: the server's claims about the tool would only be noise.
    const hints = gone ? '' : describeHints(a.annotations);
    const button = (decision: 'once' | 'always' | 'deny', label: string) => {
      const b = el('button', { type: 'button', 'data-decision': decision }, label);
      b.addEventListener('click', () => {
        for (const other of root.querySelectorAll('button')) other.disabled = true;
        this.emit(new ApprovalDecisionEvent(a.id, decision));
      });
      return b;
    };
    const dismiss = el('button', { type: 'button', 'data-action': 'dismiss' }, t('dismiss'));
    dismiss.addEventListener('click', () => {
      dismiss.disabled = true;
      this.emit(new ApprovalDismissEvent(a.id));
    });
    const section = el(
      'section',
      gone
        ? { role: 'group', 'aria-labelledby': 'title', 'aria-describedby': 'gone' }
        : { role: 'alertdialog', 'aria-labelledby': 'title', 'aria-describedby': 'from' },
      el('h3', { id: 'title' }, t(gone ? 'approvalGoneTitle' : 'approvalTitle')),
      gone ? el('p', { id: 'gone', class: 'gone' }, t('approvalGone')) : null,
      el(
        'p',
        { id: 'from', class: 'from' },
        t('approvalFrom', a.agentName, a.toolTitle ? `${a.toolTitle} (${a.tool})` : a.tool, a.serverName),
      ),
      hints ? el('p', { class: 'hints muted' }, t('approvalHints', hints)) : null,
      el('pre', { class: 'arguments', 'aria-label': t('argumentsJson') }, a.argumentsJson),
      gone
        ? el('div', { class: 'actions' }, dismiss)
        : el('div', { class: 'actions' }, button('once', t('allowOnce')), button('always', t('allowAlways')), button('deny', t('deny'))),
    );
    root.replaceChildren(section);
  }
}
