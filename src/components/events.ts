/**
 * Every signal a panel element sends out. Typed, bubbling and composed, so `main.ts` can listen
 * once at the top; `cancelable` where a parent may veto.
 */
export type ServerAction = 'connect' | 'disconnect' | 'delete' | 'enable' | 'disable' | 'ping' | 'grant';

export class AddServerEvent extends Event {
  static readonly type = 'mcp-add-server';
  constructor(readonly detail: { name: string; url: string; authKind: 'none' | 'bearer'; token?: string }) {
    super(AddServerEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}

export class ServerActionEvent extends Event {
  static readonly type = 'mcp-server-action';
  constructor(readonly serverId: string, readonly action: ServerAction) {
    super(ServerActionEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}

export class ToolToggleEvent extends Event {
  static readonly type = 'mcp-tool-toggle';
  constructor(readonly serverId: string, readonly tool: string, readonly enabled: boolean) {
    super(ToolToggleEvent.type, { bubbles: true, composed: true });
  }
}

export class RunToolEvent extends Event {
  static readonly type = 'mcp-run-tool';
  constructor(readonly serverId: string, readonly tool: string, readonly args: Record<string, unknown>) {
    super(RunToolEvent.type, { bubbles: true, composed: true });
  }
}

interface PanelEventMap {
  'mcp-add-server': AddServerEvent;
  'mcp-server-action': ServerActionEvent;
  'mcp-tool-toggle': ToolToggleEvent;
  'mcp-run-tool': RunToolEvent;
}

declare global {
  interface HTMLElementEventMap extends PanelEventMap {}
  interface DocumentEventMap extends PanelEventMap {}
}
