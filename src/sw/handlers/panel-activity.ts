/**
 * Handlers of the Activity view's requests (src/protocol/panel-activity.ts): the request log of
 * one server or of all, newest last as stored (SPEC J2), and the "always allow" grants with
 * their revocation (G1, K3). Names come from the current server views, so a renamed server shows
 * its new name; a grant or log row of a server that is gone shows the server's id.
 */
import type { ActivityPanelRequestSchemas, ActivityPanelResponseSchemas } from '../../protocol/panel-activity.js';
import { MAX_LOG_VIEW_ENTRIES } from '../../protocol/request-log-view.js';
import type { ServerView } from '../../protocol/panel.js';
import { readAllRequestLogs, readRequestLog } from '../../storage/request-log.js';
import type { ApprovalStore } from '../use/approval-store.js';
import type { RequestLogBatch } from '../offscreen-link/request-log-batch.js';
import type * as z from 'zod/mini';

type Req = typeof ActivityPanelRequestSchemas;
type Res = typeof ActivityPanelResponseSchemas;
export type ActivityHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };

export interface ActivityHandlerDeps {
  grants: Pick<ApprovalStore, 'list' | 'revoke' | 'revokeAll'>;
  views: () => Pick<ServerView, 'id' | 'name' | 'tools'>[];
  /** Rows not stored yet are stored before the log is read, so every ended call shows. */
  requestLog: Pick<RequestLogBatch, 'flush'>;
}

export function activityPanelHandlers({ grants, views, requestLog }: ActivityHandlerDeps): ActivityHandlers {
  const nameOf = () => {
    const names = new Map(views().map((v) => [v.id, v.name]));
    return (id: string) => names.get(id) ?? id;
  };
  return {
    'panel:get-log': async (p) => {
      await requestLog.flush();
      const rows =
        p.serverId === undefined
          ? await readAllRequestLogs()
          : (await readRequestLog(p.serverId)).map((entry) => ({ serverId: p.serverId!, entry }));
      const name = nameOf();
      // Newest by start time: a long call that ended last must not push out what started after it.
      const newest = rows.sort((a, b) => a.entry.at - b.entry.at).slice(-MAX_LOG_VIEW_ENTRIES);
      return { entries: newest.map((r) => ({ serverId: r.serverId, serverName: name(r.serverId), ...r.entry })) };
    },
    'panel:list-grants': async () => {
      const current = views();
      return {
        grants: (await grants.list())
          .map((g) => {
            const title = current.find((v) => v.id === g.serverId)?.tools.find((t) => t.name === g.tool)?.title;
            const serverName = current.find((v) => v.id === g.serverId)?.name ?? g.serverId;
            return { serverId: g.serverId, serverName, tool: g.tool, ...(title ? { toolTitle: title } : {}), grantedAt: g.grantedAt };
          })
          .sort((a, b) => b.grantedAt - a.grantedAt),
      };
    },
    'panel:revoke-grant': async (p) => ({ revoked: await grants.revoke(p.serverId, p.tool) }),
    'panel:revoke-all-grants': async () => ({ revoked: await grants.revokeAll() }),
  };
}
