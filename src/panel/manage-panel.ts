/**
 * Wires the management elements to the worker: import preview and
 * apply (B2, B3), export download (B4), the request log drawer (J2) and "Test connection" (J3).
 * The host-permission request for imported origins is made synchronously inside the Import
 * click, before anything is awaited (SPEC L1).
 */
import { downloadText } from '../components/download.js';
import { ExportConfigEvent, ImportApplyEvent, ImportPreviewEvent, LogRequestEvent } from '../components/events.js';
import { t } from '../components/i18n.js';
import type { McpImportElement } from '../components/mcp-import.js';
import type { McpLogDrawerElement } from '../components/mcp-log-drawer.js';
import type { McpServerCardElement } from '../components/mcp-server-card.js';
import { originPattern } from '../common/url-rules.js';
import type { Call } from './call.js';

export interface ManagePanelDeps {
  call: Call;
  importer: McpImportElement;
}

export function setUpManagePanel({ call, importer }: ManagePanelDeps) {
  document.addEventListener(LogRequestEvent.type, (e) => {
    const drawer = e.composedPath()[0] as McpLogDrawerElement;
    void call('panel:get-log', { serverId: e.serverId }).then((r) => {
      if (r.ok) drawer.entries = r.value.entries;
    });
  });

  document.addEventListener(ImportPreviewEvent.type, (e) => {
    void call('panel:import-preview', { text: e.text }).then((r) => (r.ok ? importer.showPreview(r.value) : importer.showError(r.message)));
  });

  document.addEventListener(ImportApplyEvent.type, (e) => {
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
      if (count === 0) importer.showError(r.value.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n') || t('importNothing'));
      else importer.showImported(count);
    })();
  });

  document.addEventListener(ExportConfigEvent.type, () => {
    void call('panel:export', {}).then((r) => {
      if (r.ok) downloadText('remote-mcp-servers.json', r.value.json);
      else importer.showError(r.message);
    });
  });

  /** "Test connection" (SPEC J3): the latency or the reason goes back to the card. */
  return function ping(serverId: string, card: McpServerCardElement) {
    void call('panel:ping', { serverId }).then((r) =>
      card.showPing(r.ok ? { ok: true, latencyMs: r.value.latencyMs } : { ok: false, message: r.message }),
    );
  };
}
