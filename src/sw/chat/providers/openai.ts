/**
 * OpenAI-compatible Chat Completions (`POST {base}/chat/completions`, `stream: true`): OpenAI,
 * DeepSeek, Qwen compatible mode, Moonshot, OpenRouter, and Ollama / LM Studio / vLLM on loopback.
 * Tools go as `{type: 'function', function: {name, description, parameters}}` with the server's
 * raw schema as `parameters`. The stream is `data: {chunk}` lines ending in `data: [DONE]`; a
 * tool call arrives in `delta.tool_calls` pieces keyed by `index` (id and name first, then the
 * arguments text in fragments), several calls in one turn each with their own index; usage comes
 * in a last chunk with empty `choices` when `stream_options.include_usage` is set.
 */
import { say } from '../../../protocol/wording.js';
import type { WireFormat } from './http.js';
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

interface OpenAiChunk {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
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

export function openAiBody(target: ProviderTarget, request: TurnRequest) {
  return {
    model: target.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: messagesOf(request),
    ...(request.tools.length ? { tools: openAiTools(request.tools) } : {}),
  };
}

/** The tool definitions as sent; the chat's tool budget (T2) measures exactly these. */
export function openAiTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}

export function openAiUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** Reads a Chat Completions SSE stream to its end and assembles the turn. */
export async function parseOpenAiStream(body: ReadableStream<Uint8Array>, hooks: StreamHooks, signal?: AbortSignal): Promise<TurnResult> {
  let text = '';
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  const result: TurnResult = { text: '', toolCalls: [], usage: {}, stopReason: '' };
  let finished = false;
  for await (const event of readSse(body, signal)) {
    if (event.data === '[DONE]') {
      finished = true;
      break;
    }
    let chunk: OpenAiChunk;
    try {
      chunk = JSON.parse(event.data) as OpenAiChunk;
    } catch {
      throw new ProviderError('bad-response', say('reasonChatChunkNotJson'));
    }
    if (chunk.error)
      throw new ProviderError('provider-server', say('reasonChatStreamError', { detail: chunk.error.message ?? 'no details' }));
    if (chunk.usage) {
      if (typeof chunk.usage.prompt_tokens === 'number') result.usage.inputTokens = chunk.usage.prompt_tokens;
      if (typeof chunk.usage.completion_tokens === 'number') result.usage.outputTokens = chunk.usage.completion_tokens;
    }
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content) {
        text += delta.content;
        hooks.onText(delta.content);
      }
      for (const piece of delta.tool_calls ?? []) {
        const index = piece.index ?? 0;
        const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name += piece.function.name;
        if (piece.function?.arguments) call.arguments += piece.function.arguments;
        calls.set(index, call);
      }
      if (choice.finish_reason) result.stopReason = choice.finish_reason;
    }
  }
  if (signal?.aborted) throw cancelledError();
  if (!finished && !result.stopReason) throw new ProviderError('network', say('reasonChatStreamCut'));
  result.text = text;
  result.toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, c]) => ({ id: c.id || `call_${index}`, name: c.name, arguments: c.arguments }));
  return result;
}

export const openAiWire: WireFormat = {
  url: openAiUrl,
  headers: (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  body: openAiBody,
  parse: parseOpenAiStream,
};
