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
 *
 * `research` runs as a task of the Tasks extension (`io.modelcontextprotocol/tasks`, R6). The SDK v2
 * server 2.4.0 cannot answer with a task (it refuses any `resultType` but `complete` on this
 * revision), so the extension's wire is spoken by a stand-in in front of it, exactly as the
 * extension's specification writes it: `tools/call` → `resultType: "task"` (poll interval 0 ms,
 * which a client must clamp); `tasks/get` → the task, `working` for {@link TASK_STAGE_MS}, then
 * (with `ask`) `input_required` with an `elicitation/create` under the key `topic` until
 * `tasks/update` answers it, then `completed` with the tool result inlined; `tasks/cancel` →
 * `cancelled`. Everything else is the real server's.
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
  /** The stand-in's tasks by id: their state, and the answers `tasks/update` brought. */
  tasks: Map<string, StandInTask>;
  addTool(name: string): void;
  close(): Promise<void>;
}

const SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a stand-in task works before it asks or completes. */
export const TASK_STAGE_MS = 600;

export interface StandInTask {
  taskId: string;
  topic: string;
  ask: boolean;
  createdAt: number;
  status: 'working' | 'input_required' | 'completed' | 'cancelled';
  answer?: unknown;
  polls: number[];
}

export async function startModernServer(options: { legacy?: 'stateless' | 'reject'; port?: number } = {}): Promise<ModernServer> {
  const extraTools: string[] = [];
  const statesSent: string[] = [];
  const statesEchoed: string[] = [];
  const state = { aborted: 0 };
  const build = () => {
    const server = new McpServer(
      { name: 'modern-demo', version: '2.4.0' },
      { capabilities: { tools: { listChanged: true }, extensions: { [TASKS_EXTENSION]: {} } } },
    );
    server.registerTool(
      'research',
      {
        description: 'Researches a topic as a task; with ask, it asks which angle first.',
        inputSchema: fromJsonSchema(objectOf({ topic: { type: 'string' }, ask: { type: 'boolean' } })),
      },
      () => ({ content: [{ type: 'text', text: 'the stand-in answers this tool' }] }),
    );
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
  const tasks = new Map<string, StandInTask>();
  const fetchFn = (request: Request) => tasksStandIn(request, tasks) ?? handler.fetch(request);
  const http = createServer((req, res) => void serve(req, res, fetchFn, seen).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    seen,
    statesSent,
    statesEchoed,
    tasks,
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

/** The Tasks extension's wire for `research` and `tasks/*` (see the file's comment); undefined for the real server. */
function tasksStandIn(request: Request, tasks: Map<string, StandInTask>): Promise<Response> | undefined {
  const method = request.headers.get('mcp-method');
  const name = request.headers.get('mcp-name');
  if (!(method === 'tools/call' && name === 'research') && !method?.startsWith('tasks/')) return undefined;
  return request.json().then((body: { id: number; params: Record<string, unknown> }) => {
    const reply = (result: Record<string, unknown>) =>
      Response.json({ jsonrpc: '2.0', id: body.id, result }, { headers: { 'content-type': 'application/json' } });
    const fail = (code: number, message: string) => Response.json({ jsonrpc: '2.0', id: body.id, error: { code, message } });
    const declared = (body.params['_meta'] as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.[
      'io.modelcontextprotocol/clientCapabilities'
    ]?.extensions?.[TASKS_EXTENSION];
    if (!declared) return fail(-32021, 'Missing required client capability');
    if (method === 'tools/call') {
      const args = (body.params['arguments'] ?? {}) as { topic?: string; ask?: boolean };
      const task: StandInTask = {
        taskId: `task-${tasks.size + 1}`,
        topic: String(args.topic),
        ask: args.ask === true,
        createdAt: Date.now(),
        status: 'working',
        polls: [],
      };
      tasks.set(task.taskId, task);
      return reply({ resultType: 'task', ...wireTask(task), statusMessage: 'Started' });
    }
    const task = tasks.get(String(body.params['taskId']));
    if (!task) return fail(-32602, 'Failed to retrieve task: Task not found');
    if (name !== task.taskId) return fail(-32001, 'Mcp-Name does not match params.taskId');
    if (method === 'tasks/cancel') {
      task.status = 'cancelled';
      return reply({ resultType: 'complete' });
    }
    if (method === 'tasks/update') {
      task.answer = (body.params['inputResponses'] as Record<string, unknown> | undefined)?.['topic'];
      if (task.answer !== undefined) task.status = 'working';
      return reply({ resultType: 'complete' });
    }
    task.polls.push(Date.now());
    advance(task);
    return reply({ resultType: 'complete', ...wireTask(task) });
  });
}

/** The stand-in task's next state by time: work, ask (once, with `ask`), work, complete. */
function advance(task: StandInTask) {
  if (task.status === 'cancelled' || task.status === 'completed') return;
  const age = Date.now() - task.createdAt;
  if (task.ask && task.answer === undefined) {
    if (age >= TASK_STAGE_MS) task.status = 'input_required';
    return;
  }
  if (age >= (task.ask ? 2 : 1) * TASK_STAGE_MS) task.status = 'completed';
}

function wireTask(task: StandInTask): Record<string, unknown> {
  const angle = (task.answer as { content?: { angle?: string } } | undefined)?.content?.angle;
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 60_000,
    pollIntervalMs: 0,
    ...(task.status === 'working' ? { statusMessage: `Researching ${task.topic}…` } : {}),
    ...(task.status === 'input_required'
      ? {
          statusMessage: 'Which angle?',
          inputRequests: {
            topic: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: `Which angle on ${task.topic}?`,
                requestedSchema: { type: 'object', properties: { angle: { type: 'string', title: 'Angle' } }, required: ['angle'] },
              },
            },
          },
        }
      : {}),
    ...(task.status === 'completed'
      ? {
          result: {
            content: [{ type: 'text', text: `Report on ${task.topic}${angle ? ` from the ${angle} angle` : ''}` }],
            isError: false,
          },
        }
      : {}),
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
