/**
 * Anthropic Messages (`POST {base}/v1/messages`, `stream: true`, `anthropic-version: 2023-06-01`).
 * Tools go as `{name, description, input_schema}` with the server's raw schema. The stream is
 * named events: `message_start` (input usage), `content_block_start` (a `text` block or a
 * `tool_use` block with id and name), `content_block_delta` (`text_delta`, or `input_json_delta`
 * fragments of a tool's input), `content_block_stop`, `message_delta` (stop reason, output
 * usage), `message_stop`; `ping` is ignored and `error` ends the turn. Several `tool_use`
 * blocks in one message are several calls.
 */
import { say } from '../../../protocol/wording.js';
import { postForStream } from './http.js';
import { readSse } from './sse.js';
import { ProviderError, type ChatTurn, type FetchLike, type StreamHooks, type TurnRequest, type TurnResult } from './types.js';
import type { ProviderTarget } from './types.js';

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_TOKENS = 4096;

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { type?: string; message?: string };
}

function inputOf(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Anthropic wants alternating roles: consecutive tool results share one user message. */
function messagesOf(turns: ChatTurn[]): unknown[] {
  const out: Array<{ role: 'user' | 'assistant'; content: unknown[] }> = [];
  const push = (role: 'user' | 'assistant', block: unknown) => {
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const turn of turns) {
    if (turn.role === 'user') push('user', { type: 'text', text: turn.text });
    else if (turn.role === 'tool')
      push('user', { type: 'tool_result', tool_use_id: turn.callId, content: turn.content, ...(turn.isError ? { is_error: true } : {}) });
    else {
      if (turn.text) push('assistant', { type: 'text', text: turn.text });
      for (const c of turn.toolCalls) push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) });
      if (!turn.text && !turn.toolCalls.length) push('assistant', { type: 'text', text: '(no answer)' });
    }
  }
  return out;
}

export function anthropicBody(target: ProviderTarget, request: TurnRequest) {
  return {
    model: target.model,
    max_tokens: MAX_TOKENS,
    stream: true,
    ...(request.system ? { system: request.system } : {}),
    messages: messagesOf(request.turns),
    ...(request.tools.length
      ? { tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) }
      : {}),
  };
}

export function anthropicUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

export async function streamAnthropic(
  fetch: FetchLike,
  target: ProviderTarget,
  request: TurnRequest,
  hooks: StreamHooks,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const response = await postForStream({
    fetch,
    url: anthropicUrl(target.baseUrl),
    headers: {
      ...(target.apiKey ? { 'x-api-key': target.apiKey } : {}),
      'anthropic-version': ANTHROPIC_VERSION,
      // The request carries the extension's Origin; Anthropic serves such requests only with this opt-in.
      'anthropic-dangerous-direct-browser-access': 'true',
    },
    body: anthropicBody(target, request),
    ...(signal ? { signal } : {}),
    ...(target.apiKey ? { secret: target.apiKey } : {}),
  });
  return parseAnthropicStream(response.body!, hooks, signal);
}

export async function parseAnthropicStream(
  body: ReadableStream<Uint8Array>,
  hooks: StreamHooks,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const blocks = new Map<number, { kind: 'text' | 'tool'; id: string; name: string; json: string }>();
  const result: TurnResult = { text: '', toolCalls: [], usage: {}, stopReason: '' };
  let stopped = false;
  for await (const sse of readSse(body, signal)) {
    let event: AnthropicEvent;
    try {
      event = JSON.parse(sse.data) as AnthropicEvent;
    } catch {
      throw new ProviderError('bad-response', say('reasonChatEventNotJson'));
    }
    switch (event.type ?? sse.event) {
      case 'message_start': {
        const u = event.message?.usage;
        if (typeof u?.input_tokens === 'number') result.usage.inputTokens = u.input_tokens;
        if (typeof u?.output_tokens === 'number') result.usage.outputTokens = u.output_tokens;
        break;
      }
      case 'content_block_start': {
        const b = event.content_block ?? {};
        blocks.set(event.index ?? 0, { kind: b.type === 'tool_use' ? 'tool' : 'text', id: b.id ?? '', name: b.name ?? '', json: '' });
        if (b.type === 'text' && b.text) {
          result.text += b.text;
          hooks.onText(b.text);
        }
        break;
      }
      case 'content_block_delta': {
        const d = event.delta ?? {};
        if (d.type === 'text_delta' && d.text) {
          result.text += d.text;
          hooks.onText(d.text);
        } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          const block = blocks.get(event.index ?? 0);
          if (block) block.json += d.partial_json;
        }
        break;
      }
      case 'message_delta':
        if (event.delta?.stop_reason) result.stopReason = event.delta.stop_reason;
        if (typeof event.usage?.output_tokens === 'number') result.usage.outputTokens = event.usage.output_tokens;
        if (typeof event.usage?.input_tokens === 'number') result.usage.inputTokens = event.usage.input_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error': {
        const kind = event.error?.type === 'overloaded_error' || event.error?.type === 'api_error' ? 'server' : 'bad-response';
        throw new ProviderError(kind, say('reasonChatStreamError', { detail: event.error?.message ?? event.error?.type ?? 'no details' }));
      }
      default:
        // `ping` and event types added later are ignored, as the API reference asks.
        break;
    }
    if (stopped) break;
  }
  if (signal?.aborted) throw new ProviderError('cancelled', 'Stopped.');
  if (!stopped) throw new ProviderError('network', say('reasonChatStreamCut'));
  result.toolCalls = [...blocks.entries()]
    .filter(([, b]) => b.kind === 'tool')
    .sort(([a], [b]) => a - b)
    .map(([index, b]) => ({ id: b.id || `toolu_${index}`, name: b.name, arguments: b.json || '{}' }));
  return result;
}
