/**
 * Every signal a panel element sends out. Typed, bubbling and composed, so `main.ts` can listen
 * once at the top; `cancelable` where a parent may veto.
 */
import type { PanelParams } from '../protocol/panel.js';
import type { AppViewResource } from '../protocol/panel-apps.js';
import type { CallToolResult } from '../protocol/mcp-shapes.js';
import type { DirectoryEntry } from '../protocol/panel-directory.js';

export type ServerAction =
  'connect' | 'disconnect' | 'delete' | 'enable' | 'disable' | 'ping' | 'grant' | 'authorize' | 'forget-auth' | 'edit';

export class AddServerEvent extends Event {
  static readonly type = 'mcp-add-server';
  constructor(
    readonly detail: {
      name: string;
      url: string;
      authKind: 'none' | 'bearer' | 'oauth';
      token?: string;
      clientId?: string;
      clientSecret?: string;
      scopes?: string[];
      /** A Client ID Metadata Document URL the user opts in with (SPEC E8). */
      clientMetadataUrl?: string;
      headers?: { name: string; value: string }[];
      connectTimeoutMs?: number;
    },
  ) {
    super(AddServerEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}

/** The guided add's Continue: the receiver asks Chrome for the origin inside this click, then probes it. */
export class ProbeServerEvent extends Event {
  static readonly type = 'mcp-probe-server';
  constructor(readonly url: string) {
    super(ProbeServerEvent.type, { bubbles: true, composed: true });
  }
}

/** The directory's Search or Load more: the receiver asks Chrome for the registry's origin inside this click, then searches. */
export class DirectorySearchEvent extends Event {
  static readonly type = 'mcp-directory-search';
  constructor(readonly detail: { search: string; cursor?: string }) {
    super(DirectorySearchEvent.type, { bubbles: true, composed: true });
  }
}

/** The directory's registry setting saved (empty: the official registry again). */
export class DirectorySetRegistryEvent extends Event {
  static readonly type = 'mcp-directory-set-registry';
  constructor(readonly registryUrl: string) {
    super(DirectorySetRegistryEvent.type, { bubbles: true, composed: true });
  }
}

/** An entry's endpoint chosen: the guided add opens with it filled in (SPEC S1). */
export class DirectoryChooseEvent extends Event {
  static readonly type = 'mcp-directory-choose';
  constructor(readonly detail: { entry: DirectoryEntry; remote: DirectoryEntry['remotes'][number] }) {
    super(DirectoryChooseEvent.type, { bubbles: true, composed: true });
  }
}

/** A settings form needs its server's stored settings; the receiver answers with `form.settings = …`. */
export class ServerSettingsRequestEvent extends Event {
  static readonly type = 'mcp-server-settings-request';
  constructor(readonly serverId: string) {
    super(ServerSettingsRequestEvent.type, { bubbles: true, composed: true });
  }
}

/**
 * Save of a settings form. `newOrigin`: the URL moved to another origin, whose host permission
 * the receiver asks for inside this click (SPEC L1).
 */
export class UpdateServerEvent extends Event {
  static readonly type = 'mcp-update-server';
  constructor(
    readonly detail: PanelParams<'panel:update-server'>,
    readonly newOrigin: boolean,
  ) {
    super(UpdateServerEvent.type, { bubbles: true, composed: true });
  }
}

export class ServerActionEvent extends Event {
  static readonly type = 'mcp-server-action';
  constructor(
    readonly serverId: string,
    readonly action: ServerAction,
  ) {
    super(ServerActionEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}

export class ToolToggleEvent extends Event {
  static readonly type = 'mcp-tool-toggle';
  constructor(
    readonly serverId: string,
    readonly tool: string,
    readonly enabled: boolean,
  ) {
    super(ToolToggleEvent.type, { bubbles: true, composed: true });
  }
}

export class RunToolEvent extends Event {
  static readonly type = 'mcp-run-tool';
  constructor(
    readonly serverId: string,
    readonly tool: string,
    readonly args: Record<string, unknown>,
    readonly operationId?: string,
  ) {
    super(RunToolEvent.type, { bubbles: true, composed: true });
  }
}

/** Several tools at once (bulk enable/disable): the whole new `disabledTools` list. */
export class BulkToolToggleEvent extends Event {
  static readonly type = 'mcp-bulk-tool-toggle';
  constructor(
    readonly serverId: string,
    readonly disabledTools: string[],
  ) {
    super(BulkToolToggleEvent.type, { bubbles: true, composed: true });
  }
}

/**
 * An activity log came into view or was refreshed; the receiver answers with `log.entries = …`.
 * An empty `serverId` asks for every server's log.
 */
export class LogRequestEvent extends Event {
  static readonly type = 'mcp-log-request';
  constructor(readonly serverId: string) {
    super(LogRequestEvent.type, { bubbles: true, composed: true });
  }
}

/** The grants list came into view or was refreshed; the receiver answers with `list.grants = …`. */
/** Asks the worker for the diagnostics report (V3); the panel sets it on the element. */
export class DiagnosticsRequestEvent extends Event {
  static readonly type = 'mcp-diagnostics-request';
  constructor() {
    super(DiagnosticsRequestEvent.type, { bubbles: true, composed: true });
  }
}

export class GrantsRequestEvent extends Event {
  static readonly type = 'mcp-grants-request';
  constructor() {
    super(GrantsRequestEvent.type, { bubbles: true, composed: true });
  }
}

/** Revoke one "always allow" grant, or every grant when `grant` is absent (SPEC G1, K3). */
export class RevokeGrantEvent extends Event {
  static readonly type = 'mcp-revoke-grant';
  constructor(readonly grant?: { serverId: string; tool: string }) {
    super(RevokeGrantEvent.type, { bubbles: true, composed: true });
  }
}

/**
 * Dispatched on `document` by the panel's wiring when the worker says the log or the grants
 * changed; the Activity elements listen for it and ask again when they are on screen.
 */
export class ActivityChangedEvent extends Event {
  static readonly type = 'mcp-activity-changed';
  constructor(readonly what: 'log' | 'grants') {
    super(ActivityChangedEvent.type);
  }
}

/** The import element asks for a preview of pasted text, or to apply the reviewed entries. */
export class ImportPreviewEvent extends Event {
  static readonly type = 'mcp-import-preview';
  constructor(readonly text: string) {
    super(ImportPreviewEvent.type, { bubbles: true, composed: true });
  }
}

export class ImportApplyEvent extends Event {
  static readonly type = 'mcp-import-apply';
  constructor(readonly detail: { text: string; values: Record<string, string>; overwrite: string[] }) {
    super(ImportApplyEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}

export class ExportConfigEvent extends Event {
  static readonly type = 'mcp-export-config';
  constructor() {
    super(ExportConfigEvent.type, { bubbles: true, composed: true });
  }
}

/** The Abort button of a running call: cancel it end to end by its operationId (SPEC H2). */
export class CancelToolEvent extends Event {
  static readonly type = 'mcp-cancel-tool';
  constructor(
    readonly serverId: string,
    readonly operationId: string,
  ) {
    super(CancelToolEvent.type, { bubbles: true, composed: true });
  }
}

/** "Clear finished tasks" of one server's task list (SPEC R6). */
export class ClearTasksEvent extends Event {
  static readonly type = 'mcp-clear-tasks';
  constructor(readonly serverId: string) {
    super(ClearTasksEvent.type, { bubbles: true, composed: true });
  }
}

/** The user's answer on a tool-call approval card (SPEC G1, K3). */
export class ApprovalDecisionEvent extends Event {
  static readonly type = 'mcp-approval-decision';
  constructor(
    readonly approvalId: string,
    readonly decision: 'once' | 'always' | 'deny' | 'view',
  ) {
    super(ApprovalDecisionEvent.type, { bubbles: true, composed: true });
  }
}

/** The user read an approval card whose call is gone, and closes it. */
export class ApprovalDismissEvent extends Event {
  static readonly type = 'mcp-approval-dismiss';
  constructor(readonly approvalId: string) {
    super(ApprovalDismissEvent.type, { bubbles: true, composed: true });
  }
}

/** The user's answer on an elicitation card (SPEC I1); `content` only with `accept`. */
export class ElicitationAnswerEvent extends Event {
  static readonly type = 'mcp-elicitation-answer';
  constructor(
    readonly interactionId: string,
    readonly action: 'accept' | 'decline' | 'cancel',
    readonly content?: Record<string, unknown>,
  ) {
    super(ElicitationAnswerEvent.type, { bubbles: true, composed: true });
  }
}

/** Re-run (after "retry is safe" was confirmed) or dismiss a failed interaction (SPEC I3). */
export class InteractionActionEvent extends Event {
  static readonly type = 'mcp-interaction-action';
  constructor(
    readonly interactionId: string,
    readonly action: 'rerun' | 'dismiss',
  ) {
    super(InteractionActionEvent.type, { bubbles: true, composed: true });
  }
}

/** The composer asks for a ContextBlock: a prompt with its arguments, or a resource (SPEC K4). */
export class ComposerRequestEvent extends Event {
  static readonly type = 'mcp-composer-request';
  constructor(
    readonly detail:
      | { kind: 'prompt'; serverId: string; prompt: string; arguments: Record<string, string> }
      | { kind: 'resource'; serverId: string; uri: string },
  ) {
    super(ComposerRequestEvent.type, { bubbles: true, composed: true });
  }
}

/**
 * A form field asks the server for suggestions (`completion/complete`, SPEC R8); the receiver
 * answers through `respond` — with nothing when the server has none or the request failed.
 */
export class CompletionRequestEvent extends Event {
  static readonly type = 'mcp-completion-request';
  constructor(
    readonly detail: PanelParams<'panel:complete'>,
    readonly respond: (values: string[]) => void,
  ) {
    super(CompletionRequestEvent.type, { bubbles: true, composed: true });
  }
}

/** A result's resource link is to be read; the receiver answers with the viewer's `showResource`. */
export class ReadResourceEvent extends Event {
  static readonly type = 'mcp-read-resource';
  constructor(
    readonly serverId: string,
    readonly uri: string,
  ) {
    super(ReadResourceEvent.type, { bubbles: true, composed: true });
  }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** What an MCP App view needs from the panel: its HTML, and the requests it may make of its own server. */
export interface AppViewHost {
  loadView(serverId: string, tool: string): Promise<Outcome<AppViewResource>>;
  callTool(
    serverId: string,
    viewTool: string,
    tool: string,
    args: Record<string, unknown>,
    operationId: string,
    /** The mounted view's session: keys the per-view grant (U1). */
    viewSession?: string,
  ): Promise<Outcome<CallToolResult>>;
  cancel(serverId: string, operationId: string): void;
  /** The mounted view of that session closed: its per-view grants end (U1). */
  viewClosed?(viewSession: string): void;
  readResource(serverId: string, uri: string): Promise<Outcome<Record<string, unknown>>>;
  /** Inserts a view's suggestion, on the user's click, into the chat's draft; absent where there is no chat. */
  message?(text: string): Promise<boolean>;
}

/**
 * An MCP App view asks for its host when it is shown: the panel's wiring sets `host` (a listener
 * nearer the view could set its own first; the panel's only fills an empty one).
 */
export class AppHostRequestEvent extends Event {
  static readonly type = 'mcp-app-host';
  host: AppViewHost | undefined;
  constructor() {
    super(AppHostRequestEvent.type, { bubbles: true, composed: true });
  }
}

/** Where a navigation goes: a top-level view, a server's detail, a tool's view, or back. */
export type ViewTarget =
  | { view: 'servers' | 'tools' | 'chat' | 'activity' | 'add' | 'import' | 'directory' | 'back' }
  | { view: 'detail'; serverId: string }
  | { view: 'tool'; serverId: string; tool: string };

/** A tab, a row, a tool name or Back asks the panel's view router to show another view. */
export class NavigateEvent extends Event {
  static readonly type = 'mcp-navigate';
  constructor(readonly to: ViewTarget) {
    super(NavigateEvent.type, { bubbles: true, composed: true });
  }
}

/** Any event a panel element emits (ElementBase.emit). */
export type PanelEvent = PanelEventMap[keyof PanelEventMap];

interface PanelEventMap {
  'mcp-elicitation-answer': ElicitationAnswerEvent;
  'mcp-interaction-action': InteractionActionEvent;
  'mcp-composer-request': ComposerRequestEvent;
  'mcp-completion-request': CompletionRequestEvent;
  'mcp-read-resource': ReadResourceEvent;
  'mcp-app-host': AppHostRequestEvent;
  'mcp-cancel-tool': CancelToolEvent;
  'mcp-clear-tasks': ClearTasksEvent;
  'mcp-approval-decision': ApprovalDecisionEvent;
  'mcp-approval-dismiss': ApprovalDismissEvent;
  'mcp-add-server': AddServerEvent;
  'mcp-probe-server': ProbeServerEvent;
  'mcp-directory-search': DirectorySearchEvent;
  'mcp-directory-set-registry': DirectorySetRegistryEvent;
  'mcp-directory-choose': DirectoryChooseEvent;
  'mcp-server-settings-request': ServerSettingsRequestEvent;
  'mcp-update-server': UpdateServerEvent;
  'mcp-server-action': ServerActionEvent;
  'mcp-tool-toggle': ToolToggleEvent;
  'mcp-run-tool': RunToolEvent;
  'mcp-bulk-tool-toggle': BulkToolToggleEvent;
  'mcp-log-request': LogRequestEvent;
  'mcp-grants-request': GrantsRequestEvent;
  'mcp-diagnostics-request': DiagnosticsRequestEvent;
  'mcp-revoke-grant': RevokeGrantEvent;
  'mcp-activity-changed': ActivityChangedEvent;
  'mcp-import-preview': ImportPreviewEvent;
  'mcp-import-apply': ImportApplyEvent;
  'mcp-export-config': ExportConfigEvent;
  'mcp-navigate': NavigateEvent;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds PanelEventMap's events to the DOM's map
  interface HTMLElementEventMap extends PanelEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging, as above
  interface DocumentEventMap extends PanelEventMap {}
}
