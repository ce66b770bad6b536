/**
 * A connection to a server of the 2026-07-28 era (SPEC R1–R4), through the official v2 client
 * (`@modelcontextprotocol/client`). There is no session on the server: every request carries the
 * per-request `_meta` and the standard headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
 * and `Mcp-Param-*` mirrored from `x-mcp-header` arguments, by param-headers.ts since the client
 * does not in a browser — a tool whose annotations are invalid is left out of the list by the client). What this object holds is the discover result,
 * the client's response cache (`ttlMs`) and one `subscriptions/listen` stream for list changes,
 * re-opened after a drop with a bounded backoff. Questions come back as `input_required` results
 * and go to the same elicitation cards as a 2025 server's `elicitation/create`; the client retries
 * with the answers and the exact `requestState`, at most {@link MAX_INPUT_ROUNDS} times.
 * Cancelling a request closes its response stream (no `notifications/cancelled` on this wire).
 */
import type { TaskHooks } from './task-call.js';
import { followModernTask, TASKS_EXTENSION } from './modern-task.js';
import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { DiscoverResult, McpSubscription } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { EXTENSION_INFO } from '../protocol/extension-info.js';
import { APP_MIME_TYPE, UI_EXTENSION } from '../protocol/mcp-apps.js';
import { MAX_CATALOG_ITEMS } from '../protocol/mcp-shapes.js';
import type { WireErrorCode } from '../protocol/error-codes.js';
import { outgoingFetch } from '../common/outgoing-fetch.js';
import { CallTimers, timedCall } from './call-timers.js';
import { limitResponse, withManualRedirect } from './response-limits.js';
import { MODERN_VERSION } from '../protocol/modern-wire.js';
import { paramHeaders } from './param-headers.js';
import { completeWith, type CompletionAsk } from './completion.js';
import { defaultResultTypes, taskHandleOf } from './result-type.js';
import type { CatalogCategory, SessionOptions } from './session.js';

/** Rounds of questions one request may ask before it is refused (N5: a server cannot ask forever). */
export const MAX_INPUT_ROUNDS = 8;
/** The listen stream's re-open delays after a drop; past the last one the server is left unwatched until the next connect. */
export const LISTEN_BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
const NO_SDK_TIMEOUT = 2_147_483_647;

