/**
 * Handlers of the management requests (src/protocol/panel-manage.ts): bulk tool toggles (K2),
 * paste-JSON import through the offscreen validation channel (B2, B3), export without secrets
 * (B4).
 */
import type { ManagePanelRequestSchemas, ManagePanelResponseSchemas } from '../../protocol/panel-manage.js';
import { exportConfig } from '../../storage/config-export.js';
import { sealHeader } from '../../storage/seal.js';
import type * as z from 'zod/mini';
import type { ConfigStore } from '../../storage/config-store.js';
import { sealBearer } from '../chrome/credentials.js';
import { applyImport, type ImportOutcome } from '../../import/apply-import.js';
import type { ImportChannel } from '../offscreen-link/import-channel.js';
import { approveEnabled } from '../manager/pins.js';

type Req = typeof ManagePanelRequestSchemas;
type Res = typeof ManagePanelResponseSchemas;
export type ManageHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };

export interface ManageHandlerDeps {
  configStore: Pick<ConfigStore, 'read' | 'update' | 'updateServer'>;
  /** Validates a paste in the offscreen document (SPEC B3). */
  importChannel: Pick<ImportChannel, 'preview'>;
}

export function managePanelHandlers({ configStore, importChannel }: ManageHandlerDeps): ManageHandlers {
  const existing = async () => (await configStore.read()).servers.map((s) => ({ name: s.name, url: s.url }));
  return {
    'panel:set-disabled-tools': async (p) => {
      const disabledTools = [...new Set(p.disabledTools)];
      // Tools enabled here are approved as they are listed now: their pins follow (S2).
      await configStore.update((servers) =>
        servers.map((s) => (s.id === p.serverId ? approveEnabled({ ...s, disabledTools }, s.disabledTools) : s)),
      );
      return { disabledTools };
    },
    'panel:import-preview': async (p) => importChannel.preview(p.text, await existing()),
    'panel:import-apply': async (p) => {
      // The panel's preview is not trusted: the text is validated again on the dedicated channel.
      const preview = await importChannel.preview(p.text, await existing());
      let outcome: ImportOutcome | undefined;
      await configStore.update(async (servers, { takenIds }) => {
        outcome = await applyImport(preview, { values: p.values, overwrite: p.overwrite }, servers, takenIds, {
          bearer: sealBearer,
          header: sealHeader,
        });
        return outcome.servers;
      });
      return { added: outcome!.added, replaced: outcome!.replaced, skipped: outcome!.skipped };
    },
    'panel:export': async () => {
      const doc = exportConfig((await configStore.read()).servers);
      return { json: JSON.stringify(doc, null, 2), count: doc.servers.length };
    },
  };
}
