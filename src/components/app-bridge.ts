/**
 * The panel's side of the MCP Apps protocol for one view (section Q), without DOM: it takes the
 * JSON strings the sandbox page forwards, checks them ({@link ViewMessageSchema}, then each
 * method's params), keeps the view to a message rate, answers what a view may ask, and checks
 * every message it sends ({@link HostMessageSchema}). What needs the user or the worker goes
 * through {@link BridgeHost}; the element owns the frame and the buttons.
 *
 * Lifecycle: `ui/initialize` is answered with the host context; once the view says
 * `ui/notifications/initialized`, it gets the tool's input and then its result (at once when the
 * call is done; later through {@link AppBridge.deliverResult} when the view shows a call still
 * running, as a chat step does). Teardown asks
 * the view (`ui/resource-teardown`) and gives up after a timeout: several published views answer
 * with an error, and a huge one may never answer.
 *
 * U4: nothing happens on the view's say-so alone. `ui/message` becomes a suggestion the user may
 * insert into their draft ({@link BridgeHost.suggest}); full panel is granted only while the user
 * is interacting with the view (the sandbox page reports its user activation), else offered; a
 * link opens only from the user's click. Bounds answer: a height is clamped, a request dropped
 * for the rate is answered with an error at once.
 */
import * as z from 'zod/mini';
import { APP_PROTOCOL_VERSION } from '../protocol/mcp-apps.js';
import { EXTENSION_INFO } from '../protocol/extension-info.js';
import type { CallToolResult, Tool } from '../protocol/mcp-shapes.js';
import {
  HostMessageSchema,
  MAX_VIEW_MESSAGE,
  SizeChangedParamsSchema,
  ViewMessageSchema,
  ViewRequestParams,
  type HostMessage,
  type ViewRequestMethod,
} from '../protocol/app-view.js';
import { RequestPeer, type PeerTransport, type ReadAnswer } from '../protocol/request-peer.js';

type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** What a view's requests need from outside the bridge. */
export interface BridgeHost {
  callTool(name: string, args: Record<string, unknown>, operationId: string): Promise<Outcome<CallToolResult>>;
  cancel(operationId: string): void;
  readResource(uri: string): Promise<Outcome<Record<string, unknown>>>;
  /** Offers the link to the user; resolves true when they opened it. */
  offerLink(url: string): Promise<boolean>;
  /** Shows the view's message as a suggestion for the chat draft (never put there by itself), when there is a chat. */
  suggest?(text: string): boolean;
  setHeight(px: number): void;
  /** Resolves with the mode the view is shown in now. */
  setDisplayMode(mode: 'inline' | 'fullscreen'): 'inline' | 'fullscreen';
  /** The view asked for full panel without the user's gesture: offer it to the user instead. */
  offerFullscreen(): void;
  /** The view broke the rules (a flood): the element stops it. */
  stop(reason: string): void;
  newOperationId(): string;
}

export interface BridgeCall {
  tool: Tool;
  arguments: Record<string, unknown>;
  /** Absent while the call runs; {@link AppBridge.deliverResult} gives it later. */
  result?: CallToolResult;
}

/** Messages a view may send per second before they are dropped, and how many drops stop it. */
export const VIEW_RATE = { perSecond: 50, burst: 100, dropsBeforeStop: 200 };
export const MIN_HEIGHT = 48;
export const MAX_HEIGHT = 2000;
const MAX_CALLS_IN_FLIGHT = 4;
export const TEARDOWN_TIMEOUT_MS = 2000;

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the host answered, or the view's request fails with its message. */
function valueOf<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new RpcError(SERVER_ERROR, outcome.message);
  return outcome.value;
}

/** `url` when it parses as an http(s) URL: a view may offer no other kind of link. */
function httpUrl(url: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
}

/** The view's answers to the host's requests (only teardown asks): matched by numeric id, result or error alike. */
function readViewAnswer(message: unknown): ReadAnswer {
  const id = (message as { id?: unknown }).id;
  return typeof id === 'number' ? { id, result: message } : 'malformed';
}

