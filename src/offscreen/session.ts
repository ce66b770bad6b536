/**
 * One SDK session per `connectionId` (SPEC A2, C6). The session knows nothing of storage or
 * policy: the worker tells it what to connect to and with which headers.
 */
import { say } from '../protocol/wording.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import {
  ErrorCode,
  McpError,
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest, ElicitResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { limitResponse, withManualRedirect } from './response-limits.js';
import { CallTimers, timedCall } from './call-timers.js';
import { callToolAsTask, type TaskHooks } from './task-call.js';
import { JsonRpcGuard, type DroppedResponse, type LocalFailure } from './jsonrpc-guard.js';
import { eventMessageReader } from './event-check.js';
import { withoutUnmatchedInBatch } from './unmatched-answers.js';
import { sessionLossOf } from './session-loss.js';
import { completeWith, type CompletionAsk } from './completion.js';
import { outgoingFetch } from '../common/outgoing-fetch.js';
import { MAX_CATALOG_ITEMS } from '../protocol/mcp-shapes.js';
import type { WireErrorCode } from '../protocol/error-codes.js';

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The SDK's own timer is set beyond reach (setTimeout's largest delay) so that ours decides. */
const NO_SDK_TIMEOUT = 2_147_483_647;

import { APP_MIME_TYPE, UI_EXTENSION } from '../protocol/mcp-apps.js';
import { EXTENSION_INFO } from '../protocol/extension-info.js';

export interface SessionOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Declare the MCP Apps UI extension: the panel can host views. */
  appViews?: boolean;
  /** The fetch the transport uses instead of the global one (the conformance harness authorizes with it). */
  fetch?: FetchFn;
  /**
   * Answers `elicitation/create`, form and URL mode (SPEC I1, R5). Without it, elicitation is not declared.
   * Defaults of omitted fields are filled in by the SDK before the answer is sent.
   */
  onElicitation?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** How long a question may stay open (default {@link QUESTION_LIMIT_MS}); tests shorten it. */
  questionLimitMs?: number;
  onListChanged(category: 'tools' | 'prompts' | 'resources'): void;
  /** A response was dropped because no request waits for its exact id (SPEC N6); for the request log. */
  onDroppedResponse?(dropped: DroppedResponse): void;
  /**
   * The session ended without us closing it: the transport closed, or the server answered a
   * request carrying our session id with 404, or 400 saying it does not know the session (it
   * forgot it or restarted, SPEC N7). Called at most once.
   */
  onClosed(reason: { code: WireErrorCode; message: string }): void;
}

export type CatalogCategory = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

