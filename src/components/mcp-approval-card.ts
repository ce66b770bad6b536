/**
 * One tool call waiting for the user's approval (SPEC G1, K3): who asks, which tool (its title
 * and name) on which server, the arguments as name → value (the exact JSON one click away), and
 * the server's annotations in plain words, each marked as the server's unverified claim, since
 * they never relax approval. Three answers: allow once, always allow this tool, deny; "always"
 * is behind "More options" unless the server says the tool only reads data. A view's card also
 * offers "Allow this view to call … while it is open" (U1), and says when it answers several
 * identical requests of the view.
 * A card whose call is `gone` (the worker restarted while it waited) says that nothing was run
 * and offers only Dismiss. A tool whose definition changed since it was pinned says so (S2): its
 * "always" grant is suspended until the user accepts the new definition, and "Always" here does
 * that, behind "More options" whatever the tool claims. Every server-provided string is text.
 */
import { ElementBase } from './element-base.js';
import type { ApprovalView } from '../protocol/panel-use.js';
import { el, sheet } from './dom.js';
import { ApprovalDecisionEvent, ApprovalDismissEvent } from './events.js';
import { t, tReason } from './i18n.js';

const css = sheet(`
:host { border: 2px solid var(--accent); border-radius: var(--radius); padding: var(--space-2); margin: var(--space-2) 0; }
:host([status="gone"]) { border-color: var(--border); }
h3 { margin: 0 0 var(--space-1); font-size: var(--text-body); }
ul.claims { margin: var(--space-1) 0; padding-inline-start: var(--space-4, 16px); }
.claims [data-claim="destructive"], .claims [data-claim="none"] { color: var(--danger); }
dl { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: var(--space-1) var(--space-2); margin: var(--space-1) 0; }
dt { font-weight: 500; overflow-wrap: anywhere; }
dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; max-height: 8em; overflow: auto; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-1); margin: var(--space-1) 0; }
details { margin: var(--space-1) 0; }
summary { cursor: pointer; }
.changed { color: var(--danger); font-weight: 600; margin: var(--space-1) 0; }
.actions { display: flex; gap: var(--space-2); flex-wrap: wrap; margin-top: var(--space-2); }
`);

type Annotations = NonNullable<ApprovalView['annotations']>;
type Claim = { kind: 'read-only' | 'destructive' | 'additive' | 'idempotent' | 'open-world' | 'closed-world' | 'none'; text: string };

/**
 * What the server claims about the tool, in plain words, each marked as unverified. A tool that
 * claims nothing is described as one that may change or delete data, which is what the MCP
 * defaults (`readOnlyHint: false`, `destructiveHint: true`) mean.
 */
function claimsOf(annotations: ApprovalView['annotations']): Claim[] {
  const a: Annotations = annotations ?? {};
  const claims: Claim[] = [];
  if (a.readOnlyHint === true && a.destructiveHint !== true) claims.push({ kind: 'read-only', text: t('claimReadOnly') });
  else if (a.destructiveHint === true) claims.push({ kind: 'destructive', text: t('claimDestructive') });
  else if (a.destructiveHint === false) claims.push({ kind: 'additive', text: t('claimAdditive') });
  if (a.readOnlyHint !== true && a.idempotentHint === true) claims.push({ kind: 'idempotent', text: t('claimIdempotent') });
  if (a.openWorldHint === true) claims.push({ kind: 'open-world', text: t('claimOpenWorld') });
  if (a.openWorldHint === false) claims.push({ kind: 'closed-world', text: t('claimClosedWorld') });
  if (claims.length === 0 || (a.readOnlyHint !== true && typeof a.destructiveHint !== 'boolean'))
    claims.push({ kind: 'none', text: t('claimNothing') });
  return claims;
}

/**
 * "Always allow" is offered next to the other answers only for a tool the server says only reads
 * data. Any other tool may delete or overwrite data, so the standing grant sits behind "More
 * options" with a warning: one extra click for the choice that stops future questions.
 */
function offersAlwaysDirectly(annotations: ApprovalView['annotations']): boolean {
  return annotations?.readOnlyHint === true && annotations.destructiveHint !== true;
}