export class AppBridge {
  #tokens = VIEW_RATE.burst;
  #lastRefill: number;
  #drops = 0;
  #initialized = false;
  #delivered = false;
  #resultSent = false;
  #cancelled: string | undefined;
  #closed = false;
  readonly #calls = new Set<string>();
  /** The host's own requests to the view, on the shared peer: its transport is {@link AppBridge.#send}. */
  readonly #peer = new RequestPeer({
    label: 'app-view',
    read: readViewAnswer,
    lost: () => new Error('The view was closed before it answered'),
    timedOut: () => new Error('The view did not answer in time'),
  });
  readonly #toView: PeerTransport = { postMessage: (message) => this.#send(message as HostMessage) };
  #displayMode: 'inline' | 'fullscreen' = 'inline';

  constructor(
    private readonly call: BridgeCall,
    private readonly host: BridgeHost,
    /** Posts one checked message to the view (through the sandbox page). */
    private readonly post: (message: HostMessage) => void,
    private readonly context: () => Record<string, unknown>,
    private readonly now: () => number = Date.now,
  ) {
    this.#lastRefill = now();
  }

  /** How many of the view's messages were dropped (malformed, too large or too many). */
  get dropped(): number {
    return this.#drops;
  }

  #send(message: HostMessage) {
    if (this.#closed) return;
    const checked = HostMessageSchema.safeParse(message);
    if (!checked.success) {
      console.warn('[app-view] an outgoing message failed its check and was not sent', checked.error);
      return;
    }
    this.post(checked.data);
  }

  #drop() {
    this.#drops++;
    if (this.#drops === VIEW_RATE.dropsBeforeStop) this.host.stop('flood');
  }

  #admit(): boolean {
    const now = this.now();
    this.#tokens = Math.min(VIEW_RATE.burst, this.#tokens + ((now - this.#lastRefill) / 1000) * VIEW_RATE.perSecond);
    this.#lastRefill = now;
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }

  /**
   * One JSON string the sandbox page forwarded from the view; `active` when the user was
   * interacting with the view as it sent it (its frame's transient user activation).
   */
  receive(json: string, active = false) {
    if (this.#closed) return;
    if (json.length > MAX_VIEW_MESSAGE) return this.#drop();
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch {
      return this.#drop();
    }
    const id = (data as { id?: unknown } | null)?.id;
    const answerable = typeof id === 'string' || typeof id === 'number';
    if (!this.#admit()) {
      this.#drop();
      // A request over the rate is answered at once, not left to the view's timeout (U4).
      if (answerable && typeof (data as { method?: unknown }).method === 'string')
        this.#error(id, SERVER_ERROR, `Too many messages: at most ${VIEW_RATE.perSecond} a second.`);
      return;
    }
    const parsed = ViewMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.#drop();
      if (answerable) this.#error(id, INVALID_REQUEST, 'Invalid JSON-RPC message.');
      return;
    }
    const message = parsed.data;
    if ('method' in message) {
      if ('id' in message) void this.#request(message.id, message.method, message.params, active);
      else this.#notification(message.method, message.params);
    } else {
      this.#peer.receive(message);
    }
  }

  /** Counted by the sandbox page: messages it dropped before forwarding. */
  droppedBySandbox() {
    this.#drop();
  }

  #error(id: string | number | null, code: number, message: string) {
    this.#send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  async #request(id: string | number, method: string, raw: unknown, active: boolean) {
    if (!Object.hasOwn(ViewRequestParams, method)) return this.#error(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
    const m = method as ViewRequestMethod;
    const params = ViewRequestParams[m].safeParse(raw ?? {});
    if (!params.success) return this.#error(id, INVALID_PARAMS, `Invalid params for ${method}: ${z.prettifyError(params.error)}`);
    try {
      const result = await this.#answer(m, params.data, active);
      this.#send({ jsonrpc: '2.0', id, result });
    } catch (e) {
      if (e instanceof RpcError) this.#error(id, e.code, e.message);
      else this.#error(id, SERVER_ERROR, e instanceof Error ? e.message : String(e));
    }
  }

  async #answer(method: ViewRequestMethod, params: unknown, active: boolean): Promise<Record<string, unknown>> {
    switch (method) {
      case 'ui/initialize':
        return this.#initialize();
      case 'ping':
        return {};
      case 'tools/call':
        return this.#callTool(params as z.infer<(typeof ViewRequestParams)['tools/call']>);
      case 'resources/read':
        return valueOf(await this.host.readResource((params as { uri: string }).uri));
      case 'ui/open-link':
        return this.#openLink((params as { url: string }).url);
      case 'ui/message':
        return this.#chatMessage((params as { content: { type: string; text?: string }[] }).content);
      case 'ui/request-display-mode':
        return this.#requestDisplayMode((params as { mode: string }).mode, active);
    }
  }

  #initialize(): Record<string, unknown> {
    return {
      protocolVersion: APP_PROTOCOL_VERSION,
      hostInfo: EXTENSION_INFO,
      hostCapabilities: {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        ...(this.host.suggest ? { message: { text: {} } } : {}),
      },
      hostContext: this.#context(),
    };
  }

  async #callTool(p: z.infer<(typeof ViewRequestParams)['tools/call']>): Promise<Record<string, unknown>> {
    if (this.#calls.size >= MAX_CALLS_IN_FLIGHT) throw new RpcError(SERVER_ERROR, 'Too many tool calls in flight from this view.');
    const operationId = this.host.newOperationId();
    this.#calls.add(operationId);
    try {
      return valueOf(await this.host.callTool(p.name, p.arguments ?? {}, operationId));
    } finally {
      this.#calls.delete(operationId);
    }
  }

  async #openLink(url: string): Promise<Record<string, unknown>> {
    const parsed = httpUrl(url);
    if (!parsed) throw new RpcError(INVALID_PARAMS, 'Only http(s) links can be opened.');
    return (await this.host.offerLink(parsed.href)) ? {} : { isError: true };
  }

  /** A suggestion for the user's draft, shown beside the view: never sent, never put in the draft by itself (U4). */
  #chatMessage(content: { type: string; text?: string }[]): Record<string, unknown> {
    if (!this.host.suggest) return { isError: true };
    const text = content
      .map((c) => (c.type === 'text' ? (c.text ?? '') : ''))
      .join('\n')
      .trim();
    return text && this.host.suggest(text) ? {} : { isError: true };
  }

  /** Back inline at any time; full panel only with the user's gesture in the view, else offered (U4). */
  #requestDisplayMode(wanted: string, active: boolean): Record<string, unknown> {
    if (wanted === 'fullscreen' && !active) this.host.offerFullscreen();
    else if (wanted === 'inline' || wanted === 'fullscreen') this.setDisplayMode(this.host.setDisplayMode(wanted));
    return { mode: this.#displayMode };
  }

  #notification(method: string, params: unknown) {
    switch (method) {
      case 'ui/notifications/initialized':
        this.#initialized = true;
        this.#deliver();
        return;
      case 'ui/notifications/size-changed': {
        const p = SizeChangedParamsSchema.safeParse(params ?? {});
        if (!p.success) return this.#drop();
        if (p.data.height !== undefined) this.host.setHeight(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, p.data.height))));
        return;
      }
      case 'ui/notifications/request-teardown':
      case 'notifications/message':
        // Logging is accepted and not shown; a view asking to be closed is left to the user.
        return;
      default:
        // Host-to-view notifications sent back, or unknown ones: ignored, never acted on.
        return this.#drop();
    }
  }

  /** Tool input then result (when there is one yet), once the view is ready for them. */
  #deliver() {
    if (!this.#initialized) return;
    if (!this.#delivered) {
      this.#delivered = true;
      this.#send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: this.call.arguments } });
    }
    if (this.call.result && !this.#resultSent) {
      this.#resultSent = true;
      this.#send({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: this.call.result });
    } else if (this.#cancelled !== undefined && !this.call.result && !this.#resultSent) {
      this.#resultSent = true;
      this.#send({ jsonrpc: '2.0', method: 'ui/notifications/tool-cancelled', params: { reason: this.#cancelled } });
    }
  }

  /** The call the view shows ended without a result (denied, cancelled, failed): the view is told so. */
  cancelled(reason: string) {
    if (this.call.result || this.#cancelled !== undefined) return;
    this.#cancelled = reason;
    this.#deliver();
  }

  /** The call the view shows finished: its result goes to the view now, or right after it is ready. */
  deliverResult(result: CallToolResult) {
    if (this.call.result) return;
    this.call.result = result;
    this.#deliver();
  }

  #context(): Record<string, unknown> {
    return {
      ...this.context(),
      toolInfo: { tool: this.call.tool },
      displayMode: this.#displayMode,
      availableDisplayModes: ['inline', 'fullscreen'],
    };
  }

  /** The element changed the display mode (the user's button); the view is told. */
  setDisplayMode(mode: 'inline' | 'fullscreen') {
    if (mode === this.#displayMode) return;
    this.#displayMode = mode;
    this.#send({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: this.#context() });
  }

  /**
   * Asks the view to tear down, waiting at most {@link TEARDOWN_TIMEOUT_MS}; cancels the view's
   * calls in flight. Resolves true when the view answered in time. Nothing is sent after this.
   */
  async teardown(timeoutMs = TEARDOWN_TIMEOUT_MS): Promise<boolean> {
    if (this.#closed) return false;
    for (const op of this.#calls) this.host.cancel(op);
    const ok = await this.#peer
      .request(this.#toView, (id) => ({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: {} }), { timeoutMs })
      .then(
        () => true,
        () => false,
      );
    this.#closed = true;
    return ok;
  }

  /** Stops at once: nothing more is received or sent; calls in flight are cancelled. */
  close() {
    for (const op of this.#calls) this.host.cancel(op);
    this.#closed = true;
    // A teardown still waiting ends now, unanswered.
    this.#peer.closed(this.#toView);
  }
}