export class McpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Between the client and the transport: strict id matching and local failures (SPEC N6). */
  readonly #guard: JsonRpcGuard;
  readonly #timeoutMs: number;
  /** The tool calls' timeouts, paused while a question to the user is open. */
  readonly #callTimers: CallTimers;
  #closed = false;

  /** The server's origin, for messages; parsed once, not on every request. */
  readonly #origin: string;

  constructor(private readonly options: SessionOptions) {
    this.#origin = new URL(options.url).origin;
    this.#timeoutMs = options.timeoutMs;
    this.#callTimers = new CallTimers(options.questionLimitMs);
    const onElicitation = options.onElicitation;
    this.client = new Client(EXTENSION_INFO, {
      capabilities: {
        // URL mode too (R5): the relay declines a page that is not https (or loopback http) or carries a credential.
        ...(onElicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
        // MCP Apps: only when the panel can host views (SEP-1865, client capability `extensions`).
        ...(options.appViews ? { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } : {}),
      },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    });
    if (onElicitation) {
      this.client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        this.#callTimers.askUser(extra.signal, (signal) => onElicitation(request.params, signal)),
      );
    }
    this.transport = new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: { headers: options.headers },
      fetch: (input, init) => this.#fetch(input, init),
    });
    this.#guard = new JsonRpcGuard(this.transport, {
      onDropped: (dropped) => options.onDroppedResponse?.(dropped),
      // Without a question handler elicitation is not declared; a server that asks anyway (URL
      // mode too) is declined, not answered with an error (SPEC I2). The SDK would refuse it first.
      answerLocally: (request) => (!onElicitation && request.method === 'elicitation/create' ? { action: 'decline' } : undefined),
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
  #lostCode: WireErrorCode | undefined;

  /**
   * Why the session ended on its own: `session-lost` when the server no longer knew it. A failed
   * `initialize` also ends it (the SDK closes the transport), with another code.
   */
  get lostCode(): WireErrorCode | undefined {
    return this.#lostCode;
  }

  #lost(code: WireErrorCode, message: string) {
    if (this.#closed) return;
    this.#closed = true;
    this.#lostFlag = true;
    this.#lostCode = code;
    this.options.onClosed({ code, message });
  }

  /**
   * Watches every HTTP answer. An answer saying the server does not know our session id ends
   * the session; the requests it answered fail as refused (they never ran). An answer that is
   * too large or malformed fails the requests of its POST at once instead of at their timeout.
   */
  async #fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    if (this.#authorization !== undefined) {
      const headers = new Headers(init?.headers);
      headers.set('authorization', this.#authorization);
      init = { ...init, headers };
    }
    const ids = requestIdsOf(init?.body);
    const failRequests = (failure: LocalFailure) => this.#guard.fail(ids, failure);
    const raw = await (this.options.fetch ?? outgoingFetch)(input, withManualRedirect(init));
    // The event stream answering our requests is also read for malformed messages (N6).
    const checked = ids.length > 0 && raw.ok && (raw.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    // Redirects are reported, not followed, and every body is size-bounded (N1, N2, N8).
    const unmatched = (id: unknown) => this.#guard.dropUnmatchable(id);
    const limited = limitResponse(raw, this.#origin, {
      // A tool result is cut while read, not refused (H4); every other answer stays strict (N8).
      cutLongStrings: callsTool(init?.body),
      onLimit: (error) => failRequests({ code: error.code, message: error.message }),
      ...(checked
        ? { eventReader: eventMessageReader(this.#origin, (message) => failRequests({ code: 'protocol', message }), unmatched) }
        : {}),
    });
    // An unmatched answer in a batch is dropped, not allowed to fail the answers beside it (N6).
    const response = ids.length > 0 && raw.ok ? await withoutUnmatchedInBatch(limited, unmatched) : limited;
    if (response.status === 401 || response.status === 403)
      this.#challenge = response.headers.get('www-authenticate')?.slice(0, 4096) ?? undefined;
    const loss = await sessionLossOf(response, new Headers(init?.headers).has('mcp-session-id'));
    if (loss !== undefined) {
      failRequests({
        code: 'session-lost',
        ...say('reasonSessionUnknown', { origin: this.#origin, loss }),
        httpStatus: response.status,
      });
      this.#lost('session-lost', `${this.#origin} no longer knows this MCP session (${loss}); a new session is needed.`);
    }
    return response;
  }

  #authorization: string | undefined;

  #challenge: string | undefined;

  /** The `WWW-Authenticate` of the latest 401/403, which the SDK's error does not carry. */
  get lastChallenge(): string | undefined {
    return this.#challenge;
  }

  /** Replaces the `Authorization` header of every later request (a refreshed OAuth token). */
  setAuthorization(value: string) {
    this.#authorization = value;
  }

  /** Responses dropped on this session because no request waited for their exact id. */
  get droppedResponses(): number {
    return this.#guard.droppedCount;
  }

  async connect() {
    await this.client.connect(this.#guard, { timeout: this.#timeoutMs });
    return {
      serverInfo: this.client.getServerVersion(),
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      instructions: this.client.getInstructions(),
      ...(this.transport.protocolVersion ? { protocolVersion: this.transport.protocolVersion } : {}),
    };
  }

  /** Lists one category; a category the server does not declare is empty (templates come with `resources`). */
  async listCategory(category: CatalogCategory): Promise<unknown[]> {
    const caps = this.client.getServerCapabilities() ?? {};
    if (!caps[category === 'resourceTemplates' ? 'resources' : category]) return [];
    const opts = { timeout: this.#timeoutMs };
    const c = this.client;
    const lists: { [C in CatalogCategory]: () => Promise<unknown[]> } = {
      tools: () => collect((cursor) => c.listTools({ cursor }, opts), 'tools'),
      prompts: () => collect((cursor) => c.listPrompts({ cursor }, opts), 'prompts'),
      resources: () => collect((cursor) => c.listResources({ cursor }, opts), 'resources'),
      resourceTemplates: () => collect((cursor) => c.listResourceTemplates({ cursor }, opts), 'resourceTemplates'),
    };
    return lists[category]();
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void,
    /** Whether the tool runs only as a task, and where its statuses go (task-table.ts). */
    tasks?: TaskHooks,
  ) {
    // The timeout is ours, not the SDK's, so an open question can pause it (call-timers.ts).
    const timeout = this.#timeoutMs;
    const timedOut = () => new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout });
    return timedCall(this.#callTimers, timeout, signal, timedOut, (stop, reset) => {
      if (tasks?.required) {
        // Each new status counts as progress: it resets the timer and shows on the progress line.
        let step = 0;
        return callToolAsTask(this.client, name, args, {
          signal: stop,
          timeout: NO_SDK_TIMEOUT,
          onStatus: (update) => {
            reset();
            tasks.onStatus(update);
            onProgress({ progress: ++step, message: update.message ?? update.status });
          },
        });
      }
      return this.client.callTool({ name, arguments: args }, undefined, {
        signal: stop,
        timeout: NO_SDK_TIMEOUT,
        onprogress: (p) => {
          reset();
          onProgress(p);
        },
      });
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

  /** `completion/complete` (SPEC R8). */
  async complete(ask: CompletionAsk) {
    return completeWith(this.client, ask, this.#timeoutMs);
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

/** The ids of the JSON-RPC requests in a POST body (none for notifications, answers and GETs). */
function requestIdsOf(body: unknown): RequestId[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m: { method?: unknown; id?: unknown }) =>
      typeof m?.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : [],
    );
  } catch {
    return [];
  }
}

/** Whether a POST body is a `tools/call` request (its answer may be cut to the result budget). */
function callsTool(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const parsed = JSON.parse(body) as { method?: unknown };
    return !Array.isArray(parsed) && parsed?.method === 'tools/call';
  } catch {
    return false;
  }
}

async function collect<K extends string, R extends { nextCursor?: string | undefined } & Record<K, unknown[]>>(
  page: (cursor: string | undefined) => Promise<R>,
  key: K,
): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const r = await page(cursor);
    out.push(...r[key]);
    if (out.length >= MAX_CATALOG_ITEMS) return out.slice(0, MAX_CATALOG_ITEMS);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}
