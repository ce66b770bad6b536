/**
 * Handlers of the directory's requests (src/protocol/panel-directory.ts, SPEC S1): the registry
 * setting, and one page of a search. Nothing here runs until the panel's directory asks.
 */
import type { DirectoryPanelRequestSchemas, DirectoryPanelResponseSchemas } from '../../protocol/panel-directory.js';
import type { DirectorySettingsStore } from '../../storage/directory-settings.js';
import { searchRegistry, type RegistryPorts } from '../directory/registry-client.js';
import type * as z from 'zod/mini';

type Req = typeof DirectoryPanelRequestSchemas;
type Res = typeof DirectoryPanelResponseSchemas;
export type DirectoryHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };

export function directoryPanelHandlers(deps: { settings: DirectorySettingsStore; registry: RegistryPorts }): DirectoryHandlers {
  return {
    'panel:directory-settings': () => deps.settings.read(),
    'panel:directory-set-registry': (p) => deps.settings.set(p.registryUrl),
    'panel:directory-search': async (p) => searchRegistry(deps.registry, (await deps.settings.read()).registryUrl, p),
  };
}
