/**
 * The worker's half of the composer (SPEC G2, G3, K4): `prompts/get` and `resources/read` on
 * the server's live connection, turned into untrusted ContextBlocks with random delimiters and
 * provenance (`context-blocks.ts`). The fence is built here, where the content is known, never
 * in the panel.
 */
import { say } from '../../protocol/wording.js';
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import { RemoteError } from '../../protocol/result.js';
import { buildPromptBlock, buildResourceBlock } from '../use/context-blocks.js';
import type { McpManager } from '../manager/mcp-manager.js';

export interface ComposerDeps {
  manager: Pick<McpManager, 'state' | 'views' | 'ensureReady'>;
  request<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>>;
}

/**
 * The live connection and display name of a ready server, connecting an enabled lazy one first
 * (C2); anything else is a plain-words error.
 */
export async function liveServer(manager: ComposerDeps['manager'], serverId: string) {
  const enabled = manager.views().find((v) => v.id === serverId)?.enabled;
  if (enabled && manager.state(serverId)?.status !== 'ready') await manager.ensureReady(serverId);
  const view = manager.views().find((v) => v.id === serverId);
  const state = manager.state(serverId);
  if (!view || state?.status !== 'ready') {
    throw new RemoteError({ code: 'not-ready', ...say('reasonNotReady', { name: view?.name ?? serverId }) });
  }
  return { connectionId: state.connectionId, serverName: view.name };
}

export function composerHandlers(deps: ComposerDeps) {
  const live = (serverId: string) => liveServer(deps.manager, serverId);
  return {
    'panel:get-prompt-block': async (p: PanelParams<'panel:get-prompt-block'>): Promise<PanelValue<'panel:get-prompt-block'>> => {
      const { connectionId, serverName } = await live(p.serverId);
      const result = await deps.request('offscreen:get-prompt', { connectionId, name: p.prompt, arguments: p.arguments });
      return buildPromptBlock({ serverId: p.serverId, serverName, prompt: p.prompt, result });
    },
    'panel:read-resource-block': async (p: PanelParams<'panel:read-resource-block'>): Promise<PanelValue<'panel:read-resource-block'>> => {
      const { connectionId, serverName } = await live(p.serverId);
      const result = await deps.request('offscreen:read-resource', { connectionId, uri: p.uri });
      return buildResourceBlock({ serverId: p.serverId, serverName, uri: p.uri, contents: result.contents });
    },
  };
}
