/**
 * One SDK session per `connectionId` (SPEC A2, C6). The session knows nothing of storage or
 * policy: the worker tells it what to connect to and with which headers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../protocol/mcp-shapes.js';
import { MAX_CATALOG_ITEMS } from '../protocol/mcp-shapes.js';

export const CLIENT_INFO = { name: 'remote-mcp-for-chrome', version: '0.1.0' };

export interface SessionOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  onListChanged(category: 'tools' | 'prompts' | 'resources'): void;
  onClosed(): void;
}

export class McpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly #timeoutMs: number;
  #closed = false;

  constructor(private readonly options: SessionOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.client = new Client(CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    });
    this.transport = new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: { headers: options.headers },
    });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onListChanged('tools'));
    this.client.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged('prompts'));
    this.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => options.onListChanged('resources'));
    this.client.onclose = () => {
      if (!this.#closed) {
        this.#closed = true;
        options.onClosed();
      }
    };
  }

  async connect() {
    await this.client.connect(this.transport, { timeout: this.#timeoutMs });
    return {
      serverInfo: this.client.getServerVersion(),
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      instructions: this.client.getInstructions(),
    };
  }

  /** Lists every category the server declares, following pagination up to the catalog cap. */
  async listCatalog(): Promise<Catalog> {
    const caps = this.client.getServerCapabilities() ?? {};
    const opts = { timeout: this.#timeoutMs };
    const tools = caps.tools ? await collect((cursor) => this.client.listTools({ cursor }, opts), (r) => r.tools) : [];
    const prompts = caps.prompts ? await collect((cursor) => this.client.listPrompts({ cursor }, opts), (r) => r.prompts) : [];
    const resources = caps.resources ? await collect((cursor) => this.client.listResources({ cursor }, opts), (r) => r.resources) : [];
    const resourceTemplates = caps.resources
      ? await collect((cursor) => this.client.listResourceTemplates({ cursor }, opts), (r) => r.resourceTemplates)
      : [];
    return { tools, prompts, resources, resourceTemplates } as Catalog;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, onProgress: (p: { progress: number; total?: number; message?: string }) => void) {
    return this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.#timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: onProgress,
    });
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
