/**
 * Anthropic Messages (`POST {base}/v1/messages`, `stream: true`, `anthropic-version: 2023-06-01`).
 * Tools go as `{name, description, input_schema}` with the server's raw schema. The stream is
 * named events: `message_start` (input usage), `content_block_start` (a `text` block or a
 * `tool_use` block with id and name), `content_block_delta` (`text_delta`, or `input_json_delta`
 * fragments of a tool's input), `content_block_stop`, `message_delta` (stop reason, output
 * usage), `message_stop`; `ping` is ignored and `error` ends the turn. Several `tool_use`
 * blocks in one message are several calls. `thinking` blocks (`thinking_delta`, `signature_delta`)
 * and `redacted_thinking` blocks are the model's reasoning: shown to the user as "Thinking", never
 * sent back as text, and passed back unmodified with their turn while its tool calls are answered,
 * as the extended-thinking guide requires.
 */
import { say } from '../../../protocol/wording.js';
import type { WireFormat } from './http.js';
import { readSse } from './sse.js';
import {
  cancelledError,
  NO_ANSWER,
  ProviderError,
  type ChatTurn,
  type ProviderTarget,
  type StreamHooks,
  type ToolCallRequest,
  type ToolSpec,
  type TurnRequest,
  type TurnResult,
  type Usage,
} from './types.js';

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_TOKENS = 4096;

interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string; signature?: string; data?: string };
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
  };
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
      // Thinking blocks go back first and unmodified, signature and all, while their tool calls are answered.
      for (const block of turn.replay ?? []) push('assistant', block);
      if (turn.text) push('assistant', { type: 'text', text: turn.text });
      for (const c of turn.toolCalls) push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) });
      if (!turn.text && !turn.toolCalls.length) push('assistant', { type: 'text', text: NO_ANSWER });
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
    ...(request.tools.length ? { tools: anthropicTools(request.tools) } : {}),
  };
}

/** The tool definitions as sent; the chat's tool budget (T2) measures exactly these. */
export function anthropicTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
}

export function anthropicUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

type Block =
  | { kind: 'text' }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string };

/** The message being assembled from the stream: its content blocks by index, and the turn so far. */
interface Assembly {
  blocks: Map<number, Block>;
  result: TurnResult;
  /** `message_stop` arrived: the answer is complete. */
  stopped: boolean;
  reasoning: string;
}

function eventOf(data: string): AnthropicEvent {
  try {
    return JSON.parse(data) as AnthropicEvent;
  } catch {
    throw new ProviderError('bad-response', say('reasonChatEventNotJson'));
  }
}

function addUsage(usage: Usage, from: { input_tokens?: number; output_tokens?: number } | undefined) {
  if (typeof from?.input_tokens === 'number') usage.inputTokens = from.input_tokens;
  if (typeof from?.output_tokens === 'number') usage.outputTokens = from.output_tokens;
}

function addText(a: Assembly, text: string | undefined, hooks: StreamHooks) {
  if (!text) return;
  a.result.text += text;
  hooks.onText(text);
}

function blockOf(b: NonNullable<AnthropicEvent['content_block']>): Block {
  switch (b.type) {
    case 'tool_use':
      return { kind: 'tool', id: b.id ?? '', name: b.name ?? '', json: '' };
    case 'thinking':
      return { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
    case 'redacted_thinking':
      return { kind: 'redacted', data: b.data ?? '' };
    default:
      return { kind: 'text' };
  }
}

function addReasoning(a: Assembly, text: string | undefined, hooks: StreamHooks) {
  if (!text) return;
  a.reasoning += text;
  hooks.onReasoning?.(text);
}

function startBlock(a: Assembly, event: AnthropicEvent, hooks: StreamHooks) {
  const b = event.content_block ?? {};
  const block = blockOf(b);
  a.blocks.set(event.index ?? 0, block);
  if (b.type === 'text') addText(a, b.text, hooks);
  if (block.kind === 'thinking') addReasoning(a, block.thinking, hooks);
}

function applyDelta(a: Assembly, event: AnthropicEvent, hooks: StreamHooks) {
  const d = event.delta ?? {};
  const block = a.blocks.get(event.index ?? 0);
  if (d.type === 'text_delta') addText(a, d.text, hooks);
  else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string' && block?.kind === 'tool') block.json += d.partial_json;
  else if (d.type === 'thinking_delta' && typeof d.thinking === 'string' && block?.kind === 'thinking') {
    block.thinking += d.thinking;
    addReasoning(a, d.thinking, hooks);
  } else if (d.type === 'signature_delta' && typeof d.signature === 'string' && block?.kind === 'thinking') block.signature += d.signature;
}

function streamError(error: AnthropicEvent['error']): ProviderError {
  const kind = error?.type === 'overloaded_error' || error?.type === 'api_error' ? 'provider-server' : 'bad-response';
  return new ProviderError(kind, say('reasonChatStreamError', { detail: error?.message ?? error?.type ?? 'no details' }));
}

function applyEvent(a: Assembly, type: string | undefined, event: AnthropicEvent, hooks: StreamHooks) {
  switch (type) {
    case 'message_start':
      return addUsage(a.result.usage, event.message?.usage);
    case 'content_block_start':
      return startBlock(a, event, hooks);
    case 'content_block_delta':
      return applyDelta(a, event, hooks);
    case 'message_delta':
      if (event.delta?.stop_reason) a.result.stopReason = event.delta.stop_reason;
      return addUsage(a.result.usage, event.usage);
    case 'message_stop':
      a.stopped = true;
      return;
    case 'error':
      throw streamError(event.error);
    default:
    // `ping` and event types added later are ignored, as the API reference asks.
  }
}

function toolCallsOf(blocks: Map<number, Block>): ToolCallRequest[] {
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([index, b]) => (b.kind === 'tool' ? [{ id: b.id || `toolu_${index}`, name: b.name, arguments: b.json || '{}' }] : []));
}

/** The thinking blocks as the API wants them back: exactly as they came. */
function replayOf(blocks: Map<number, Block>): unknown[] {
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, b]): unknown[] => {
      if (b.kind === 'thinking') return [{ type: 'thinking', thinking: b.thinking, signature: b.signature }];
      return b.kind === 'redacted' ? [{ type: 'redacted_thinking', data: b.data }] : [];
    });
}

export async function parseAnthropicStream(
  body: ReadableStream<Uint8Array>,
  hooks: StreamHooks,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const a: Assembly = { blocks: new Map(), result: { text: '', toolCalls: [], usage: {}, stopReason: '' }, stopped: false, reasoning: '' };
  for await (const sse of readSse(body, signal)) {
    const event = eventOf(sse.data);
    applyEvent(a, event.type ?? sse.event, event, hooks);
    if (a.stopped) break;
  }
  if (signal?.aborted) throw cancelledError();
  if (!a.stopped) throw new ProviderError('network', say('reasonChatStreamCut'));
  a.result.toolCalls = toolCallsOf(a.blocks);
  const replay = replayOf(a.blocks);
  if (replay.length) a.result.replay = replay;
  if (a.reasoning) a.result.reasoning = a.reasoning;
  return a.result;
}

export const anthropicWire: WireFormat = {
  url: anthropicUrl,
  headers: (apiKey) => ({
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
    'anthropic-version': ANTHROPIC_VERSION,
    // The request carries the extension's Origin; Anthropic serves such requests only with this opt-in.
    'anthropic-dangerous-direct-browser-access': 'true',
  }),
  body: anthropicBody,
  parse: parseAnthropicStream,
};
