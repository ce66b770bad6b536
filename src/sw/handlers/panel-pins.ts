/**
 * Handlers of the pinned-definition requests (src/protocol/panel-pins.ts, SPEC S2): accept a
 * changed (or new) definition — it is pinned again and a suspended "always" grant is given back
 * for the tool as it is now —, keep a changed tool disabled, and the server's "review new tools".
 * Each write reconciles the manager at once with what was stored, so the next agent call already
 * sees it (the storage event that also reconciles comes a moment later).
 */
import type * as z from 'zod/mini';
import type { PinsPanelRequestSchemas, PinsPanelResponseSchemas } from '../../protocol/panel-pins.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { ConfigStore } from '../../storage/config-store.js';
import type { McpManager } from '../manager/mcp-manager.js';
import type { ApprovalStore } from '../use/approval-store.js';
import { acceptDefinition, keepDisabled } from '../manager/pins.js';

type Req = typeof PinsPanelRequestSchemas;
type Res = typeof PinsPanelResponseSchemas;
type PinsHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };

export interface PinsHandlerDeps {
  manager: Pick<McpManager, 'views' | 'reconcile'>;
  configStore: Pick<ConfigStore, 'update'>;
  approvals: Pick<ApprovalStore, 'restore'>;
}

/** Applies `edit` to one server's stored entry; resolves whether it changed anything. */
async function editServer(
  deps: PinsHandlerDeps,
  serverId: string,
  edit: (s: McpServerConfig) => McpServerConfig | undefined,
): Promise<boolean> {
  let edited = false;
  const written = await deps.configStore.update((servers) =>
    servers.map((s) => {
      const next = s.id === serverId ? edit(s) : undefined;
      if (next) edited = true;
      return next ?? s;
    }),
  );
  if (edited) deps.manager.reconcile(written.servers);
  return edited;
}

/** The accepted tool's grant, suspended while it differed, is given back for the tool as listed now. */
async function restoreGrant(deps: PinsHandlerDeps, serverId: string, name: string): Promise<boolean> {
  const view = deps.manager.views().find((v) => v.id === serverId);
  const tool = view?.tools.find((t) => t.name === name);
  return view && tool ? deps.approvals.restore(serverId, tool, view.url) : false;
}

export function pinsPanelHandlers(deps: PinsHandlerDeps): PinsHandlers {
  return {
    'panel:accept-definition': async (p) => {
      const accepted = await editServer(deps, p.serverId, (s) => acceptDefinition(s, p.category, p.name));
      const grantRestored = accepted && p.category === 'tools' && (await restoreGrant(deps, p.serverId, p.name));
      return { accepted, grantRestored };
    },
    'panel:keep-disabled': async (p) => ({ disabled: await editServer(deps, p.serverId, (s) => keepDisabled(s, p.name)) }),
    'panel:set-review-new-tools': async (p) => {
      await editServer(deps, p.serverId, (s) => ({ ...s, reviewNewTools: p.review }));
      return { review: p.review };
    },
  };
}
