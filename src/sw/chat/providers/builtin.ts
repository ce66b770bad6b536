/**
 * Chrome's built-in model through the Prompt API (section P): the `LanguageModel` global of
 * extension contexts, the service worker included, where the browser has one. Feature-detected:
 * offered only when `LanguageModel.availability()` says anything but `unavailable` (a model that
 * still has to be downloaded is fetched by Chrome on the first `create`). No key, no network
 * request of ours, and no tools: the run loop sends none and the chat says so.
 *
 * The conversation so far becomes `initialPrompts` (system, user, assistant; tool steps as plain
 * assistant text), the last user message is the prompt, and `promptStreaming` yields the answer's
 * text in pieces. A fresh session per turn keeps no state outside the chat's own record.
 */
import { say } from '../../../protocol/wording.js';
import { cancelledError, NO_ANSWER, ProviderError, type ChatTurn, type StreamHooks, type TurnRequest, type TurnResult } from './types.js';

type PromptRole = 'system' | 'user' | 'assistant';
interface PromptMessage {
  role: PromptRole;
  content: string;
}

/** The part of the Prompt API's session this adapter uses. */
export interface LanguageModelSessionLike {
  promptStreaming(input: string, options?: { signal?: AbortSignal }): ReadableStream<string>;
  destroy(): void;
}

/** The part of the Prompt API's `LanguageModel` this adapter uses. */
export interface LanguageModelLike {
  /** `unavailable`, `downloadable`, `downloading` or `available`. */
  availability(): Promise<string>;
  create(options: { initialPrompts?: PromptMessage[]; signal?: AbortSignal }): Promise<LanguageModelSessionLike>;
}

/** The browser's `LanguageModel`, when this context has one. */
export function languageModelOf(scope: object = globalThis): LanguageModelLike | undefined {
  const candidate = (scope as { LanguageModel?: unknown }).LanguageModel;
  return candidate && typeof (candidate as LanguageModelLike).create === 'function' ? (candidate as LanguageModelLike) : undefined;
}

/** Whether the built-in model may be offered: present, and not `unavailable` on this device. */
export async function builtinAvailable(model: LanguageModelLike | undefined): Promise<boolean> {
  if (!model) return false;
  try {
    return (await model.availability()) !== 'unavailable';
  } catch {
    return false;
  }
}

/** A turn as the Prompt API takes it: the model has no tools, so a tool step is told as assistant text. */
function promptMessageOf(turn: ChatTurn): PromptMessage {
  if (turn.role === 'user') return { role: 'user', content: turn.text };
  if (turn.role === 'tool') return { role: 'assistant', content: `[tool ${turn.name}] ${turn.content}` };
  return { role: 'assistant', content: turn.text || NO_ANSWER };
}

/** `initialPrompts` (everything before the last user message) and the prompt (that message). */
export function builtinPrompts(request: TurnRequest): { initialPrompts: PromptMessage[]; prompt: string } {
  const turns = [...request.turns];
  const lastUser = turns.map((t) => t.role).lastIndexOf('user');
  const prompt = lastUser >= 0 ? (turns.splice(lastUser, 1)[0] as { text: string }).text : '';
  return {
    initialPrompts: [...(request.system ? [{ role: 'system' as const, content: request.system }] : []), ...turns.map(promptMessageOf)],
    prompt,
  };
}

export async function streamBuiltin(
  model: LanguageModelLike | undefined,
  request: TurnRequest,
  hooks: StreamHooks,
  signal?: AbortSignal,
): Promise<TurnResult> {
  if (!model || !(await builtinAvailable(model))) throw new ProviderError('model-not-found', say('reasonChatBuiltinUnavailable'));
  const { initialPrompts, prompt } = builtinPrompts(request);
  let session: LanguageModelSessionLike;
  try {
    session = await model.create({ initialPrompts, ...(signal ? { signal } : {}) });
  } catch (e) {
    if (signal?.aborted) throw cancelledError();
    throw new ProviderError('provider-server', say('reasonChatBuiltinStart', { error: e instanceof Error ? e.message : String(e) }));
  }
  let text = '';
  // Stop also cancels our read, so a model that is slow to honour the signal cannot hold the run.
  let reader: ReadableStreamDefaultReader<string> | undefined;
  const onAbort = () => void reader?.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    reader = session.promptStreaming(prompt, signal ? { signal } : {}).getReader();
    for (;;) {
      if (signal?.aborted) break;
      const { value, done } = await reader.read();
      if (done) break;
      if (!value) continue;
      text += value;
      hooks.onText(value);
    }
  } catch (e) {
    if (signal?.aborted) throw cancelledError();
    throw new ProviderError('provider-server', say('reasonChatBuiltinStopped', { error: e instanceof Error ? e.message : String(e) }));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    session.destroy();
  }
  if (signal?.aborted) throw cancelledError();
  return { text, toolCalls: [], usage: {}, stopReason: 'stop' };
}
