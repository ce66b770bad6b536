/**
 * The worker's half of the composer (SPEC G2, G3, K4): `prompts/get` and `resources/read` on
 * the server's live connection, turned into untrusted ContextBlocks with random delimiters and
 * provenance (`context-blocks.ts`). The fence is built here, where the content is known, never
 * in the panel.
 */
import { say } from '../../protocol/wording.js';
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import type { PanelParams, PanelValue } from '../../protocol/panel.js';
import { MAX_SHOWN_RESOURCE_TEXT, type ShownResourcePart } from '../../protocol/panel-composer.js';
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
    // Suggestions are shown as text in a list the user picks from; nothing reaches a model (R8).
    'panel:complete': async ({ serverId, ...ask }: PanelParams<'panel:complete'>): Promise<PanelValue<'panel:complete'>> => {
      const { connectionId } = await live(serverId);
      const { values } = await deps.request('offscreen:complete', { connectionId, ...ask });
      return { values };
    },
    // One read serves both: the person sees the parts as they are, the fenced form only on request (N9, K5).
    'panel:read-resource': async (p: PanelParams<'panel:read-resource'>): Promise<PanelValue<'panel:read-resource'>> => {
      const { connectionId, serverName } = await live(p.serverId);
      const result = await deps.request('offscreen:read-resource', { connectionId, uri: p.uri });
      const block = buildResourceBlock({ serverId: p.serverId, serverName, uri: p.uri, contents: result.contents });
      return { parts: result.contents.slice(0, 256).map(shownPart), block };
    },
  };
}

/** A resource part as the panel shows it: text cut to its bound with a marker, binary data by size only. */
function shownPart(item: { uri?: string; mimeType?: string; text?: string; blob?: string }): ShownResourcePart {
  const text =
    item.text === undefined || item.text.length <= MAX_SHOWN_RESOURCE_TEXT
      ? item.text
      : `${item.text.slice(0, MAX_SHOWN_RESOURCE_TEXT)}\n[\u2026 truncated: ${item.text.length - MAX_SHOWN_RESOURCE_TEXT} more characters]`;
  return {
    ...(item.uri !== undefined ? { uri: item.uri } : {}),
    ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(item.blob !== undefined ? { blobBytes: Math.floor((item.blob.replace(/=+$/, '').length * 3) / 4) } : {}),
  };
}
