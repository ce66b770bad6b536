/**
 * An MCP server of the 2026-07-28 era, built on the official SDK v2 server package
 * (`@modelcontextprotocol/server`, `createMcpHandler`): stateless, one server instance per
 * request, `subscriptions/listen` for list changes. `legacy: 'reject'` makes it modern-only (a
 * 2025 `initialize` is refused with HTTP 400); `'stateless'` also serves 2025 clients.
 *
 * Its tools: `echo`; `ask-name`, which asks for the user's name through a multi round-trip
 * request (`input_required` with a form elicitation and a `requestState` that must come back
 * exactly); `regional`, whose `region` argument carries `x-mcp-header` (mirrored by the client to
 * `Mcp-Param-Region`); `broken-header`, whose annotation is invalid (a client must leave it out);
 * `consent`, which asks the user to open a page (URL-mode elicitation in an `input_required`);
 * `slow`, which waits until its request is aborted (counted in `aborted`).
 * `addTool()` adds one more and announces it to every listening client.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  McpServer,
  type JsonSchemaType,
} from '@modelcontextprotocol/server';

export interface SeenRequest {
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

export interface ModernServer {
  url: string;
  /** Every POST, its headers and parsed body, in order. */
  seen: SeenRequest[];
  /** The `requestState` values the server handed out, and the ones clients sent back. */
  statesSent: string[];
  statesEchoed: string[];
  /** How many `slow` calls saw their request end before they answered (the client closed the stream). */
  aborted: number;
  addTool(name: string): void;
  close(): Promise<void>;
}

const SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

export async function startModernServer(options: { legacy?: 'stateless' | 'reject'; port?: number } = {}): Promise<ModernServer> {
  const extraTools: string[] = [];
  const statesSent: string[] = [];
  const statesEchoed: string[] = [];
  const state = { aborted: 0 };
  const build = () => {
    const server = new McpServer({ name: 'modern-demo', version: '2.4.0' }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool(
      'echo',
      { description: 'Echoes its text.', inputSchema: fromJsonSchema(objectOf({ text: { type: 'string' } })) },
      (args) => ({
        content: [{ type: 'text', text: `echo: ${String((args as { text?: unknown }).text)}` }],
      }),
    );
    server.registerTool(
      'ask-name',
      { description: 'Asks the user for a name, then greets them.', inputSchema: fromJsonSchema(objectOf({})) },
      (_args, ctx) => {
        const echoed = ctx.mcpReq.requestState<string>();
        const answer = acceptedContent<{ name?: string }>(ctx.mcpReq.inputResponses, 'name');
        if (answer?.name) {
          if (typeof echoed === 'string') statesEchoed.push(echoed);
          return { content: [{ type: 'text', text: `Hello, ${answer.name}!` }] };
        }
        const state = `round-1:${statesSent.length}:ünïcode+/=`;
        statesSent.push(state);
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              message: 'What is your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
            }),
          },
          requestState: state,
        });
      },
    );
    server.registerTool(
      'regional',
      {
        description: 'Says which region it was routed to.',
        inputSchema: fromJsonSchema(objectOf({ region: { type: 'string', 'x-mcp-header': 'Region' } })),
      },
      (args, ctx) => {
        const header = ctx.http?.req?.headers.get('mcp-param-region') ?? 'none';
        return { content: [{ type: 'text', text: `region ${String((args as { region?: unknown }).region)} via header ${header}` }] };
      },
    );
    server.registerTool(
      'broken-header',
      {
        description: 'Its header annotation is invalid.',
        inputSchema: fromJsonSchema(objectOf({ n: { type: 'number', 'x-mcp-header': 'Bad Name' } })),
      },
      () => ({ content: [{ type: 'text', text: 'should never run' }] }),
    );
    server.registerTool(
      'consent',
      { description: 'Asks the user to open a consent page.', inputSchema: fromJsonSchema(objectOf({})) },
      (_args, ctx) => {
        const answer = ctx.mcpReq.inputResponses?.['consent'] as { action?: string } | undefined;
        if (answer) return { content: [{ type: 'text', text: `consent ${String(answer.action)}` }] };
        return inputRequired({
          inputRequests: {
            consent: inputRequired.elicitUrl({ message: 'Please approve access.', url: 'https://example.com/consent?step=1' }),
          },
        });
      },
    );
    server.registerTool(
      'slow',
      { description: 'Waits until the call is cancelled.', inputSchema: fromJsonSchema(objectOf({})) },
      (_args, ctx) => {
        const signal = ctx.http?.req?.signal;
        return new Promise((resolve) => {
          signal?.addEventListener('abort', () => {
            state.aborted++;
            resolve({ content: [{ type: 'text', text: 'too late' }] });
          });
        });
      },
    );
    for (const name of extraTools)
      server.registerTool(name, { description: `Added later: ${name}.`, inputSchema: fromJsonSchema(objectOf({})) }, () => ({
        content: [{ type: 'text', text: `${name} ran` }],
      }));
    return server;
  };
  const handler = createMcpHandler(build, { legacy: options.legacy ?? 'reject', keepAliveMs: 0 });
  const seen: SeenRequest[] = [];
  const http = createServer((req, res) => void serve(req, res, handler.fetch, seen).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    seen,
    statesSent,
    statesEchoed,
    get aborted() {
      return state.aborted;
    },
    addTool(name) {
      extraTools.push(name);
      void handler.notify.toolsChanged();
    },
    close: () => closeAll(http, handler.close),
  };
}

function objectOf(properties: Record<string, unknown>): JsonSchemaType {
  return { $schema: SCHEMA_2020, type: 'object', properties } as JsonSchemaType;
}

async function closeAll(http: HttpServer, closeHandler: () => Promise<void>) {
  await closeHandler().catch(() => undefined);
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}

/** node:http ⇄ the handler's fetch face, streaming the answer (SSE for listen streams). */
async function serve(req: IncomingMessage, res: ServerResponse, fetchFn: (r: Request) => Promise<Response>, seen: SeenRequest[]) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  if (req.method === 'POST') {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString());
    } catch {
      body = undefined;
    }
    seen.push({ method: (body as { method?: string } | undefined)?.method, headers: Object.fromEntries(headers), body });
  }
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: abort.signal,
    ...(raw.length && req.method !== 'GET' ? { body: raw } : {}),
  });
  const answer = await fetchFn(request);
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (!answer.body) return void res.end();
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away.
  }
  res.end();
}
