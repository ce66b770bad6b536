/**
 * McpManager: per-server connection state, lazy and start-up connects, reconciliation with
 * stored configuration, and the catalog mirror (SPEC C1–C7, D1–D2). It decides; the offscreen
 * document only executes. Config, permissions and credentials come through injected ports so the
 * manager runs unchanged in Node tests.
 */
import type { McpServerConfig } from '../storage/config-schema.js';
import { DEFAULT_TIMEOUT_MS } from '../storage/config-schema.js';
import type { Catalog, CallToolResult } from '../protocol/mcp-shapes.js';
import type { ServerStatus, ServerView } from '../protocol/panel.js';
import { RemoteError, toWireError } from '../protocol/result.js';
import type { OffscreenEvent, OffscreenMethod, OffscreenParams, OffscreenValue } from '../protocol/offscreen.js';

export interface Reason {
  kind: string;
  message: string;
  httpStatus?: number;
}

export interface ManagerPorts {
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
  /** Whether the browser lets us reach the server's origin (SPEC L1). */
  hasHostPermission(url: string): Promise<boolean>;
  /** Headers carrying credentials for this server (Authorization, static headers). */
  headersFor(config: McpServerConfig): Promise<Record<string, string>>;
  newId(): string;
}

interface Runtime {
  config: McpServerConfig;
  status: ServerStatus;
  reason?: Reason;
  connectionId?: string;
  catalog: Catalog;
  /** Shared in-flight connect attempt (SPEC C4). */
  attempt?: Promise<void>;
  /** Bumped by every disconnect: an attempt from an older epoch can never commit (barrier). */
  epoch: number;
  refreshing?: Promise<void>;
  refreshQueued?: boolean;
}

const EMPTY_CATALOG: Catalog = { tools: [], prompts: [], resources: [], resourceTemplates: [] };

export class McpManager {
  readonly #servers = new Map<string, Runtime>();
  readonly #listeners = new Set<() => void>();

  constructor(private readonly ports: ManagerPorts) {}

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed() {
    for (const l of this.#listeners) l();
  }

  /** Brings live sessions in line with the stored configuration (SPEC C2, C3). */
  reconcile(configs: McpServerConfig[], { startup = false } = {}) {
    const seen = new Set<string>();
    for (const config of configs) {
      seen.add(config.id);
      const rt = this.#servers.get(config.id);
      if (!rt) {
        this.#servers.set(config.id, { config, status: 'disconnected', catalog: EMPTY_CATALOG, epoch: 0 });
        if (config.enabled && config.connectOnStartup) void this.connect(config.id).catch(() => undefined);
        continue;
      }
      const before = rt.config;
      rt.config = config;
      const bindingChanged = before.url !== config.url || JSON.stringify(before.auth) !== JSON.stringify(config.auth) || JSON.stringify(before.headers) !== JSON.stringify(config.headers);
      if (!config.enabled) {
        if (rt.status !== 'disconnected') void this.disconnect(config.id);
      } else if (bindingChanged) {
        void this.disconnect(config.id).then(() => {
          if (config.connectOnStartup) return this.connect(config.id).catch(() => undefined);
        });
      } else if (startup && config.connectOnStartup && rt.status === 'disconnected') {
        void this.connect(config.id).catch(() => undefined);
      }
    }
    for (const id of [...this.#servers.keys()]) {
      if (!seen.has(id)) {
        void this.disconnect(id).finally(() => {
          this.#servers.delete(id);
          this.#changed();
        });
      }
    }
    this.#changed();
  }

  /** Connects, sharing an in-flight attempt among concurrent callers (SPEC C4). */
  connect(serverId: string): Promise<void> {
    const rt = this.#require(serverId);
    if (rt.status === 'ready') return Promise.resolve();
    rt.attempt ??= this.#connectOnce(rt).finally(() => {
      rt.attempt = undefined;
    });
    return rt.attempt;
  }

