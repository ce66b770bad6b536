/**
 * `panel:chat-models` (T5): the saved provider's model list for the picker, or why there is none
 * in plain words (the typed name always stays possible).
 */
import { RemoteError } from '../../protocol/result.js';
import { say } from '../../protocol/wording.js';
import type { ProviderAccess } from './provider-access.js';
import { listModels } from './providers/models.js';
import { ProviderError, type FetchLike } from './providers/types.js';

export async function modelsForPanel(access: ProviderAccess, fetch: FetchLike): Promise<{ models: string[] }> {
  const provider = await access.opened().catch(() => {
    throw new RemoteError({ code: 'config-invalid', ...say('reasonChatKeyUnreadable') });
  });
  if (!provider) throw new RemoteError({ code: 'config-invalid', ...say('reasonChatNoProvider') });
  if (provider.kind === 'builtin') throw new RemoteError({ code: 'bad-request', ...say('reasonChatModelsBuiltin') });
  if (!(await access.permitted(provider.baseUrl)))
    throw new RemoteError({ code: 'permission', ...say('reasonChatNoHostAccess', { origin: new URL(provider.baseUrl).origin }) });
  try {
    return { models: await listModels(fetch, { ...provider, kind: provider.kind }) };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    throw new RemoteError({ code: e.kind, message: e.message, ...(e.wording ? { wording: e.wording } : {}) });
  }
}
