/**
 * The `AgentTool` registry (SPEC G1, G4, H2, H3, H4): every enabled tool of every ready server,
 * under the collision-free name `mcp__{serverId}__{tool}` from {@link buildToolNameMap}, for an
 * agent engine running in the extension.
 *
 * Contract for the engine (sw/main.ts exposes it as `globalThis.remoteMcp.agentTools`):
 * - `list()` — the tools callable right now: those of ready servers, and those known from an
 *   earlier session of servers that are reconnecting or lazy and not connected (`stale: true`;
 *   a call waits for the connection, SPEC C2).
 *   Listing is a first use: enabled lazy servers that are not connected start connecting, and
 *   their tools arrive through `onChange`. `jsonSchema` is the server's raw `inputSchema`,
 *   untouched; every tool is `effects: 'write'` and `autoRetry: false` whatever its annotations
 *   say (annotations are passed along for display only).
 * - `call(name, args, { operationId?, signal? })` — asks the user through the approval policy,
 *   then runs the tool once. Aborting `signal` cancels it end to end with one operationId
 *   (`notifications/cancelled` reaches the server). A failure is never retried here: the engine
 *   must not retry either without the user's decision that it is safe (H3). The result is cut to
 *   the documented budget by {@link truncateToolResult}, with markers where something was cut,
 *   then every piece of server text in it is fenced as untrusted data with provenance by
 *   {@link fenceToolResult} (N9); `structuredContent` stays structured.
 * - `onChange(listener)` — called when the set of tools or any tool's schema changes.
 *
 * Disabled tools are neither listed nor callable, and a name is resolved against the current
 * catalog at call time, so a tool disabled after `list()` cannot be called through a stale name.
 */
import type { CallToolResult, Tool } from '../../protocol/mcp-shapes.js';
import type { ServerView } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import type { Wording } from '../../protocol/wording.js';
import type { ApprovalRequest } from './approval-broker.js';
import { buildToolNameMap } from './tool-names.js';
import { truncateToolResult, type TruncationReport } from './truncate.js';
import { fenceToolResult, toolResultForModel } from './context-blocks.js';
import { toolUi } from '../../protocol/mcp-apps.js';

export interface AgentTool {
  name: string;
  serverId: string;
  serverName: string;
  toolName: string;
  title?: string;
  description: string;
  /** The server's `inputSchema`, passed through unchanged; the server validates (G1). */
  jsonSchema: Record<string, unknown>;
  /** Server claims, shown to the user; they never lower approval or allow retries. */
  annotations?: Tool['annotations'];
  effects: 'write';
  autoRetry: false;
  /** Known from an earlier session of a lazy server that is not connected now; a call connects first. */
  stale?: true;
}

export interface AgentToolCallOptions {
  operationId?: string;
  signal?: AbortSignal;
  /** Who asks, shown on the approval card. */
  agentName?: string;
  /** `agentName` in the user's language (the extension's own callers). */
  agentWording?: Wording;
  /** The caller's run (a chat passes its id): the panel shows the approval card with that run only. */
  runId?: string;
  /** Told when the call's approval card opens (true) and settles (false); not called when a grant answers at once. */
  onApprovalCard?: (open: boolean) => void;
}

export interface AgentToolResult {
  /** Text parts (and embedded resource text) fenced as untrusted data; see {@link fenceToolResult}. */
  result: CallToolResult;
  untrusted: true;
  provenance: { serverId: string; serverName: string; tool: string };
  truncated: TruncationReport | null;
  operationId: string;
  /** For a tool with an MCP App view: the result cut to the budget and not fenced (the view is the server's own code). */
  forView?: CallToolResult;
  /** The cut result as a model reads it: every server-written field inside one fence (toolResultForModel, T4). */
  forModel: string;
}

export interface RegistryDeps {
  views(): ServerView[];
  /** Starts connecting enabled lazy servers that are not connected (first use, C2). */
  wakeLazyServers(): void;
  onChange(listener: () => void): () => void;
  callTool(serverId: string, tool: string, args: Record<string, unknown>, operationId: string): Promise<CallToolResult>;
  /** Sends `offscreen:cancel` for the operation on the server's current connection. */
  cancel(serverId: string, operationId: string): Promise<unknown>;
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean>;
  newOperationId(): string;
}

