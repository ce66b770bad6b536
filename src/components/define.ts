/** The one place that registers tags (never derive a tag from a class name: the minifier renames classes). */
import { McpAddServerElement } from './mcp-add-server.js';
import { McpServerCardElement } from './mcp-server-card.js';
import { McpServerListElement } from './mcp-server-list.js';
import { McpStatusBadgeElement } from './mcp-status-badge.js';
import { McpToolRunnerElement } from './mcp-tool-runner.js';
import { McpApprovalCardElement } from './mcp-approval-card.js';
import { McpToolListElement } from './mcp-tool-list.js';
import { McpActivityLogElement } from './mcp-activity-log.js';
import { McpApprovalGrantsElement } from './mcp-approval-grants.js';
import { McpDiagnosticsElement } from './mcp-diagnostics.js';
import { McpImportElement } from './mcp-import.js';
import { McpSchemaFormElement } from './mcp-schema-form.js';
import { McpElicitationCardElement } from './mcp-elicitation-card.js';
import { McpComposerElement } from './mcp-composer.js';
import { McpChatViewElement } from './mcp-chat-view.js';
import { McpChatHeaderElement } from './mcp-chat-header.js';
import { McpChatSettingsElement } from './mcp-chat-settings.js';
import { McpChatToolsElement } from './mcp-chat-tools.js';
import { McpChatLogElement } from './mcp-chat-log.js';
import { McpChatApprovalsElement } from './mcp-chat-approvals.js';
import { McpResultViewElement } from './mcp-result-view.js';
import { McpAppViewElement } from './mcp-app-view.js';
import { McpServerSettingsElement } from './mcp-server-settings.js';
import { McpServerDetailElement } from './mcp-server-detail.js';
import { McpDefinitionChangesElement } from './mcp-definition-changes.js';
import { McpTaskListElement } from './mcp-task-list.js';
import { McpToolsViewElement } from './mcp-tools-view.js';
import { McpToolViewElement } from './mcp-tool-view.js';
import { McpAppHeaderElement } from './mcp-app-header.js';
import { McpDirectoryElement } from './mcp-directory.js';

export function defineAll(registry = customElements) {
  // Before the elements that create it, so it is upgraded before they set its properties.
  McpSchemaFormElement.define('mcp-schema-form', registry);
  McpResultViewElement.define('mcp-result-view', registry);
  McpAppViewElement.define('mcp-app-view', registry);
  McpStatusBadgeElement.define('mcp-status-badge', registry);
  McpTaskListElement.define('mcp-task-list', registry);
  McpToolListElement.define('mcp-tool-list', registry);
  McpActivityLogElement.define('mcp-activity-log', registry);
  McpApprovalGrantsElement.define('mcp-approval-grants', registry);
  McpDiagnosticsElement.define('mcp-diagnostics', registry);
  McpImportElement.define('mcp-import', registry);
  McpServerCardElement.define('mcp-server-card', registry);
  McpServerListElement.define('mcp-server-list', registry);
  McpAddServerElement.define('mcp-add-server', registry);
  McpToolRunnerElement.define('mcp-tool-runner', registry);
  McpApprovalCardElement.define('mcp-approval-card', registry);
  McpElicitationCardElement.define('mcp-elicitation-card', registry);
  McpComposerElement.define('mcp-composer', registry);
  McpChatHeaderElement.define('mcp-chat-header', registry);
  McpChatSettingsElement.define('mcp-chat-settings', registry);
  McpChatToolsElement.define('mcp-chat-tools', registry);
  McpChatLogElement.define('mcp-chat-log', registry);
  McpChatApprovalsElement.define('mcp-chat-approvals', registry);
  McpChatViewElement.define('mcp-chat-view', registry);
  McpServerSettingsElement.define('mcp-server-settings', registry);
  McpDefinitionChangesElement.define('mcp-definition-changes', registry);
  McpServerDetailElement.define('mcp-server-detail', registry);
  McpToolsViewElement.define('mcp-tools-view', registry);
  McpToolViewElement.define('mcp-tool-view', registry);
  McpAppHeaderElement.define('mcp-app-header', registry);
  McpDirectoryElement.define('mcp-directory', registry);
}

declare global {
  interface HTMLElementTagNameMap {
    'mcp-status-badge': McpStatusBadgeElement;
    'mcp-server-card': McpServerCardElement;
    'mcp-server-list': McpServerListElement;
    'mcp-add-server': McpAddServerElement;
    'mcp-tool-runner': McpToolRunnerElement;
    'mcp-approval-card': McpApprovalCardElement;
    'mcp-tool-list': McpToolListElement;
    'mcp-activity-log': McpActivityLogElement;
    'mcp-approval-grants': McpApprovalGrantsElement;
    'mcp-diagnostics': McpDiagnosticsElement;
    'mcp-import': McpImportElement;
    'mcp-directory': McpDirectoryElement;
    'mcp-schema-form': McpSchemaFormElement;
    'mcp-elicitation-card': McpElicitationCardElement;
    'mcp-composer': McpComposerElement;
    'mcp-chat-view': McpChatViewElement;
    'mcp-chat-header': McpChatHeaderElement;
    'mcp-chat-settings': McpChatSettingsElement;
    'mcp-chat-tools': McpChatToolsElement;
    'mcp-chat-log': McpChatLogElement;
    'mcp-chat-approvals': McpChatApprovalsElement;
    'mcp-result-view': McpResultViewElement;
    'mcp-app-view': McpAppViewElement;
    'mcp-server-settings': McpServerSettingsElement;
    'mcp-server-detail': McpServerDetailElement;
    'mcp-definition-changes': McpDefinitionChangesElement;
    'mcp-task-list': McpTaskListElement;
    'mcp-tools-view': McpToolsViewElement;
    'mcp-tool-view': McpToolViewElement;
    'mcp-app-header': McpAppHeaderElement;
  }
}
