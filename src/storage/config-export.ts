/**
 * Our own export format (SPEC B4). It is meant to be shared and pasted, so it carries no
 * secret in any form: not even sealed blobs, which are useless elsewhere (the key never
 * leaves this profile) and would only invite someone to try. Header names are kept so the
 * importer can ask the user for their values; tokens must be entered or authorized again.
 */
import type { McpServerConfig } from './config-schema.js';
import type { Pins } from './pin-schema.js';

/** The export document's format and version, which the importer reads back (src/import/dialects.ts). */
export const EXPORT_FORMAT = 'remote-mcp-for-chrome';
export const EXPORT_VERSION = 1;

/** One server as exported: names and settings, never a secret. */
interface ExportedServer {
  name: string;
  url: string;
  auth: { kind: 'none' | 'bearer' | 'oauth'; clientId?: string; scopes?: string[] };
  headerNames?: string[];
  enabled: boolean;
  disabledTools: string[];
  /** An imported allow-list not settled yet (its server never listed its tools). */
  includeTools?: string[];
  connectOnStartup: boolean;
  timeoutMs?: number;
  /** Pinned definitions (S2): what the user approved of the server's tools, prompts and resources. */
  pins?: Pins;
  reviewNewTools?: boolean;
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  servers: ExportedServer[];
}

/** Names every field explicitly (no spreads), so a new secret field cannot leak by default. */
export function exportConfig(servers: readonly McpServerConfig[]): ExportDocument {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    servers: servers.map((s) => {
      const auth: ExportedServer['auth'] = { kind: s.auth.kind };
      if (s.auth.kind === 'oauth') {
        if (s.auth.clientId !== undefined) auth.clientId = s.auth.clientId;
        if (s.auth.scopes !== undefined) auth.scopes = [...s.auth.scopes];
      }
      const out: ExportedServer = {
        name: s.name,
        url: s.url,
        auth,
        enabled: s.enabled,
        disabledTools: [...s.disabledTools],
        connectOnStartup: s.connectOnStartup,
      };
      if (s.headers && s.headers.length > 0) out.headerNames = s.headers.map((h) => h.name);
      if (s.timeoutMs !== undefined) out.timeoutMs = s.timeoutMs;
      if (s.includeTools !== undefined) out.includeTools = [...s.includeTools];
      if (s.pins !== undefined) out.pins = structuredClone(s.pins);
      if (s.reviewNewTools !== undefined) out.reviewNewTools = s.reviewNewTools;
      return out;
    }),
  };
}
