/**
 * Turns a verified import preview into saved servers (SPEC B2). Only entries the preview marks
 * `add`, and `conflict` entries the user explicitly chose to overwrite, are written; everything
 * else is reported as skipped with its reason. Placeholders are filled by `applyPlaceholders`,
 * which re-checks the URL and headers, and every secret (bearer token, header value) is sealed
 * before it reaches the list (SPEC F2). An overwrite keeps the existing server's id, because
 * tool names embed it.
 */
import { applyPlaceholders } from './apply-placeholders.js';
import { findExisting } from './conflicts.js';
import type { ImportEntry, ImportPreview } from './import-schema.js';
import type { McpServerConfig, SealedBlob } from '../storage/config-schema.js';
import { slugify } from '../storage/slug.js';
import { say, type Wording } from '../protocol/wording.js';

/** An entry's reason with its wording, or the fallback said when the entry has none. */
function saidOf(
  reason: string | undefined,
  wording: Wording | undefined,
  fallback: 'reasonImportNotImportable' | 'reasonImportNoUrl' | 'reasonImportExists',
): { reason: string; wording?: Wording } {
  if (reason === undefined) {
    const said = say(fallback);
    return { reason: said.message, wording: said.wording };
  }
  return wording ? { reason, wording } : { reason };
}

export interface Sealers {
  bearer(serverId: string, token: string): Promise<SealedBlob>;
  header(serverId: string, headerName: string, value: string): Promise<SealedBlob>;
}

export interface ImportChoices {
  values: Record<string, string>;
  overwrite: readonly string[];
}

export interface ImportOutcome {
  servers: McpServerConfig[];
  added: string[];
  replaced: string[];
  skipped: { name: string; reason: string; wording?: Wording }[];
}

export async function applyImport(
  preview: ImportPreview,
  choices: ImportChoices,
  servers: McpServerConfig[],
  takenIds: ReadonlySet<string>,
  seal: Sealers,
): Promise<ImportOutcome> {
  const taken = new Set(takenIds);
  const out: ImportOutcome = { servers: [...servers], added: [], replaced: [], skipped: [] };
  const overwrite = new Set(choices.overwrite);
  for (const entry of preview.entries) {
    if (entry.status === 'skip') {
      out.skipped.push({ name: entry.name, ...saidOf(entry.reason, entry.reasonWording, 'reasonImportNotImportable') });
      continue;
    }
    const filled = applyPlaceholders(entry, choices.values, out.servers);
    if (!filled.ok) {
      out.skipped.push({
        name: entry.name,
        reason: filled.error.message,
        ...(filled.error.wording ? { wording: filled.error.wording } : {}),
      });
      continue;
    }
    const ready = filled.entry;
    if (ready.status === 'skip' || ready.url === undefined) {
      out.skipped.push({ name: entry.name, ...saidOf(ready.reason, ready.reasonWording, 'reasonImportNoUrl') });
      continue;
    }
    const match = ready.status === 'conflict' ? findExisting(ready, out.servers) : undefined;
    if (ready.status === 'conflict' && !overwrite.has(entry.name)) {
      out.skipped.push({ name: entry.name, ...saidOf(ready.reason, ready.reasonWording, 'reasonImportExists') });
      continue;
    }
    const target = match ? out.servers.findIndex((s) => s === match) : -1;
    const id = target >= 0 ? out.servers[target]!.id : slugify(ready.name, taken);
    taken.add(id);
    const config = await toConfig(id, ready, ready.url, seal);
    if (target >= 0) {
      out.servers[target] = config;
      out.replaced.push(id);
    } else {
      out.servers.push(config);
      out.added.push(id);
    }
  }
  return out;
}

async function toConfig(id: string, entry: ImportEntry, url: string, seal: Sealers): Promise<McpServerConfig> {
  const auth: McpServerConfig['auth'] =
    entry.authKind === 'bearer' && entry.bearerToken !== undefined
      ? { kind: 'bearer', token: await seal.bearer(id, entry.bearerToken) }
      : entry.authKind === 'oauth'
        ? {
            kind: 'oauth',
            ...(entry.clientId !== undefined ? { clientId: entry.clientId } : {}),
            ...(entry.scopes !== undefined ? { scopes: [...entry.scopes] } : {}),
          }
        : { kind: 'none' };
  const headers = [];
  for (const h of entry.headers) headers.push({ name: h.name, value: await seal.header(id, h.name, h.value) });
  return {
    id,
    name: entry.name,
    url,
    auth,
    ...(headers.length ? { headers } : {}),
    enabled: entry.enabled,
    disabledTools: [...entry.disabledTools],
    // Settled into disabledTools by the manager once the server's tools are known.
    ...(entry.includeTools !== undefined ? { includeTools: [...entry.includeTools] } : {}),
    connectOnStartup: entry.connectOnStartup,
    ...(entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
    ...(entry.pins !== undefined ? { pins: structuredClone(entry.pins) } : {}),
    ...(entry.reviewNewTools !== undefined ? { reviewNewTools: entry.reviewNewTools } : {}),
  };
}
