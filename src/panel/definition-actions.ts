/**
 * Wires the answers to changed definitions (SPEC S2) to the worker: Accept the new definition,
 * Keep disabled, and the server's "review new tools" switch. A refusal is shown on the element
 * the click came from; the new state arrives with the next state push.
 */
import { DefinitionDecisionEvent, ReviewNewToolsEvent, type McpDefinitionChangesElement } from '../components/mcp-definition-changes.js';
import type { Call } from './call.js';

const source = (e: Event) => e.composedPath()[0] as McpDefinitionChangesElement;

export function setUpDefinitionActions(call: Call) {
  document.addEventListener(DefinitionDecisionEvent.type, (e) => {
    const from = source(e);
    const answer =
      e.decision === 'accept'
        ? call('panel:accept-definition', { serverId: e.serverId, category: e.category, name: e.name })
        : call('panel:keep-disabled', { serverId: e.serverId, name: e.name });
    void answer.then((r) => {
      if (!r.ok) from.showError(r.message);
    });
  });
  document.addEventListener(ReviewNewToolsEvent.type, (e) => {
    const from = source(e);
    void call('panel:set-review-new-tools', { serverId: e.serverId, review: e.review }).then((r) => {
      if (!r.ok) from.showError(r.message);
    });
  });
}
