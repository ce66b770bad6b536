/**
 * Applies the same rules to every dialect's raw entry: URL policy, header checks and bearer
 * extraction, placeholder discovery, tool lists and timeout bounds. The result is an entry with
 * status `add` or `skip`; conflicts are decided afterwards, across all entries.
 */
import type { Said } from '../protocol/wording.js';
import { normaliseHeaders } from './headers.js';
import type { ImportEntry, ImportHeader, Placeholder } from './import-schema.js';
import {
  MAX_NAME_LENGTH,
  MAX_PLACEHOLDERS,
  MAX_TIMEOUT_MS,
  MAX_TOOL_NAME_LENGTH,
  MAX_TOOLS,
  MAX_URL_LENGTH,
  MIN_TIMEOUT_MS,
} from './limits.js';
import { type PlaceholderContext, findPlaceholders } from './placeholders.js';
import type { RawEntry } from './raw-entry.js';
import { invalidField, invalidUrl } from './reasons.js';
import { checkUrl } from '../common/url-rules.js';
import { controlsToSpaces } from '../common/control-chars.js';
import { checkUrlWithPlaceholders } from './url-placeholders.js';

/** Token standing for a bearer token our export leaves out. */
const EXPORT_BEARER_TOKEN = '${bearer-token}';
/** Token standing for a header value our export leaves out. */
function exportHeaderToken(name: string): string {
  return `\${header:${name}}`;
}

export function buildEntry(raw: RawEntry, index: number, context: PlaceholderContext): ImportEntry {
  const url = typeof raw.url === 'string' ? raw.url.trim() : undefined;
  const name = cleanName(raw.name) || nameFromUrl(url) || `server-${index + 1}`;
  const base = {
    name,
    authKind: 'none' as const,
    headers: [],
    placeholders: [],
    enabled: raw.enabled,
    disabledTools: [],
    connectOnStartup: true,
  };
  const skip = (reason: Said): ImportEntry => ({
    ...base,
    ...(url !== undefined && url.length <= MAX_URL_LENGTH ? { url } : {}),
    status: 'skip',
    reason: reason.message,
    ...(reason.wording ? { reasonWording: reason.wording } : {}),
  });
  if (raw.skip !== undefined) return skip(raw.skip);
  if (url === undefined || url === '') return skip(raw.url === undefined ? invalidUrl('missing') : invalidUrl('not text'));

  const placeholders: Placeholder[] = findPlaceholders(url, 'url', context, false);
  let finalUrl = url;
  if (placeholders.length === 0) {
    const check = checkUrl(url);
    if (!check.ok) return skip(check.reason);
    finalUrl = check.url;
  } else {
    const check = checkUrlWithPlaceholders(
      url,
      placeholders.map((placeholder) => placeholder.token),
    );
    if (!check.ok) return skip(check.reason);
  }

  const pairs: [string, unknown][] = [...raw.headers];
  for (const headerName of raw.headerNamesToFill ?? []) pairs.push([headerName, exportHeaderToken(headerName.trim())]);
  const headers = normaliseHeaders(pairs);
  if (!headers.ok) return skip(headers.reason);
  let bearerToken = headers.bearerToken;
  if (bearerToken === undefined && raw.authKind === 'bearer') bearerToken = EXPORT_BEARER_TOKEN;
  if (bearerToken !== undefined) placeholders.push(...bearerPlaceholders(bearerToken, context));
  placeholders.push(...headerPlaceholders(headers.headers, context));
  if (placeholders.length > MAX_PLACEHOLDERS) return skip(invalidField('entry', `more than ${MAX_PLACEHOLDERS} values to fill in`));

  const tools = toolList(raw.disabledTools, 'disabledTools');
  if (tools !== undefined && !Array.isArray(tools)) return skip(tools);
  const include = raw.includeTools === undefined ? undefined : toolList(raw.includeTools, 'includeTools');
  if (include !== undefined && !Array.isArray(include)) return skip(include);
  const clientId = typeof raw.clientId === 'string' && raw.clientId.trim() !== '' ? raw.clientId.trim().slice(0, 512) : undefined;
  const scopes = scopeList(raw.scopes);
  const notes = [...raw.notes];
  const timeoutMs = readTimeout(raw.timeout, notes);
  if (include !== undefined) {
    notes.push('includeTools: the other tools will be disabled once the server has been connected and its tool list is known');
  }

  const authKind = bearerToken !== undefined ? 'bearer' : raw.authKind === 'oauth' || clientId !== undefined ? 'oauth' : 'none';
  return {
    name,
    url: finalUrl,
    status: 'add',
    authKind,
    ...(bearerToken !== undefined ? { bearerToken } : {}),
    ...(authKind === 'oauth' && clientId !== undefined ? { clientId } : {}),
    ...(authKind === 'oauth' && scopes !== undefined ? { scopes } : {}),
    headers: headers.headers,
    placeholders,
    enabled: raw.enabled,
    disabledTools: tools ?? [],
    ...(include !== undefined ? { includeTools: include } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    connectOnStartup: typeof raw.connectOnStartup === 'boolean' ? raw.connectOnStartup : true,
    ...(notes.length > 0 ? { notes: notes.slice(0, 16).map((note) => note.slice(0, 500)) } : {}),
  };
}

function bearerPlaceholders(token: string, context: PlaceholderContext): Placeholder[] {
  if (token === EXPORT_BEARER_TOKEN) return [{ field: 'bearerToken', token, label: 'Bearer token', secret: true }];
  return findPlaceholders(token, 'bearerToken', context, true);
}

function headerPlaceholders(headers: ImportHeader[], context: PlaceholderContext): Placeholder[] {
  return headers.flatMap((header) => {
    const field = `header:${header.name}`;
    if (header.value === exportHeaderToken(header.name)) {
      return [{ field, token: header.value, label: `${header.name} header`, secret: true }];
    }
    return findPlaceholders(header.value, field, context, true);
  });
}

/** Trimmed, control characters removed, bounded; '' when nothing usable is left. */
function cleanName(name: string): string {
  return controlsToSpaces(name).replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH);
}

function nameFromUrl(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    return cleanName(new URL(url).hostname);
  } catch {
    return '';
  }
}

/** A tool list, `undefined` when absent, or the skip reason when malformed. */
function toolList(value: unknown, field: string): string[] | undefined | Said {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_TOOLS) return invalidField(field, `expected a list of at most ${MAX_TOOLS} tool names`);
  if (!value.every((item) => typeof item === 'string' && item.length <= MAX_TOOL_NAME_LENGTH)) {
    return invalidField(field, `tool names must be text of at most ${MAX_TOOL_NAME_LENGTH} characters`);
  }
  return [...new Set(value as string[])];
}

function scopeList(value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : undefined;
  if (list === undefined) return undefined;
  const scopes = list.filter((item): item is string => typeof item === 'string' && item !== '' && item.length <= 256).slice(0, 64);
  return scopes.length > 0 ? scopes : undefined;
}

/** Milliseconds clamped to what the stored config accepts; a non-number is ignored with a note. */
function readTimeout(value: unknown, notes: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    notes.push('timeout ignored: expected a positive number of milliseconds');
    return undefined;
  }
  const clamped = Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(value)));
  if (clamped !== Math.round(value))
    notes.push(`timeout ${value} ms changed to ${clamped} ms (allowed: ${MIN_TIMEOUT_MS}–${MAX_TIMEOUT_MS} ms)`);
  return clamped;
}