export interface Entry {
  tool: AgentTool;
  server: ServerView;
  raw: Tool;
}

/**
 * A server that is not ready but whose tools are known and whose first call would connect it:
 * one (re)connecting with a catalog from its last session, or a lazy one that is not connected
 * (C2). A call waits for the connection; the tools are marked stale meanwhile.
 */
function isKnownWhileNotReady(s: ServerView): boolean {
  return s.status === 'connecting' || (!s.connectOnStartup && s.status === 'disconnected' && s.staleSince !== undefined);
}

/**
 * Arguments are taken leniently: an object, a JSON object in a string, or nothing (G1). An
 * agent's object is taken as JSON would send it (toJSON, Dates as strings, no undefined fields or
 * functions): the offscreen channel passes structured clones, which would keep or refuse those,
 * and the user approves what is sent.
 */
function parseArguments(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  let value: unknown;
  try {
    value = typeof args === 'string' ? (args.trim() === '' ? {} : JSON.parse(args)) : JSON.parse(JSON.stringify(args) ?? 'null');
  } catch {
    throw new RemoteError({ code: 'bad-arguments', message: 'The tool arguments are not valid JSON.' });
  }
  if (value === null && typeof args === 'string') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RemoteError({ code: 'bad-arguments', message: 'The tool arguments must be a JSON object.' });
  }
  return value as Record<string, unknown>;
}

export class AgentToolRegistry {
  readonly #listeners = new Set<(tools: AgentTool[]) => void>();
  #signature = '';
  #unsubscribe: (() => void) | undefined;
  /**
   * The name map as of the last catalog change: building it walks every server's view and every
   * tool, which an agent call would otherwise pay twice. Dropped on every change the manager
   * announces; the manager checks the tool again when the call is made.
   */
  #cache: Map<string, Entry> | undefined;
  #watching = false;

  constructor(private readonly deps: RegistryDeps) {}

  #entries(): Map<string, Entry> {
    if (!this.#watching) {
      this.#watching = true;
      this.deps.onChange(() => (this.#cache = undefined));
    }
    return (this.#cache ??= this.#build());
  }

  #build(): Map<string, Entry> {
    const servers = this.deps.views().filter((s) => s.enabled && (s.status === 'ready' || isKnownWhileNotReady(s)));
    // A tool only its own view may call (MCP Apps `visibility: ["app"]`) is never offered here (U1),
    // not even behind a model-visible tool of the same name.
    const modelTools = (s: ServerView) => s.tools.filter((t) => toolUi(t).model);
    const names = buildToolNameMap(
      servers.map((s) => ({ serverId: s.id, tools: modelTools(s).map((t) => t.name), disabled: s.disabledTools })),
    );
    const out = new Map<string, Entry>();
    const byId = new Map<string, { server: ServerView; tools: Map<string, Tool> }>();
    for (const server of servers) {
      const tools = new Map<string, Tool>();
      // The first of two tools with one name wins, as in buildToolNameMap.
      for (const t of modelTools(server)) if (!tools.has(t.name)) tools.set(t.name, t);
      byId.set(server.id, { server, tools });
    }
    for (const [name, ref] of [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const { server, tools } = byId.get(ref.serverId)!;
      const raw = tools.get(ref.toolName)!;
      out.set(name, {
        server,
        raw,
        tool: {
          name,
          serverId: server.id,
          serverName: server.name,
          toolName: raw.name,
          ...(raw.title ? { title: raw.title } : {}),
          description: raw.description ?? '',
          jsonSchema: raw.inputSchema,
          ...(raw.annotations ? { annotations: raw.annotations } : {}),
          effects: 'write',
          autoRetry: false,
          ...(server.status !== 'ready' ? { stale: true as const } : {}),
        },
      });
    }
    return out;
  }

  list(): AgentTool[] {
    this.deps.wakeLazyServers();
    return this.#current();
  }

  /** The same tools without a first use: lazy servers stay asleep (the chat's tool estimate, T2; C2). */
  peek(): AgentTool[] {
    return this.#current();
  }

  #current(): AgentTool[] {
    // Copies: an engine that edits what it was given cannot change the cached entries.
    return [...this.#entries().values()].map((e) => ({ ...e.tool }));
  }

  /** Listener gets the new list; it fires only when names or schemas actually changed. */
  onChange(listener: (tools: AgentTool[]) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#unsubscribe) {
      this.#signature = JSON.stringify(this.#current());
      this.#unsubscribe = this.deps.onChange(() => this.#maybeChanged());
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) {
        this.#unsubscribe?.();
        this.#unsubscribe = undefined;
      }
    };
  }

