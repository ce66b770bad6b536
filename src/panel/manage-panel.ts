/**
 * Wires the management elements to the worker: import preview and apply (B2, B3), export
 * download (B4) and "Test connection" (J3).
 * The host-permission request for imported origins is made synchronously inside the Import
 * click, before anything is awaited (SPEC L1).
 */
import { downloadText } from '../components/download.js';
import { ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent } from '../components/events.js';
import { t, tReason } from '../components/i18n.js';
import type { McpImportElement } from '../components/mcp-import.js';
import type { McpServerCardElement } from '../components/mcp-server-card.js';
import { originPattern } from '../common/url-rules.js';
import type { Call } from './call.js';

const EXPORT_FILE = 'remote-mcp-servers.json';

export interface ManagePanelDeps {
  call: Call;
  importer: McpImportElement;
}

export function setUpManagePanel({ call, importer }: ManagePanelDeps) {
  document.addEventListener(ImportPreviewEvent.type, (e) => {
    void call('panel:import-preview', { text: e.text }).then((r) =>
      r.ok ? importer.showPreview(r.value) : importer.showPreviewFailed(r.message),
    );
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
      const problems = r.value.skipped
        .filter((s) => chosen.has(s.name))
        .map((s) => `${s.name}: ${tReason({ message: s.reason, wording: s.wording })}`);
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
  return function ping(serverId: string, card: McpServerCardElement) {
    void call('panel:ping', { serverId }).then((r) =>
      card.showPing(r.ok ? { ok: true, latencyMs: r.value.latencyMs } : { ok: false, message: r.message }),
    );
  };
}
