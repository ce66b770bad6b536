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
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** Send this many events, then keep the stream open without ending it (for Stop mid-stream). */
  hangAfter?: number;
}

export type ScriptedAnswer =
  ({ kind: 'stream' } & ScriptedTurn) | { kind: 'status'; status: number; headers?: Record<string, string>; body: unknown };

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
    const body = await readBody(req);
    const record: RecordedRequest = { path, headers: req.headers, body, receivedAt };
    requests.push(record);
    const isOpenAi = path === '/v1/chat/completions';
    const isAnthropic = path === '/v1/messages';
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method !== 'POST' || (!isOpenAi && !isAnthropic)) {
      res.writeHead(404, { 'content-type': 'application/json', ...cors });
      res.end(JSON.stringify({ error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    const answer = queue.shift() ?? { kind: 'stream', text: ['(nothing scripted)'] };
    if (answer.kind === 'status') {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...cors, ...answer.headers });
      res.end(JSON.stringify(answer.body));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'test-model';
    const events = isOpenAi ? openAiEvents(model, answer) : anthropicEvents(model, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...cors });
    let closed = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        closed = true;
        state.aborted++;
      }
    });
    for (const [i, e] of events.entries()) {
      if (closed) return;
      if (answer.hangAfter !== undefined && i >= answer.hangAfter) return; // left open until the client goes away
      res.write(e);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    }
    res.end();
    record.endedAt = Date.now();
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    openAiBase: `http://127.0.0.1:${bound}/v1`,
    anthropicBase: `http://127.0.0.1:${bound}`,
    requests,
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