  #maybeChanged() {
    const list = this.#current();
    const signature = JSON.stringify(list);
    if (signature === this.#signature) return;
    this.#signature = signature;
    for (const l of this.#listeners) {
      try {
        l(list);
      } catch (e) {
        console.error('[tool-registry] a change listener failed', e);
      }
    }
  }

  async call(name: string, args: unknown, options: AgentToolCallOptions = {}): Promise<AgentToolResult> {
    const { signal } = options;
    const entry = this.#entries().get(name);
    if (!entry) {
      throw new RemoteError({
        code: 'unknown-tool',
        message: `No enabled tool is called "${name}" (it may be disabled, or its server is not ready).`,
      });
    }
    const parsed = parseArguments(args);
    const operationId = options.operationId ?? this.deps.newOperationId();
    const cancelled = () => new RemoteError({ code: 'cancelled', message: `The call of "${entry.raw.name}" was cancelled.` });
    if (signal?.aborted) throw cancelled();
    const allowed = await this.deps.approve(approvalRequestOf(entry, parsed, options), signal);
    if (signal?.aborted) throw cancelled();
    if (!allowed)
      throw new RemoteError({ code: 'denied', message: `The user denied the call of "${entry.raw.name}" on "${entry.server.name}".` });
    // The tool may have been disabled while the card was open (G4).
    const current = this.#entries().get(name);
    if (!current || current.server.id !== entry.server.id || current.raw.name !== entry.raw.name) {
      throw new RemoteError({ code: 'unknown-tool', message: `"${entry.raw.name}" is no longer enabled; it was not called.` });
    }
    const onAbort = () => void this.deps.cancel(entry.server.id, operationId).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return agentResultOf(entry, await this.deps.callTool(entry.server.id, entry.raw.name, parsed, operationId), operationId);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** What the approval card shows for an agent's call of `entry` with these arguments. */
export function approvalRequestOf(entry: Entry, args: Record<string, unknown>, options: AgentToolCallOptions): ApprovalRequest {
  return {
    serverId: entry.server.id,
    serverName: entry.server.name,
    serverUrl: entry.server.url,
    tool: entry.raw,
    agentName: options.agentName ?? 'Agent',
    ...(options.agentWording ? { agentWording: options.agentWording } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
    arguments: args,
    ...(options.onApprovalCard ? { onCard: options.onApprovalCard } : {}),
  };
}

/**
 * The server's answer as the agent gets it: cut to the budget (H4), then fenced as untrusted data
 * with its provenance (N9); a tool with an MCP App view also gets the cut result unfenced.
 */
export function agentResultOf(entry: Pick<Entry, 'server' | 'raw'>, result: CallToolResult, operationId: string): AgentToolResult {
  const cut = truncateToolResult(result);
  const provenance = { serverId: entry.server.id, serverName: entry.server.name, tool: entry.raw.name };
  return {
    result: fenceToolResult({ ...provenance, result: cut.result }),
    truncated: cut.truncated,
    untrusted: true,
    provenance,
    operationId,
    ...(toolUi(entry.raw).resourceUri ? { forView: cut.result } : {}),
    forModel: toolResultForModel({ ...provenance, result: cut.result }),
  };
}