export class ModernSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly #timeoutMs: number;
  readonly #callTimers: CallTimers;
  readonly #origin: string;
  #closed = false;
  #authorization: string | undefined;
  #challenge: string | undefined;
  #subscription: McpSubscription | undefined;
  #listenFailures = 0;
  #listenTimer: ReturnType<typeof setTimeout> | undefined;
  /** Input schemas of the tools last listed, for their `Mcp-Param-*` headers (param-headers.ts). */
  readonly #toolSchemas = new Map<string, unknown>();

  constructor(
    private readonly options: SessionOptions,
    private readonly discover: Record<string, unknown>,
  ) {
    this.#origin = new URL(options.url).origin;
    this.#timeoutMs = options.timeoutMs;
    this.#callTimers = new CallTimers(options.questionLimitMs);
    const onElicitation = options.onElicitation;
    this.client = new Client(EXTENSION_INFO, {
      capabilities: {
        ...(onElicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
        // Tasks (R6) always; MCP App views where the user allows them.
        extensions: { [TASKS_EXTENSION]: {}, ...(options.appViews ? { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } : {}) },
      },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      versionNegotiation: { mode: { pin: MODERN_VERSION } },
      inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
    });
    if (onElicitation) this.#answerQuestions(onElicitation);
    this.client.setNotificationHandler('notifications/tools/list_changed', () => options.onListChanged('tools'));
    this.client.setNotificationHandler('notifications/prompts/list_changed', () => options.onListChanged('prompts'));
    this.client.setNotificationHandler('notifications/resources/list_changed', () => options.onListChanged('resources'));
    this.transport = new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: { headers: options.headers },
      fetch: (input, init) => this.#fetch(input, init),
    });
  }

  /** The same cards as a 2025 server's questions; the calls' timers wait while the user answers. */
  #answerQuestions(onElicitation: NonNullable<SessionOptions['onElicitation']>) {
    this.client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.#callTimers.askUser(ctx.mcpReq.signal, (signal) => onElicitation(request.params, signal)),
    );
  }

  /** A task's question (its `inputRequests`): the same cards, the calls' timers waiting; no handler → declined. */
  async #askInput(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const onElicitation = this.options.onElicitation;
    if (!onElicitation) return { action: 'decline' };
    return this.#callTimers.askUser(signal, (s) => onElicitation(params as Parameters<typeof onElicitation>[0], s));
  }

  /** Every request: our credentials, no redirects, bounded answers (N1, N2, N8); the latest challenge kept for authorization. */
  async #fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const headers = new Headers(init?.headers);
    if (this.#authorization !== undefined) headers.set('authorization', this.#authorization);
    const raw = await (this.options.fetch ?? outgoingFetch)(input, withManualRedirect({ ...init, headers }));
    if (raw.status === 401 || raw.status === 403) this.#challenge = raw.headers.get('www-authenticate')?.slice(0, 4096) ?? undefined;
    const toolCall = headers.get('mcp-method') === 'tools/call';
    return defaultResultTypes(limitResponse(raw, this.#origin, { cutLongStrings: toolCall }), toolCall);
  }

  get lost(): boolean {
    return false;
  }

  /** A stateless server has no session to lose. */
  get lostCode(): WireErrorCode | undefined {
    return undefined;
  }

  get lastChallenge(): string | undefined {
    return this.#challenge;
  }

  setAuthorization(value: string) {
    this.#authorization = value;
  }

  get droppedResponses(): number {
    return 0;
  }

  async connect() {
    await this.client.connect(this.transport, {
      prior: { kind: 'modern', discover: this.discover as DiscoverResult },
      timeout: this.#timeoutMs,
    });
    void this.#listen();
    return {
      serverInfo: this.client.getServerVersion(),
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      instructions: this.client.getInstructions(),
      protocolVersion: this.client.getNegotiatedProtocolVersion() ?? MODERN_VERSION,
    };
  }

  /** One listen stream for the list changes the server declares (SPEC R3); re-opened after a drop, bounded. */
  async #listen() {
    const caps = (this.client.getServerCapabilities() ?? {}) as Record<string, { listChanged?: boolean } | undefined>;
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (this.#closed || Object.keys(filter).length === 0) return;
    try {
      this.#subscription = await this.client.listen(filter, { timeout: this.#timeoutMs });
      this.#listenFailures = 0;
      const ended = await this.#subscription.closed;
      if (ended === 'local' || this.#closed) return;
    } catch {
      // Refused or unreachable: tried again below, like a drop.
    }
    this.#subscription = undefined;
    const delay = LISTEN_BACKOFF_MS[this.#listenFailures++];
    if (delay === undefined || this.#closed) return;
    this.#listenTimer = setTimeout(() => void this.#listen(), delay);
    // Changes made while the stream was down are not replayed: the lists are stale until read again.
    options: for (const category of ['tools', 'prompts', 'resources'] as const) {
      if (!caps[category]?.listChanged) continue options;
      this.options.onListChanged(category);
    }
  }

  /** Whether a listen stream is open now (tests and diagnostics). */
  get listening(): boolean {
    return this.#subscription !== undefined;
  }

  async listCategory(category: CatalogCategory): Promise<unknown[]> {
    const caps = this.client.getServerCapabilities() ?? {};
    if (!caps[category === 'resourceTemplates' ? 'resources' : category]) return [];
    const opts = { timeout: this.#timeoutMs };
    const c = this.client;
    const lists: { [C in CatalogCategory]: () => Promise<unknown[]> } = {
      tools: async () => {
        const { tools } = await c.listTools(undefined, opts);
        this.#toolSchemas.clear();
        for (const t of tools) this.#toolSchemas.set(t.name, t.inputSchema);
        return tools;
      },
      prompts: async () => (await c.listPrompts(undefined, opts)).prompts,
      resources: async () => (await c.listResources(undefined, opts)).resources,
      resourceTemplates: async () => (await c.listResourceTemplates(undefined, opts)).resourceTemplates,
    };
    return (await lists[category]()).slice(0, MAX_CATALOG_ITEMS);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void,
    tasks?: TaskHooks,
  ) {
    const timedOut = () => new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');
    // The v2 client reports an abort as its own error: our timeout's reason is what the call says.
    const ours = (reason: unknown) => reason instanceof SdkError;
    return timedCall(
      this.#callTimers,
      this.#timeoutMs,
      signal,
      timedOut,
      async (stop, reset) => {
        // A tool called before this session listed any (a call right after a reconnect) is looked up once.
        if (!this.#toolSchemas.has(name)) await this.listCategory('tools').catch(() => undefined);
        const call = this.client.callTool(
          { name, arguments: args },
          {
            headers: paramHeaders(this.#toolSchemas.get(name), args),
            signal: stop,
            timeout: NO_SDK_TIMEOUT,
            onprogress: (p) => {
              reset();
              onProgress(p);
            },
          },
        );
        return call.catch((e: unknown) => {
          // The server runs it as a task (R6): followed here, each new status resetting the timer.
          const handle = taskHandleOf(e);
          if (!handle) throw e;
          let step = 0;
          return followModernTask(this.client, handle, {
            signal: stop,
            timeout: NO_SDK_TIMEOUT,
            onStatus: (update) => {
              reset();
              tasks?.onStatus(update);
              onProgress({ progress: ++step, message: update.message ?? update.status });
            },
            ask: (params, signal) => this.#askInput(params, signal),
          }) as ReturnType<Client['callTool']>;
        });
      },
      ours,
    );
  }

  async getPrompt(name: string, args: Record<string, string>) {
    return this.client.getPrompt({ name, arguments: args }, { timeout: this.#timeoutMs });
  }

  async readResource(uri: string) {
    return this.client.readResource({ uri }, { timeout: this.#timeoutMs });
  }

  /** `completion/complete` (SPEC R8). */
  async complete(ask: CompletionAsk) {
    return completeWith(this.client, ask, this.#timeoutMs);
  }

  /** There is no session to keep alive; `server/discover` (which every server must answer) is the round trip measured. */
  async ping(): Promise<number> {
    const start = performance.now();
    await this.client.discover({ timeout: this.#timeoutMs });
    return performance.now() - start;
  }

  async close() {
    this.#closed = true;
    clearTimeout(this.#listenTimer);
    await this.#subscription?.close().catch(() => undefined);
    await this.client.close();
  }
}
