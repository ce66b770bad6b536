/**
 * A model provider on 127.0.0.1 for the chat tests, speaking the two wire formats exactly as
 * their public API references show them:
 * - OpenAI Chat Completions streaming (`POST /v1/chat/completions`): `data: {chat.completion.chunk}`
 *   lines, `delta.content`, `delta.tool_calls` pieces keyed by `index` (id, type and name first,
 *   then `function.arguments` fragments), a `finish_reason`, a usage chunk with empty `choices`
 *   when `stream_options.include_usage` is set, then `data: [DONE]`.
 * - Anthropic Messages streaming (`POST /v1/messages`): `event:` + `data:` pairs `message_start`,
 *   `content_block_start`, `ping`, `content_block_delta` (`text_delta`, `input_json_delta`),
 *   `content_block_stop`, `message_delta` (stop_reason, usage), `message_stop`.
 * Each test queues the answers it wants (`script`), in order; every request body is recorded.
 * Beyond the happy path (T1, T3): a stall before the headers, after them, or mid-stream
 * (`hangAfter`); a redirect; exact recorded event shapes of other OpenAI-compatible servers
 * (`raw`); and `GET /v1/models`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOn } from './listen.js';

export interface ScriptedToolCall {
  id: string;
  name: string;
  /** The arguments JSON, sent in fragments of `argumentChunk` characters. */
  arguments: string;
}

export interface ScriptedTurn {
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  usage?: { input: number; output: number };
  /** Pause between SSE events, in ms. */
  delayMs?: number;
  /** Pause before the headers and the first event, in ms: a remote provider's round trip and its time to first token. */
  firstByteMs?: number;
  /** Send this many events, then keep the stream open without ending it (for Stop mid-stream). */
  hangAfter?: number;
}

export type ScriptedAnswer =
  | ({ kind: 'stream' } & ScriptedTurn)
  | { kind: 'status'; status: number; headers?: Record<string, string>; body: unknown }
  /** Exactly these SSE events (each a whole `data: …\n\n` or `event: …` block), for recorded shapes of other servers. */
  | { kind: 'raw'; events: string[] }
  /** Never answers: no headers, no body (until the client goes away). */
  | { kind: 'stall-before-headers' }
  /** Sends the 200 and its SSE headers, then nothing. */
  | { kind: 'stall-after-headers' }
  /** A redirect (307/308) to `location`. */
  | { kind: 'redirect'; status: number; location: string };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** `Date.now()` when the request arrived, and when its answer was fully written (for the bench). */
  receivedAt: number;
  endedAt?: number;
}

export interface ProviderServer {
  /** `http://127.0.0.1:PORT/v1` (OpenAI-compatible base URL). */
  openAiBase: string;
  /** `http://127.0.0.1:PORT` (Anthropic base URL). */
  anthropicBase: string;
  requests: RecordedRequest[];
  script(...answers: ScriptedAnswer[]): void;
  /** What `GET /v1/models` answers (OpenAI and Anthropic list shapes alike: `{data: [{id}]}`); a status, or a redirect. */
  models: { ids: string[]; status?: number; location?: string; body?: string };
  /** Streams whose client went away before the end (a Stop). */
  aborted: number;
  close(): Promise<void>;
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/** One SSE event as a server writes it: `data: {json}` (and `event:` when named). */
export const sseEvent = sse;

export function openAiEvents(model: string, turn: ScriptedTurn): string[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_test' };
  const choice = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const events = [sse(choice({ role: 'assistant', content: '', refusal: null }))];
  for (const t of turn.text ?? []) events.push(sse(choice({ content: t })));
  (turn.toolCalls ?? []).forEach((c, index) => {
    events.push(sse(choice({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] })));
    for (const part of chunks(c.arguments, 7)) events.push(sse(choice({ tool_calls: [{ index, function: { arguments: part } }] })));
  });
  events.push(sse(choice({}, turn.toolCalls?.length ? 'tool_calls' : 'stop')));
  const usage = turn.usage ?? { input: 10, output: 5 };
  events.push(
    sse({
      ...base,
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    }),
  );
  events.push(sse('[DONE]'));
  return events;
}

