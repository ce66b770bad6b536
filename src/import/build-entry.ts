/**
 * Applies the same rules to every dialect's raw entry: URL policy, header checks and bearer
 * extraction, placeholder discovery, tool lists and timeout bounds. The result is an entry with
 * status `add` or `skip`; conflicts are decided afterwards, across all entries.
 */
import type { Said } from '../protocol/wording.js';
import { normaliseHeaders } from './headers.js';
import type { ImportEntry, ImportHeader, Placeholder } from './import-schema.js';
import { MAX_PLACEHOLDERS, MAX_URL_LENGTH } from './limits.js';
import { cleanName, clientIdOf, nameFromUrl, readTimeout, scopeList, toolList } from './entry-fields.js';
import { type PlaceholderContext, findPlaceholders } from './placeholders.js';
import type { RawEntry } from './raw-entry.js';
import { invalidField, invalidUrl } from './reasons.js';
import { checkUrl } from '../common/url-rules.js';
import { checkUrlWithPlaceholders } from './url-placeholders.js';
import { PinsSchema } from '../storage/pin-schema.js';

/** Token standing for a bearer token our export leaves out. */
const EXPORT_BEARER_TOKEN = '${bearer-token}';
/** Token standing for a header value our export leaves out. */
function exportHeaderToken(name: string): string {
  return `\${header:${name}}`;
}

export function buildEntry(raw: RawEntry, index: number, context: PlaceholderContext): ImportEntry {
  const url = typeof raw.url === 'string' ? raw.url.trim() : undefined;
  const name = cleanName(raw.name) || nameFromUrl(url) || `server-${index + 1}`;
  const skip = (reason: Said): ImportEntry => skippedEntry(name, raw.enabled, url, reason);
  if (raw.skip !== undefined) return skip(raw.skip);
  if (url === undefined || url === '') return skip(raw.url === undefined ? invalidUrl('missing') : invalidUrl('not text'));

  const checked = entryUrl(url, context);
  if (!checked.ok) return skip(checked.reason);
  const auth = entryHeaders(raw, context);
  if (!auth.ok) return skip(auth.reason);
  const { bearerToken, headers } = auth;
  const placeholders = [...checked.placeholders, ...auth.placeholders];
  if (placeholders.length > MAX_PLACEHOLDERS) return skip(invalidField('entry', `more than ${MAX_PLACEHOLDERS} values to fill in`));

  const tools = toolList(raw.disabledTools, 'disabledTools');
  if (tools !== undefined && !Array.isArray(tools)) return skip(tools);
  const include = raw.includeTools === undefined ? undefined : toolList(raw.includeTools, 'includeTools');
  if (include !== undefined && !Array.isArray(include)) return skip(include);
  const clientId = clientIdOf(raw.clientId);
  const scopes = scopeList(raw.scopes);
  const notes = [...raw.notes];
  const timeoutMs = readTimeout(raw.timeout, notes);
  if (include !== undefined) {
    notes.push('includeTools: the other tools will be disabled once the server has been connected and its tool list is known');
  }

  const authKind = bearerToken !== undefined ? 'bearer' : raw.authKind === 'oauth' || clientId !== undefined ? 'oauth' : 'none';
  return {
    name,
    url: checked.url,
    status: 'add',
    authKind,
    ...(bearerToken !== undefined ? { bearerToken } : {}),
    ...(authKind === 'oauth' && clientId !== undefined ? { clientId } : {}),
    ...(authKind === 'oauth' && scopes !== undefined ? { scopes } : {}),
    headers,
    placeholders,
    enabled: raw.enabled,
    disabledTools: tools ?? [],
    ...(include !== undefined ? { includeTools: include } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    connectOnStartup: typeof raw.connectOnStartup === 'boolean' ? raw.connectOnStartup : true,
    ...pinFields(raw, notes),
    ...(notes.length > 0 ? { notes: notes.slice(0, 16).map((note) => note.slice(0, 500)) } : {}),
  };
}

/**
 * Pinned definitions and "review new tools" from our export (S2). Pins that do not validate are
 * left out with a note — the entry is still imported, and its next listing pins what it finds.
 */
function pinFields(raw: RawEntry, notes: string[]): Pick<ImportEntry, 'pins' | 'reviewNewTools'> {
  const out: Pick<ImportEntry, 'pins' | 'reviewNewTools'> = {};
  if (typeof raw.reviewNewTools === 'boolean') out.reviewNewTools = raw.reviewNewTools;
  if (raw.pins === undefined) return out;
  const pins = PinsSchema.safeParse(raw.pins);
  if (pins.success) out.pins = pins.data;
  else notes.push("pins: not valid, left out; the server's next tool list is pinned instead");
  return out;
}

/** An entry that will not be imported, with its reason; it keeps the URL when that is not too long to show. */
function skippedEntry(name: string, enabled: boolean, url: string | undefined, reason: Said): ImportEntry {
  return {
    name,
    authKind: 'none',
    headers: [],
    placeholders: [],
    enabled,
    disabledTools: [],
    connectOnStartup: true,
    ...(url !== undefined && url.length <= MAX_URL_LENGTH ? { url } : {}),
    status: 'skip',
    reason: reason.message,
    ...(reason.wording ? { reasonWording: reason.wording } : {}),
  };
}

/**
 * The URL by the URL rules: a literal one normalised, one with placeholders checked in the
 * parts it already has (the filled-in URL is checked again when applied).
 */
export function entryUrl(
  url: string,
  context: PlaceholderContext,
): { ok: true; url: string; placeholders: Placeholder[] } | { ok: false; reason: Said } {
  const placeholders = findPlaceholders(url, 'url', context, false);
  if (placeholders.length === 0) {
    const check = checkUrl(url);
    return check.ok ? { ok: true, url: check.url, placeholders } : { ok: false, reason: check.reason };
  }
  const check = checkUrlWithPlaceholders(
    url,
    placeholders.map((placeholder) => placeholder.token),
  );
  return check.ok ? { ok: true, url, placeholders } : { ok: false, reason: check.reason };
}

/**
 * The headers by the header rules, with an `Authorization: Bearer …` taken out as the bearer
 * token, the values our export left out standing as fields to fill, and the placeholders of
 * the token and the header values.
 */
export function entryHeaders(
  raw: Pick<RawEntry, 'headers' | 'headerNamesToFill' | 'authKind'>,
  context: PlaceholderContext,
): { ok: true; headers: ImportHeader[]; bearerToken: string | undefined; placeholders: Placeholder[] } | { ok: false; reason: Said } {
  const pairs: [string, unknown][] = [...raw.headers];
  for (const headerName of raw.headerNamesToFill ?? []) pairs.push([headerName, exportHeaderToken(headerName.trim())]);
  const headers = normaliseHeaders(pairs);
  if (!headers.ok) return headers;
  let bearerToken = headers.bearerToken;
  if (bearerToken === undefined && raw.authKind === 'bearer') bearerToken = EXPORT_BEARER_TOKEN;
  const placeholders = [
    ...(bearerToken !== undefined ? bearerPlaceholders(bearerToken, context) : []),
    ...headerPlaceholders(headers.headers, context),
  ];
  return { ok: true, headers: headers.headers, bearerToken, placeholders };
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
