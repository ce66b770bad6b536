/**
 * OpenAI-compatible Chat Completions (`POST {base}/chat/completions`, `stream: true`): OpenAI,
 * DeepSeek, Qwen compatible mode, Moonshot, OpenRouter, and Ollama / LM Studio / vLLM on loopback.
 * Tools go as `{type: 'function', function: {name, description, parameters}}` with the server's
 * raw schema as `parameters`. The stream is `data: {chunk}` lines ending in `data: [DONE]`; a
 * tool call arrives in `delta.tool_calls` pieces keyed by `index` (id and name first, then the
 * arguments text in fragments), several calls in one turn each with their own index; usage comes
 * in a last chunk with empty `choices` when `stream_options.include_usage` is set (a server that
 * refuses the option is asked again without it, once). Reasoning models add `reasoning_content`
 * (DeepSeek) or `reasoning` (OpenRouter, vLLM, Ollama) deltas: shown to the user, never sent back
 * (DeepSeek refuses a request that carries them). Tool-call assembly: openai-tool-calls.ts.
 */
import { say } from '../../../protocol/wording.js';
import type { WireFormat } from './http.js';
import { ToolCallAssembler, type ToolCallPiece } from './openai-tool-calls.js';
import { readSse } from './sse.js';
import {
  cancelledError,
  ProviderError,
  type ChatTurn,
  type ProviderTarget,
  type StreamHooks,
  type ToolSpec,
  type TurnRequest,
  type TurnResult,
} from './types.js';

interface OpenAiDelta {
  content?: string | null;
  /** DeepSeek (and vLLM before 0.9, SGLang). */
  reasoning_content?: string | null;
  /** OpenRouter, vLLM, Ollama. */
  reasoning?: string | null;
  tool_calls?: ToolCallPiece[] | null;
  /** The legacy single call (`finish_reason: "function_call"`). */
  function_call?: { name?: string | null; arguments?: unknown } | null;
}

interface OpenAiChunk {
  choices?: Array<{ index?: number; delta?: OpenAiDelta | null; finish_reason?: string | null }> | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

function messagesOf(request: TurnRequest): unknown[] {
  const out: unknown[] = [];
  if (request.system) out.push({ role: 'system', content: request.system });
  for (const turn of request.turns) out.push(messageOf(turn));
  return out;
}

function messageOf(turn: ChatTurn): unknown {
  switch (turn.role) {
    case 'user':
      return { role: 'user', content: turn.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: turn.text || null,
        ...(turn.toolCalls.length
          ? { tool_calls: turn.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: turn.callId, content: turn.content };
  }
}

/**
 * Base URLs whose server refused `stream_options` (a 400 or 422, then accepted the request without
 * it): asked without it from then on, for the worker's life. Bounded: a few providers at most.
 */
const withoutStreamOptions = new Set<string>();
const MAX_REMEMBERED = 50;

export function openAiBody(target: ProviderTarget, request: TurnRequest, options: { streamOptions?: boolean } = {}) {
  const streamOptions = options.streamOptions ?? !withoutStreamOptions.has(target.baseUrl);
  return {
    model: target.model,
    stream: true,
    // Usage arrives in a last chunk with empty `choices` only when asked for.
    ...(streamOptions ? { stream_options: { include_usage: true } } : {}),
    messages: messagesOf(request),
    ...(request.tools.length ? { tools: openAiTools(request.tools) } : {}),
  };
}

/** The tool definitions as sent; the chat's tool budget (T2) measures exactly these. */
export function openAiTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}

/** A 400/422 to a request with `stream_options`: the same request without it, once; remembered if that works. */
function retryWithoutStreamOptions(target: ProviderTarget, request: TurnRequest, error: ProviderError) {
  if ((error.status !== 400 && error.status !== 422) || withoutStreamOptions.has(target.baseUrl)) return undefined;
  return {
    body: openAiBody(target, request, { streamOptions: false }),
    accepted: () => {
      if (withoutStreamOptions.size >= MAX_REMEMBERED) withoutStreamOptions.clear();
      withoutStreamOptions.add(target.baseUrl);
    },
  };
}

export function openAiUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** The turn being assembled from the stream. */
interface Assembly {
  result: TurnResult;
  calls: ToolCallAssembler;
  reasoning: string;
}

function chunkOf(data: string): OpenAiChunk {
  try {
    return JSON.parse(data) as OpenAiChunk;
  } catch {
    throw new ProviderError('bad-response', say('reasonChatChunkNotJson'));
  }
}

function applyDelta(a: Assembly, delta: OpenAiDelta, hooks: StreamHooks) {
  if (typeof delta.content === 'string' && delta.content) {
    a.result.text += delta.content;
    hooks.onText(delta.content);
  }
  const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
  if (typeof reasoning === 'string' && reasoning) {
    a.reasoning += reasoning;
    hooks.onReasoning?.(reasoning);
  }
  for (const piece of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) if (piece) a.calls.add(piece);
  if (delta.function_call) a.calls.add({ index: 0, function: delta.function_call });
}

function applyChunk(a: Assembly, chunk: OpenAiChunk, hooks: StreamHooks) {
  if (chunk.error)
    throw new ProviderError('provider-server', say('reasonChatStreamError', { detail: chunk.error.message ?? 'no details' }));
  if (chunk.usage) {
    if (typeof chunk.usage.prompt_tokens === 'number') a.result.usage.inputTokens = chunk.usage.prompt_tokens;
    if (typeof chunk.usage.completion_tokens === 'number') a.result.usage.outputTokens = chunk.usage.completion_tokens;
  }
  for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
    if ((choice.index ?? 0) !== 0) continue;
    applyDelta(a, choice.delta ?? {}, hooks);
    // `tool_calls`, `function_call`, `stop` (some servers, even with calls), `length`; the calls decide, not the reason.
    if (choice.finish_reason) a.result.stopReason = choice.finish_reason;
  }
}

/** Reads a Chat Completions SSE stream to its end and assembles the turn. */
export async function parseOpenAiStream(body: ReadableStream<Uint8Array>, hooks: StreamHooks, signal?: AbortSignal): Promise<TurnResult> {
  const a: Assembly = { result: { text: '', toolCalls: [], usage: {}, stopReason: '' }, calls: new ToolCallAssembler(), reasoning: '' };
  let finished = false;
  for await (const event of readSse(body, signal)) {
    if (event.data === '[DONE]') {
      finished = true;
      break;
    }
    applyChunk(a, chunkOf(event.data), hooks);
  }
  if (signal?.aborted) throw cancelledError();
  if (!finished && !a.result.stopReason) throw new ProviderError('network', say('reasonChatStreamCut'));
  a.result.toolCalls = a.calls.calls();
  if (a.reasoning) a.result.reasoning = a.reasoning;
  return a.result;
}

export const openAiWire: WireFormat = {
  url: openAiUrl,
  headers: (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  body: (target, request) => openAiBody(target, request),
  retryBody: retryWithoutStreamOptions,
  parse: parseOpenAiStream,
};
