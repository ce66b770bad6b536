/**
 * Our own export format (SPEC B4). It is meant to be shared and pasted, so it carries no
 * secret in any form: not even sealed blobs, which are useless elsewhere (the key never
 * leaves this profile) and would only invite someone to try. Header names are kept so the
 * importer can ask the user for their values; tokens must be entered or authorized again.
 */
import * as z from 'zod/mini';
import type { McpServerConfig } from './config-schema.js';
import { MAX_NAME_LENGTH, MAX_URL_LENGTH } from './config-schema.js';

export const EXPORT_FORMAT = 'remote-mcp-for-chrome';
export const EXPORT_VERSION = 1;
const MAX_EXPORT_SERVERS = 500;

export const ExportedServerSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)),
  url: z.string().check(z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
  auth: z.object({
    kind: z.enum(['none', 'bearer', 'oauth']),
    clientId: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
    scopes: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64))),
  }),
  headerNames: z.optional(z.array(z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/))).check(z.maxLength(32))),
  enabled: z.boolean(),
  disabledTools: z.array(z.string().check(z.maxLength(256))).check(z.maxLength(10000)),
  connectOnStartup: z.boolean(),
  timeoutMs: z.optional(z.number().check(z.int(), z.gte(1000), z.lte(3_600_000))),
});
export type ExportedServer = z.infer<typeof ExportedServerSchema>;

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
      return out;
    }),
  };
}

/** The document as a whole is not ours (wrong shape, format or version). */
export class ExportFormatError extends Error {
  override readonly name = 'ExportFormatError';
}

export interface ParsedExport {
  servers: ExportedServer[];
  /** `index` is the position in the document's `servers` array. */
  errors: { index: number; error: string }[];
}

/** Accepts the JSON text or an already parsed value; valid entries survive invalid siblings. */
export function parseExport(json: unknown): ParsedExport {
  let doc: unknown = json;
  if (typeof json === 'string') {
    try {
      doc = JSON.parse(json);
    } catch {
      throw new ExportFormatError('Not valid JSON');
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ExportFormatError('Not a JSON object');
  const top = doc as Record<string, unknown>;
  if (top['format'] !== EXPORT_FORMAT) throw new ExportFormatError(`"format" is not "${EXPORT_FORMAT}"`);
  if (top['version'] !== EXPORT_VERSION) throw new ExportFormatError(`Unsupported version ${JSON.stringify(top['version'])}`);
  const list = top['servers'];
  if (!Array.isArray(list)) throw new ExportFormatError('"servers" is not an array');
  if (list.length > MAX_EXPORT_SERVERS) throw new ExportFormatError(`More than ${MAX_EXPORT_SERVERS} servers`);

  const out: ParsedExport = { servers: [], errors: [] };
  list.forEach((entry, index) => {
    const result = ExportedServerSchema.safeParse(entry);
    if (result.success) out.servers.push(result.data);
    else {
      const issue = result.error.issues[0];
      out.errors.push({ index, error: issue ? `${issue.path.map(String).join('.') || '(entry)'}: ${issue.message}` : 'invalid' });
    }
  });
  return out;
}
