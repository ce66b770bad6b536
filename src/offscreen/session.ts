/**
 * One SDK session per `connectionId` (SPEC A2, C6). The session knows nothing of storage or
 * policy: the worker tells it what to connect to and with which headers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import {
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { limitResponse, withManualRedirect } from './response-limits.js';
import { outgoingFetch } from '../common/outgoing-fetch.js';
import { MAX_CATALOG_ITEMS } from '../protocol/mcp-shapes.js';
import type { WireErrorCode } from '../protocol/error-codes.js';

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const CLIENT_INFO = { name: 'remote-mcp-for-chrome', version: '0.1.0' };

export interface SessionOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The fetch the transport uses instead of the global one (the conformance harness authorizes with it). */
  fetch?: FetchFn;
  /**
   * Answers form-mode `elicitation/create` (SPEC I1). Without it, elicitation is not declared.
   * Defaults of omitted fields are filled in by the SDK before the answer is sent.
   */
  onElicitation?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  onListChanged(category: 'tools' | 'prompts' | 'resources'): void;
  /**
   * The session ended without us closing it: the transport closed, or the server answered 404
   * to a request carrying our session id (it forgot the session, SPEC N7). Called at most once.
   */
  onClosed(reason: { code: WireErrorCode; message: string }): void;
}

export type CatalogCategory = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export class McpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly #timeoutMs: number;
  #closed = false;

  constructor(private readonly options: SessionOptions) {
    this.#timeoutMs = options.timeoutMs;
    const onElicitation = options.onElicitation;
    this.client = new Client(CLIENT_INFO, {
      capabilities: onElicitation ? { elicitation: { form: { applyDefaults: true } } } : {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    });
    if (onElicitation) {
      this.client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        // URL mode is declined explicitly (I2); form mode goes to the caller.
        if (request.params.mode === 'url') return { action: 'decline' };
        return onElicitation(request.params, extra.signal);
      });
    }
    this.transport = new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: { headers: options.headers },
      fetch: (input, init) => this.#fetch(input, init),
    });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onListChanged('tools'));
    this.client.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged('prompts'));
    this.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => options.onListChanged('resources'));
    this.client.onclose = () => this.#lost('network', 'The connection to the MCP server was closed.');
  }

  /** Whether the session ended on its own (see {@link SessionOptions.onClosed}). */
  get lost(): boolean {
    return this.#lostFlag;
  }

  #lostFlag = false;

  #lost(code: WireErrorCode, message: string) {
    if (this.#closed) return;
    this.#closed = true;
    this.#lostFlag = true;
    this.options.onClosed({ code, message });
  }

  /**
   * Watches every HTTP answer: a 404 to a request that carried our session id means the server
   * dropped the session. The SDK still sees the 404 and fails that request; we only report it.
   */
  async #fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (this.#authorization !== undefined) {
      const headers = new Headers(init?.headers);
      headers.set('authorization', this.#authorization);
      init = { ...init, headers };
    }
    // Redirects are reported, not followed, and every body is size-bounded (N1, N2, N8).
    const response = limitResponse(await (this.options.fetch ?? outgoingFetch)(input, withManualRedirect(init)), this.#origin);
    if (response.status === 401 || response.status === 403)
      this.#challenge = response.headers.get('www-authenticate')?.slice(0, 4096) ?? undefined;
    if (response.status === 404 && new Headers(init?.headers).has('mcp-session-id')) {
      this.#lost(
        'session-lost',
        `${new URL(this.options.url).origin} no longer knows this MCP session (HTTP 404); a new session is needed.`,
      );
    }
    return response;
  }

  #authorization: string | undefined;

  get #origin(): string {
    return new URL(this.options.url).origin;
  }
  #challenge: string | undefined;

  /** The `WWW-Authenticate` of the latest 401/403, which the SDK's error does not carry. */
  get lastChallenge(): string | undefined {
    return this.#challenge;
  }

  /** Replaces the `Authorization` header of every later request (a refreshed OAuth token). */
  setAuthorization(value: string) {
    this.#authorization = value;
  }

  async connect() {
    await this.client.connect(this.transport, { timeout: this.#timeoutMs });
    return {
      serverInfo: this.client.getServerVersion(),
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      instructions: this.client.getInstructions(),
    };
  }

  /** Lists one category; a category the server does not declare is empty. */
  async listCategory(category: CatalogCategory): Promise<unknown[]> {
    const caps = this.client.getServerCapabilities() ?? {};
    const opts = { timeout: this.#timeoutMs };
    switch (category) {
      case 'tools':
        return caps.tools
          ? collect(
              (cursor) => this.client.listTools({ cursor }, opts),
              (r) => r.tools,
            )
          : [];
      case 'prompts':
        return caps.prompts
          ? collect(
              (cursor) => this.client.listPrompts({ cursor }, opts),
              (r) => r.prompts,
            )
          : [];
      case 'resources':
        return caps.resources
          ? collect(
              (cursor) => this.client.listResources({ cursor }, opts),
              (r) => r.resources,
            )
          : [];
      case 'resourceTemplates':
        return caps.resources
          ? collect(
              (cursor) => this.client.listResourceTemplates({ cursor }, opts),
              (r) => r.resourceTemplates,
            )
          : [];
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void,
  ) {
    return this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.#timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: onProgress,
    });
  }

  /** `prompts/get` (SPEC G2); the worker validates and fences the result. */
  async getPrompt(name: string, args: Record<string, string>) {
    return this.client.getPrompt({ name, arguments: args }, { timeout: this.#timeoutMs });
  }

  /** `resources/read` (SPEC G3). */
  async readResource(uri: string) {
    return this.client.readResource({ uri }, { timeout: this.#timeoutMs });
  }

  async ping(): Promise<number> {
    const start = performance.now();
    await this.client.ping({ timeout: this.#timeoutMs });
    return performance.now() - start;
  }

  async close() {
    this.#closed = true;
    try {
      await this.transport.terminateSession();
    } catch {
      // A server that does not support DELETE (405) or is already gone: closing locally suffices.
    }
    await this.client.close();
  }
}

async function collect<R extends { nextCursor?: string | undefined }, T>(
  page: (cursor: string | undefined) => Promise<R>,
  items: (r: R) => T[],
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const r = await page(cursor);
    out.push(...items(r));
    if (out.length >= MAX_CATALOG_ITEMS) return out.slice(0, MAX_CATALOG_ITEMS);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}
