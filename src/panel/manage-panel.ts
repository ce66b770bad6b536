/**
 * Wires the management elements to the worker: bulk tool toggles (K2), import preview and
 * apply (B2, B3), export download (B4) and "Test connection" (J3).
 * The host-permission request for imported origins is made synchronously inside the Import
 * click, before anything is awaited (SPEC L1).
 */
import { downloadText } from '../components/download.js';
import { BulkToolToggleEvent, ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent } from '../components/events.js';
import { t } from '../components/i18n.js';
import type { McpImportElement } from '../components/mcp-import.js';
import type { McpServerListElement } from '../components/mcp-server-list.js';
import type { PanelMethod, PanelParams, PanelValue } from '../protocol/panel.js';
import { originPattern } from '../common/url-rules.js';

const EXPORT_FILE = 'remote-mcp-servers.json';

type Call = <M extends PanelMethod>(
  type: M,
  params: PanelParams<M>,
) => Promise<{ ok: true; value: PanelValue<M> } | { ok: false; message: string }>;

export interface ManagePanelDeps {
  call: Call;
  list: McpServerListElement;
  importer: McpImportElement;
}

export function setUpManagePanel({ call, list, importer }: ManagePanelDeps) {
  document.addEventListener(BulkToolToggleEvent.type, (e) => {
    void call('panel:set-disabled-tools', { serverId: e.serverId, disabledTools: e.disabledTools });
  });

  document.addEventListener(ImportPreviewEvent.type, (e) => {
    void call('panel:import-preview', { text: e.text }).then((r) => (r.ok ? importer.showPreview(r.value) : importer.showError(r.message)));
  });

  document.addEventListener(ImportApplyEvent.type, (e) => {
    const chosen = new Set(importer.selectedEntries.map((entry) => entry.name));
    const origins = [
      ...new Set(
        importer.selectedEntries.flatMap((entry) =>
          entry.url && !entry.placeholders.some((p) => p.field === 'url') ? [originPattern(entry.url)] : [],
        ),
      ),
    ];
    const permission = origins.length ? chrome.permissions.request({ origins }).catch(() => false) : Promise.resolve(true);
    void (async () => {
      await permission;
      const r = await call('panel:import-apply', e.detail);
      if (!r.ok) return importer.showError(r.message);
      const count = r.value.added.length + r.value.replaced.length;
      // Entries the preview already skipped were shown there; only the chosen ones that failed now are news.
      const problems = r.value.skipped.filter((s) => chosen.has(s.name)).map((s) => `${s.name}: ${s.reason}`);
      if (count === 0) importer.showError(problems.length > 0 ? problems : t('importNothing'));
      else importer.showImported(count, problems);
    })();
  });

  document.addEventListener(ExportConfigEvent.type, () => {
    void call('panel:export', {}).then((r) => {
      if (!r.ok) return importer.showError(r.message);
      downloadText(EXPORT_FILE, r.value.json);
      importer.showExported(r.value.count, EXPORT_FILE);
    });
  });

  /** "Test connection" (SPEC J3): the latency or the reason goes back to the card. */
  return function ping(serverId: string) {
    void call('panel:ping', { serverId }).then((r) =>
      list.showPing(serverId, r.ok ? { ok: true, latencyMs: r.value.latencyMs } : { ok: false, message: r.message }),
    );
  };
}