export function anthropicEvents(model: string, turn: ScriptedTurn): string[] {
  const usage = turn.usage ?? { input: 10, output: 5 };
  const events = [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_test',
          type: 'message',
          role: 'assistant',
          content: [],
          model,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  let index = 0;
  if (turn.text?.length) {
    events.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
    events.push(sse({ type: 'ping' }, 'ping'));
    for (const t of turn.text)
      events.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }, 'content_block_delta'));
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  for (const c of turn.toolCalls ?? []) {
    events.push(
      sse(
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } },
        'content_block_start',
      ),
    );
    for (const part of chunks(c.arguments, 7))
      events.push(
        sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'),
      );
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  events.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      'message_delta',
    ),
  );
  events.push(sse({ type: 'message_stop' }, 'message_stop'));
  return events;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** `port`: a fixed one (the upgrade fixture stores its base URL); any free one by default. */
export async function startProviderServer(port = 0): Promise<ProviderServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const state = { aborted: 0 };
  const server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const receivedAt = Date.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-allow-methods': 'POST',
      });
      res.end();
      return;
    }
    const isChat = req.method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/messages');
    // Taken on arrival: a client that gives up while its body is still being read has used its answer.
    const scripted = isChat ? queue.shift() : undefined;
    const body = await readBody(req).catch((): Record<string, unknown> => ({}));
    const record: RecordedRequest = { path, headers: req.headers, body, receivedAt };
    requests.push(record);
    const isOpenAi = path === '/v1/chat/completions';
    const isAnthropic = path === '/v1/messages';
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'GET' && path === '/v1/models') return answerModels(res, cors);
    if (req.method !== 'POST' || (!isOpenAi && !isAnthropic)) {
      res.writeHead(404, { 'content-type': 'application/json', ...cors });
      res.end(JSON.stringify({ error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    const answer = scripted ?? { kind: 'stream', text: ['(nothing scripted)'] };
    if (answer.kind === 'status') {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...cors, ...answer.headers });
      res.end(JSON.stringify(answer.body));
      return;
    }
    if (answer.kind === 'redirect') {
      res.writeHead(answer.status, { location: answer.location, ...cors });
      res.end();
      return;
    }
    if (answer.kind === 'stall-before-headers') {
      res.on('close', () => state.aborted++);
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'test-model';
    if (answer.kind === 'stream' && answer.firstByteMs) await new Promise((r) => setTimeout(r, answer.firstByteMs));
    const events =
      answer.kind === 'raw'
        ? answer.events
        : answer.kind === 'stall-after-headers'
          ? []
          : isOpenAi
            ? openAiEvents(model, answer)
            : anthropicEvents(model, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...cors });
    let closed = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        closed = true;
        state.aborted++;
      }
    });
    if (answer.kind === 'stall-after-headers') {
      res.flushHeaders();
      return; // left open until the client goes away
    }
    const turn: ScriptedTurn = answer.kind === 'stream' ? answer : {};
    for (const [i, e] of events.entries()) {
      if (closed) return;
      if (turn.hangAfter !== undefined && i >= turn.hangAfter) return; // left open until the client goes away
      res.write(e);
      if (turn.delayMs) await new Promise((r) => setTimeout(r, turn.delayMs));
    }
    res.end();
    record.endedAt = Date.now();
  }

  const models: ProviderServer['models'] = { ids: ['m-a', 'm-b'] };
  function answerModels(res: ServerResponse, cors: Record<string, string>) {
    if (models.location) {
      res.writeHead(models.status ?? 307, { location: models.location, ...cors });
      res.end();
      return;
    }
    res.writeHead(models.status ?? 200, { 'content-type': 'application/json', ...cors });
    // OpenAI: `{object: 'list', data: [{id, object, created, owned_by}]}`; Anthropic adds `has_more`, `first_id`, `last_id`.
    const data = models.ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      created: 1_700_000_000,
      owned_by: 'test',
      display_name: id,
    }));
    res.end(
      models.body ??
        JSON.stringify({ object: 'list', data, has_more: false, first_id: models.ids[0] ?? null, last_id: models.ids.at(-1) ?? null }),
    );
  }

  const bound = await listenOn(server, port);
  return {
    openAiBase: `http://127.0.0.1:${bound}/v1`,
    anthropicBase: `http://127.0.0.1:${bound}`,
    requests,
    models,
    script: (...answers) => void queue.push(...answers),
    get aborted() {
      return state.aborted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- Tool budget (T2): the tools a received request offers, in either wire format ----

/** The tool names in a recorded request's `tools` (OpenAI `function.name`, Anthropic `name`); none when it has no `tools`. */
export function toolNamesOf(request: RecordedRequest): string[] {
  const tools = request.body.tools;
  if (!Array.isArray(tools)) return [];
  return tools.map((t: { name?: unknown; function?: { name?: unknown } }) => {
    const name = t.function?.name ?? t.name;
    return typeof name === 'string' ? name : '';
  });
}
