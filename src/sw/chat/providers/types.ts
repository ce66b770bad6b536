/**
 * What the chat's run loop and the wire adapters share (section P): a neutral conversation that
 * each adapter turns into its own request body, the events a streamed answer produces, and the
 * provider's failures in plain words. Nothing here knows a wire format.
 */
import type { ChatErrorKind } from '../../../protocol/error-codes.js';
import { say, type Said, type Wording } from '../../../protocol/wording.js';

export type ProviderKind = 'openai' | 'anthropic';

/** A provider ready to be called: the API key is plaintext here, in memory only for the request. */
export interface ProviderTarget {
  kind: ProviderKind;
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** How long to wait for the first byte of the answer, and for the next chunk after it (T1); defaults in stall-guard.ts. */
  firstByteTimeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** A tool as the model sees it: the AgentTool name, its description and the server's raw `inputSchema`. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolCallRequest {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text, possibly invalid). */
  arguments: string;
}

export type ChatTurn =
  | { role: 'user'; text: string }
  | {
      role: 'assistant';
      text: string;
      toolCalls: ToolCallRequest[];
      /** Provider blocks that must go back unmodified with this turn (Anthropic thinking with tools); never text. */
      replay?: unknown[];
    }
  | { role: 'tool'; callId: string; name: string; content: string; isError: boolean };

export interface TurnRequest {
  system?: string;
  turns: ChatTurn[];
  tools: ToolSpec[];
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}

/** One assistant turn, complete. */
export interface TurnResult {
  text: string;
  toolCalls: ToolCallRequest[];
  usage: Usage;
  stopReason: string;
  /** The model's reasoning as it showed it (`reasoning_content`, `reasoning`, thinking blocks): for the user only. */
  reasoning?: string;
  /** Blocks to send back unmodified with this turn while its tool calls are answered (see ChatTurn). */
  replay?: unknown[];
}

/** The chat error kinds a provider names (src/protocol/error-codes.ts); the run loop adds `internal`. */
export type ProviderErrorKind = Exclude<ChatErrorKind, 'internal' | 'unknown'>;

/**
 * A provider failure whose `message` is plain English words; it never contains the key. The
 * `wording` says the same in the user's language (the panel translates it), and `detail` is the
 * provider's own explanation, quoted as it came (the English message already ends with it).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly wording: Wording | undefined;
  constructor(
    readonly kind: ProviderErrorKind,
    said: Said,
    readonly status?: number,
    /** How long the provider asked us to wait (Retry-After), in ms. */
    readonly retryAfterMs?: number,
    readonly detail?: string,
  ) {
    super(`${said.message}${detail ? ` The provider said: “${detail}”` : ''}`);
    this.wording = said.wording;
  }
}

/** The one error of a turn the user stopped, whichever adapter noticed the abort. */
export function cancelledError(): ProviderError {
  return new ProviderError('cancelled', say('reasonChatStopped'));
}

/** The text an assistant turn without text or tool calls is replayed as (providers reject empty turns). */
export const NO_ANSWER = '(no answer)';

/** ` (what the browser said)` after an error sentence, or nothing. */
export function noteOf(e: unknown): string {
  return e instanceof Error && e.message ? ` (${e.message})` : '';
}

/** What a turn is doing before its answer streams (T1): waiting for the model, or waiting to retry. */
export type TurnPhase = { kind: 'waiting-model' } | { kind: 'retrying'; until: number; attempt: number; status?: number | undefined };

export interface StreamHooks {
  /** A piece of the answer's text, as it arrives. */
  onText(delta: string): void;
  /** A piece of the model's reasoning, as it arrives (shown collapsed, never sent back). */
  onReasoning?(delta: string): void;
  /** The turn waits to retry, or asks again after the wait. */
  onPhase?(phase: TurnPhase): void;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