  async #connectOnce(rt: Runtime): Promise<void> {
    const epoch = rt.epoch;
    const config = rt.config;
    this.#set(rt, 'connecting');
    const connectionId = this.ports.newId();
    let opened = false;
    try {
      if (!config.enabled) throw new RemoteError({ code: 'config-invalid', message: 'The server is disabled. Enable it to connect.' });
      if (!(await this.ports.hasHostPermission(config.url))) {
        throw new RemoteError({ code: 'permission', message: `Chrome has not granted access to ${new URL(config.url).origin}. Click "Grant access" on the card.` });
      }
      const headers = await this.ports.headersFor(config);
      await this.ports.request('offscreen:connect', {
        serverId: config.id,
        connectionId,
        url: config.url,
        headers,
        timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
      opened = true;
      const catalog = await this.ports.request('offscreen:list-catalog', { connectionId });
      // Commit only if nothing changed while we were handshaking (SPEC C5).
      if (rt.epoch !== epoch || rt.config !== config || this.#servers.get(config.id) !== rt) {
        throw new RemoteError({ code: 'superseded', message: 'The configuration changed while connecting.' });
      }
      rt.connectionId = connectionId;
      rt.catalog = catalog;
      this.#set(rt, 'ready');
    } catch (e) {
      if (opened) void this.ports.request('offscreen:close', { connectionId }).catch(() => undefined);
      const w = toWireError(e);
      if (w.code !== 'superseded' && rt.epoch === epoch) {
        this.#set(rt, w.code === 'needs-auth' ? 'needs-auth' : 'error', { kind: w.code, message: w.message, ...(w.httpStatus !== undefined ? { httpStatus: w.httpStatus } : {}) });
      }
      throw new RemoteError(w);
    }
  }

  /** A barrier: bumps the epoch so no attempt started before it can commit (SPEC C4). */
  async disconnect(serverId: string): Promise<void> {
    const rt = this.#servers.get(serverId);
    if (!rt) return;
    rt.epoch++;
    const connectionId = rt.connectionId;
    rt.connectionId = undefined;
    rt.catalog = EMPTY_CATALOG;
    this.#set(rt, 'disconnected');
    if (connectionId) await this.ports.request('offscreen:close', { connectionId }).catch(() => undefined);
  }

  /** Lazy connect on first use (SPEC C2). */
  async ensureReady(serverId: string): Promise<Runtime> {
    const rt = this.#require(serverId);
    if (rt.status !== 'ready') await this.connect(serverId);
    return rt;
  }

  async callTool(serverId: string, tool: string, args: Record<string, unknown>, operationId: string): Promise<CallToolResult> {
    const rt = await this.ensureReady(serverId);
    if (rt.config.disabledTools.includes(tool)) {
      throw new RemoteError({ code: 'tool-disabled', message: `The tool "${tool}" is disabled for this server.` });
    }
    if (!rt.catalog.tools.some((t) => t.name === tool)) {
      throw new RemoteError({ code: 'unknown-tool', message: `The server does not offer a tool named "${tool}".` });
    }
    return this.ports.request('offscreen:call-tool', {
      connectionId: rt.connectionId!,
      operationId,
      name: tool,
      arguments: args,
      timeoutMs: rt.config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  async ping(serverId: string): Promise<number> {
    const rt = await this.ensureReady(serverId);
    return (await this.ports.request('offscreen:ping', { connectionId: rt.connectionId! })).latencyMs;
  }

  /** Events from the offscreen host; those for a connection that is not current are ignored (SPEC C6). */
  handleEvent(event: OffscreenEvent) {
    if (event.type === 'offscreen:hello' || event.type === 'offscreen:progress') return;
    const rt = [...this.#servers.values()].find((r) => r.connectionId === event.connectionId);
    if (!rt) return;
    if (event.type === 'offscreen:session-lost') {
      rt.connectionId = undefined;
      rt.epoch++;
      this.#set(rt, 'error', { kind: event.error.code, message: event.error.message });
      return;
    }
    this.#refreshCatalog(rt);
  }

  /** The offscreen document is gone: every session died with it. Reconnect what was ready (SPEC C7). */
  handleOffscreenLost() {
    for (const rt of this.#servers.values()) {
      if (!rt.connectionId && rt.status !== 'connecting') continue;
      const wasReady = rt.status === 'ready';
      rt.connectionId = undefined;
      rt.epoch++;
      rt.catalog = EMPTY_CATALOG;
      this.#set(rt, 'disconnected', { kind: 'offscreen-lost', message: 'The MCP host document closed; reconnecting.' });
      if (wasReady && rt.config.enabled) void this.connect(rt.config.id).catch(() => undefined);
    }
  }

  /** Coalesced: a burst of list_changed gives at most one running and one queued refresh (SPEC N5). */
  #refreshCatalog(rt: Runtime) {
    if (rt.refreshing) {
      rt.refreshQueued = true;
      return;
    }
    const connectionId = rt.connectionId;
    if (!connectionId) return;
    rt.refreshing = this.ports
      .request('offscreen:list-catalog', { connectionId })
      .then((catalog) => {
        if (rt.connectionId === connectionId) {
          rt.catalog = catalog;
          this.#changed();
        }
      })
      .catch(() => undefined)
      .finally(() => {
        rt.refreshing = undefined;
        if (rt.refreshQueued) {
          rt.refreshQueued = false;
          this.#refreshCatalog(rt);
        }
      });
  }

  #set(rt: Runtime, status: ServerStatus, reason?: Reason) {
    rt.status = status;
    if (reason) rt.reason = reason;
    else delete rt.reason;
    this.#changed();
  }

  #require(serverId: string): Runtime {
    const rt = this.#servers.get(serverId);
    if (!rt) throw new RemoteError({ code: 'unknown-server', message: `No server with id "${serverId}".` });
    return rt;
  }

  views(): ServerView[] {
    return [...this.#servers.values()].map((rt) => ({
      id: rt.config.id,
      name: rt.config.name,
      url: rt.config.url,
      authKind: rt.config.auth.kind,
      enabled: rt.config.enabled,
      connectOnStartup: rt.config.connectOnStartup,
      status: rt.status,
      ...(rt.reason ? { reason: rt.reason } : {}),
      tools: rt.catalog.tools,
      prompts: rt.catalog.prompts,
      resources: rt.catalog.resources,
      resourceTemplates: rt.catalog.resourceTemplates,
      disabledTools: rt.config.disabledTools,
    }));
  }
}
