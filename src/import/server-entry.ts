/**
 * Reads one server entry of any dialect into a {@link RawEntry}. The dialects agree on most
 * fields and differ on a few, captured by `mode`:
 * - `gemini`: `httpUrl` is Streamable HTTP and `url` is the legacy SSE transport;
 * - everything else: `url` (Windsurf also `serverUrl`) is Streamable HTTP unless `type` says SSE.
 */
import type { Said } from '../protocol/wording.js';
import { headersFromObject } from './headers.js';
import { isMcpRemote, readMcpRemote } from './mcp-remote.js';
import { type RawEntry, isRecord, skipped } from './raw-entry.js';
import { NOT_AN_ENTRY, SSE, STDIO, invalidField, unknownTransport } from './reasons.js';

export type EntryMode = 'gemini' | 'standard';

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamablehttp', 'streamable_http']);

export function readServerEntry(name: string, value: unknown, mode: EntryMode): RawEntry {
  if (!isRecord(value)) return skipped(name, NOT_AN_ENTRY);
  const type = typeof value.type === 'string' ? value.type.trim().toLowerCase() : undefined;
  const url = pickUrl(value, mode, type);
  if (url.skip) return skipped(name, url.skip, url.url);

  if (url.url === undefined && value.command !== undefined) {
    if (isMcpRemote(value.command, value.args)) return readMcpRemote(name, value);
    return skipped(name, STDIO);
  }

  const headers = headersFromObject(value.headers);
  if (!headers.ok) return skipped(name, headers.reason, url.url);

  const raw: RawEntry = {
    name,
    url: url.url,
    headers: headers.pairs,
    enabled: value.disabled !== true && value.enabled !== false,
    connectOnStartup: value.connectOnStartup,
    disabledTools: value.disabledTools ?? value.excludeTools,
    includeTools: value.includeTools,
    timeout: value.timeoutMs ?? value.timeout,
    notes: [],
  };
  readAuth(value, raw);
  if (value.headersHelper !== undefined) {
    raw.notes.push('headersHelper runs a local command, which a browser cannot do; add the headers it produces by hand');
  }
  return raw;
}

/** The URL field for the dialect, or the reason the transport cannot be used. */
function pickUrl(value: Record<string, unknown>, mode: EntryMode, type: string | undefined): { url?: unknown; skip?: Said } {
  if (type === 'stdio') return { skip: STDIO };
  if (type === 'sse') return { skip: SSE, url: value.url ?? value.serverUrl };
  if (type !== undefined && !HTTP_TYPES.has(type)) return { skip: unknownTransport(type), url: value.url };
  if (mode === 'gemini') {
    if (value.httpUrl !== undefined) return { url: value.httpUrl };
    if (value.url !== undefined) return type === undefined ? { skip: SSE, url: value.url } : { url: value.url };
    return {};
  }
  return { url: value.url ?? value.serverUrl ?? value.httpUrl };
}

/**
 * Our export's `auth` object, and the OAuth client settings Claude Code (`oauth.clientId`) and
 * Gemini (`oauth.clientId`, `oauth.scopes`) allow.
 */
function readAuth(value: Record<string, unknown>, raw: RawEntry): void {
  if (isRecord(value.auth)) {
    const kind = value.auth.kind;
    if (kind === 'none' || kind === 'bearer' || kind === 'oauth') raw.authKind = kind;
    else raw.skip = invalidField('auth', 'kind must be none, bearer or oauth');
    raw.clientId = value.auth.clientId;
    raw.scopes = value.auth.scopes;
  } else if (isRecord(value.oauth) && value.oauth.enabled !== false) {
    if (value.oauth.clientId !== undefined) raw.authKind = 'oauth';
    raw.clientId = value.oauth.clientId;
    raw.scopes = value.oauth.scopes;
  }
  if (value.headerNames !== undefined) {
    if (Array.isArray(value.headerNames) && value.headerNames.every((item) => typeof item === 'string')) {
      raw.headerNamesToFill = value.headerNames;
    } else {
      raw.skip = invalidField('headerNames', 'expected a list of header names');
    }
  }
}