/** The arguments as name → value rows when they are a complete JSON object; otherwise undefined. */
function argumentRows(json: string): [string, string][] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined; // cut for display: shown as the raw text
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v, null, 2)]);
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
    const tool = a.toolTitle ? `${a.toolTitle} (${a.tool})` : a.tool;
    // A gone card has nothing left to decide: the server's claims about the tool would only be noise.
    const claims = gone ? [] : claimsOf(a.annotations);
    const section = el(
      'section',
      gone
        ? { role: 'group', 'aria-labelledby': 'title', 'aria-describedby': 'gone' }
        : { role: 'alertdialog', 'aria-labelledby': 'title', 'aria-describedby': 'from claims' },
      el('h3', { id: 'title' }, t(gone ? 'approvalGoneTitle' : 'approvalTitle')),
      gone ? el('p', { id: 'gone', class: 'gone' }, t('approvalGone')) : null,
      el(
        'p',
        { id: 'from', class: 'from' },
        t('approvalFrom', tReason({ message: a.agentName, wording: a.agentWording }), tool, a.serverName),
      ),
      !gone && a.definitionChanged ? el('p', { class: 'changed', 'data-definition-changed': '' }, t('approvalDefinitionChanged')) : null,
      claims.length ? el('ul', { id: 'claims', class: 'claims' }, ...claims.map((c) => el('li', { 'data-claim': c.kind }, c.text))) : null,
      argumentsView(a.argumentsJson),
      !gone && a.repeats ? el('p', { class: 'repeats' }, t('approvalRepeats', String(a.repeats))) : null,
      gone ? el('div', { class: 'actions' }, this.#dismiss(a)) : this.#decisions(a),
    );
    root.replaceChildren(section);
  }

  #dismiss(a: ApprovalView): HTMLButtonElement {
    const dismiss = el('button', { type: 'button', 'data-action': 'dismiss' }, t('dismiss'));
    dismiss.addEventListener('click', () => {
      dismiss.disabled = true;
      this.emit(new ApprovalDismissEvent(a.id));
    });
    return dismiss;
  }

  /**
   * Allow once / (for a view: while the view is open) / Always / Deny; "Always" folds under a
   * warning unless the tool claims to be harmless. The per-view grant sits next to Allow once:
   * it ends with the view, so it is no standing grant.
   */
  #decisions(a: ApprovalView): HTMLElement {
    const button = (decision: 'once' | 'always' | 'deny' | 'view', label: string, role?: string) => {
      const b = el('button', { type: 'button', 'data-decision': decision, ...(role ? { 'data-role': role } : {}) }, label);
      b.addEventListener('click', () => {
        for (const other of this.shadowRoot!.querySelectorAll('button')) other.disabled = true;
        this.emit(new ApprovalDecisionEvent(a.id, decision));
      });
      return b;
    };
    const forView = a.viewGrant ? button('view', t('allowViewSession', a.toolTitle ?? a.tool)) : null;
    if (!a.definitionChanged && offersAlwaysDirectly(a.annotations))
      return el(
        'div',
        { class: 'actions' },
        button('once', t('allowOnce'), 'primary'),
        forView,
        button('always', t('allowAlways')),
        button('deny', t('deny'), 'danger'),
      );
    return el(
      'div',
      {},
      el('div', { class: 'actions' }, button('once', t('allowOnce'), 'primary'), forView, button('deny', t('deny'), 'danger')),
      el(
        'details',
        { class: 'more' },
        el('summary', {}, t('approvalMoreOptions')),
        el('p', { class: 'always-warning' }, t('approvalAlwaysWarning')),
        el('div', { class: 'actions' }, button('always', t('allowAlways'))),
      ),
    );
  }
}

/** The arguments as name/value rows with the raw JSON folded beneath, or the raw JSON when they are not an object. */
function argumentsView(json: string): HTMLElement {
  const rows = argumentRows(json);
  const raw = el('pre', { class: 'arguments', tabindex: '0', 'aria-label': t('approvalArgumentsJson') }, json);
  if (!rows) return raw;
  return el(
    'div',
    { class: 'args' },
    rows.length
      ? el('dl', { 'aria-label': t('approvalArguments') }, ...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]))
      : el('p', { class: 'muted' }, t('approvalNoArguments')),
    el('details', { class: 'json' }, el('summary', {}, t('approvalArgumentsJson')), raw),
  );
}
