/**
 * The handler of "Copy diagnostics" (V3, src/protocol/panel-diagnostics.ts): gathers what the
 * report needs — the server views, the request log's recent errors, the worker's starts, the
 * offscreen document's heap (asked only when the document is already open: writing a report
 * must not start one) — and lets report.ts write it.
 */
import type { DiagnosticsPanelRequestSchemas, DiagnosticsPanelResponseSchemas } from '../../protocol/panel-diagnostics.js';
import { readAllRequestLogs } from '../../storage/request-log.js';
import { diagnosticsReport, type ReportError, type ReportServer } from '../diagnostics/report.js';
import { readWorkerStarts } from '../diagnostics/worker-starts.js';
import type { RequestLogBatch } from '../offscreen-link/request-log-batch.js';
import type { KeyValueArea } from '../../storage/ports.js';
import type * as z from 'zod/mini';

type Req = typeof DiagnosticsPanelRequestSchemas;
type Res = typeof DiagnosticsPanelResponseSchemas;
export type DiagnosticsHandlers = { [M in keyof Req]: (p: z.infer<Req[M]>) => Promise<z.infer<Res[M]>> };

export interface DiagnosticsDeps {
  views: () => ReportServer[];
  configErrors: () => number;
  requestLog: Pick<RequestLogBatch, 'flush'>;
  /** The document's heap, or undefined when no document is open (none is created to ask). */
  offscreenHeap: () => Promise<{ open: boolean; heap?: { usedBytes: number; totalBytes: number } }>;
  workerStartedAt: number;
  /** Resolves once this instance's start is recorded (start-up done): the report counts it. */
  started: () => Promise<unknown>;
  session: Pick<KeyValueArea, 'get' | 'set'>;
}

async function recentErrors(): Promise<ReportError[]> {
  const rows = await readAllRequestLogs();
  return rows
    .filter((r) => r.entry.status !== 'ok')
    .sort((a, b) => a.entry.at - b.entry.at)
    .map(({ serverId, entry }) => ({
      serverName: serverId,
      at: entry.at,
      method: entry.method,
      status: entry.status,
      ...(entry.subject !== undefined ? { subject: entry.subject } : {}),
      ...(entry.error !== undefined ? { error: entry.error } : {}),
    }));
}

export function diagnosticsPanelHandlers(deps: DiagnosticsDeps): DiagnosticsHandlers {
  return {
    'panel:diagnostics': async () => {
      await Promise.all([deps.requestLog.flush(), deps.started()]);
      const [errors, starts, offscreen] = await Promise.all([recentErrors(), readWorkerStarts(deps.session), deps.offscreenHeap()]);
      const servers = deps.views();
      const names = new Map(servers.map((s) => [s.id, s.name]));
      return {
        text: diagnosticsReport({
          version: chrome.runtime.getManifest().version,
          userAgent: navigator.userAgent,
          locale: chrome.i18n?.getUILanguage?.() ?? navigator.language,
          now: Date.now(),
          workerStartedAt: deps.workerStartedAt,
          starts,
          offscreen,
          servers,
          errors: errors.map((e) => ({ ...e, serverName: names.get(e.serverName) ?? e.serverName })),
          configErrors: deps.configErrors(),
        }),
      };
    },
  };
}
