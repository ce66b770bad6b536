/**
 * A chat's own system prompt (T5) as the worker keeps it: trimmed, empty meaning "the provider's",
 * and never longer than the provider's own prompt may be; a longer one is refused in words that
 * say by how much, so nothing is silently cut.
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import { MAX_SYSTEM_PROMPT } from '../../protocol/panel-chat.js';

/** The prompt to store (undefined: use the provider's), or the refusal of one too long. */
export function checkedChatPrompt(text: string): string | undefined {
  const prompt = text.trim();
  if (prompt.length > MAX_SYSTEM_PROMPT)
    throw new RemoteError({
      code: 'bad-request',
      ...say('reasonChatSystemPromptTooLong', { count: prompt.length, limit: MAX_SYSTEM_PROMPT }),
    });
  return prompt || undefined;
}
