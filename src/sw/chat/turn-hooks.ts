/**
 * What one request to the model shows while it runs (T1, T3), kept out of the run loop: the
 * chat's `phase` (waiting for the model from the request to its first token, or waiting to retry
 * with the time the retry goes out), the answer's text and reasoning as they stream, and the
 * provider blocks a turn must carry back while its tool calls are answered (Anthropic thinking),
 * held in memory for the run only — they are never text and never stored.
 */
import type { ChatEntry, ChatView } from '../../protocol/panel-chat.js';
import type { StreamHooks, TurnPhase } from './providers/types.js';

type AssistantEntry = Extract<ChatEntry, { kind: 'assistant' }>;

export interface TurnHookDeps {
  changed(chat: ChatView): void;
  text(chat: ChatView, entryId: string, text: string): void;
  now: () => number;
}

/** The chat's phase for what the provider says it is doing. */
export function setPhase(chat: ChatView, phase: TurnPhase, now: number): void {
  chat.phase =
    phase.kind === 'waiting-model'
      ? { kind: 'waiting-model', since: now }
      : { kind: 'retrying', until: phase.until, attempt: phase.attempt, ...(phase.status !== undefined ? { status: phase.status } : {}) };
}

/** The turn is answering (or over): the chat says nothing about waiting any more. */
export function clearPhase(chat: ChatView, deps: Pick<TurnHookDeps, 'changed'>): void {
  if (!chat.phase) return;
  delete chat.phase;
  deps.changed(chat);
}

/** The hooks one request streams into `answer`; the phase starts as "waiting for the model". */
export function turnHooks(chat: ChatView, answer: AssistantEntry, deps: TurnHookDeps): StreamHooks {
  setPhase(chat, { kind: 'waiting-model' }, deps.now());
  return {
    onText: (delta) => {
      clearPhase(chat, deps);
      answer.text += delta;
      deps.text(chat, answer.id, answer.text);
    },
    onReasoning: (delta) => {
      const first = !answer.reasoning;
      answer.reasoning = (answer.reasoning ?? '') + delta;
      // The entry's shape changes once (it gains its "Thinking"); the rest shows when the turn settles.
      if (first || chat.phase) {
        delete chat.phase;
        deps.changed(chat);
      }
    },
    onPhase: (phase) => {
      setPhase(chat, phase, deps.now());
      deps.changed(chat);
    },
  };
}

const replays = new WeakMap<AssistantEntry, unknown[]>();

/** Keeps the blocks `entry`'s turn must carry back (for this run only). */
export function keepReplay(entry: AssistantEntry, replay: unknown[] | undefined): void {
  if (replay?.length) replays.set(entry, replay);
}

export function replayOf(entry: AssistantEntry): unknown[] | undefined {
  return replays.get(entry);
}

/** Our rules first (what the fences mean), then the chat's own prompt, else the provider's (T5). */
export function systemPromptFor(base: string, chat: Pick<ChatView, 'systemPrompt'>, providerPrompt: string | undefined): string {
  const own = chat.systemPrompt?.trim() || providerPrompt?.trim();
  return own ? `${base}\n\n${own}` : base;
}
