/**
 * Regenerate and edit-and-resend (T5): the chat is cut back to a user message and answered again.
 * What followed that message is dropped, not kept as a branch: the history holds one line of
 * conversation, and the panel says so before the user resends (an edited message is marked).
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import type { ChatView } from '../../protocol/panel-chat.js';
import type { OpenedProvider } from '../../storage/provider-settings.js';

/** Drops everything after the last user message: the answer to it (text, steps, errors, notices). */
export function rewindForRegenerate(chat: ChatView): void {
  const last = chat.entries.findLastIndex((e) => e.kind === 'user');
  if (last < 0) throw new RemoteError({ code: 'bad-request', ...say('reasonChatNothingToRegenerate') });
  chat.entries.length = last + 1;
}

/** The user message `entryId` gets the new text and is marked edited; every later entry is dropped. */
export function rewindForEdit(chat: ChatView, entryId: string, text: string): void {
  const at = chat.entries.findIndex((e) => e.id === entryId);
  const entry = chat.entries[at];
  if (entry?.kind !== 'user') throw new RemoteError({ code: 'bad-request', ...say('reasonChatEditGone') });
  entry.text = text;
  entry.edited = true;
  chat.entries.length = at + 1;
}

/** The chat answers again with the provider set up now (it applies from this turn on, T5). */
export function markAnswering(chat: ChatView, provider: OpenedProvider, now: number): void {
  const builtin = provider.kind === 'builtin';
  chat.provider = { kind: provider.kind, model: provider.model, host: builtin ? '' : new URL(provider.baseUrl).host };
  chat.status = 'running';
  chat.updatedAt = now;
}
