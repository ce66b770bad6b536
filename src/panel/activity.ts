/**
 * Wires the Activity elements to the worker: each `mcp-activity-log` asks for its server's log
 * (or every server's) when it is shown, each `mcp-approval-grants` for the "always allow" grants
 * (SPEC J2, G1, K3); Revoke and Revoke all go to the worker. When the worker says the log or the
 * grants changed, the elements are told and those on screen ask again.
 */
import {
  ActivityChangedEvent,
  DiagnosticsRequestEvent,
  GrantsRequestEvent,
  LogRequestEvent,
  RevokeGrantEvent,
} from '../components/events.js';
import type { McpDiagnosticsElement } from '../components/mcp-diagnostics.js';
import { t } from '../components/i18n.js';
import type { McpActivityLogElement } from '../components/mcp-activity-log.js';
import type { McpApprovalGrantsElement } from '../components/mcp-approval-grants.js';
import type { ActivityPanelPush } from '../protocol/panel-activity.js';
import type { Call } from './call.js';

export interface ActivityDeps {
  call: Call;
}

/** Returns the handler of `panel:activity-changed` pushes (push-router.ts). */
export function setUpActivity({ call }: ActivityDeps): (push: Pick<ActivityPanelPush, 'what'>) => void {
  document.addEventListener(LogRequestEvent.type, (e) => {
    const log = e.composedPath()[0] as McpActivityLogElement;
    void call('panel:get-log', e.serverId ? { serverId: e.serverId } : {}).then((r) => {
      if (r.ok) log.entries = r.value.entries;
    });
  });

  const listGrants = (list: McpApprovalGrantsElement) =>
    void call('panel:list-grants', {}).then((r) => {
      if (r.ok) list.grants = r.value.grants;
    });
  document.addEventListener(GrantsRequestEvent.type, (e) => listGrants(e.composedPath()[0] as McpApprovalGrantsElement));

  document.addEventListener(RevokeGrantEvent.type, (e) => {
    const list = e.composedPath()[0] as McpApprovalGrantsElement;
    const revoked = e.grant
      ? call('panel:revoke-grant', e.grant).then((r) => (r.ok ? { ok: true as const, changed: r.value.revoked } : r))
      : call('panel:revoke-all-grants', {}).then((r) => (r.ok ? { ok: true as const, changed: r.value.revoked > 0 } : r));
    void revoked.then((r) => {
      if (!r.ok) list.showError(t('grantsRevokeFailed', r.message));
      // A change comes back as the worker's push to every grants element; nothing changed: show the list as it is.
      else if (!r.changed) listGrants(list);
    });
  });

  document.addEventListener(DiagnosticsRequestEvent.type, (e) => {
    const view = e.composedPath()[0] as McpDiagnosticsElement;
    void call('panel:diagnostics', {}).then((r) =>
      r.ok ? view.showReport(r.value.text) : view.showError(t('diagnosticsFailed', r.message)),
    );
  });

  return ({ what }) => document.dispatchEvent(new ActivityChangedEvent(what));
}
