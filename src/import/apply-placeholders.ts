/**
 * Turns a previewed entry with placeholders into one that can be saved, once the user has
 * filled in the fields. Everything is checked again afterwards — the filled-in URL must pass
 * the URL rules, header values must be clean, and `Authorization: Bearer …` assembled from a
 * placeholder becomes bearer auth — because the values come from a form, not from the paste.
 */
import { type ExistingServer, withConflict } from './conflicts.js';
import { normaliseHeaders } from './headers.js';
import type { ImportEntry, ImportHeader } from './import-schema.js';
import { chooseValues, valuesInField } from './placeholder-values.js';
import { MAX_HEADER_VALUE_LENGTH } from './limits.js';
import { substitute } from './placeholders.js';
import { checkUrl } from '../common/url-rules.js';
import { say, type Said } from '../protocol/wording.js';

/** A refusal is said with a wording, so the panel shows it in the user's language. */
export type ApplyResult = { ok: true; entry: ImportEntry } | { ok: false; error: Said; missing: string[] };

/** A skipped entry's own reason, with its wording when the preview gave one. */
function skippedReason(entry: ImportEntry): Said {
  return entry.reasonWording ? { message: entry.reason ?? '', wording: entry.reasonWording } : { message: entry.reason ?? '' };
}

/**
 * `values` is keyed by placeholder token (`${GITHUB_TOKEN}`); one value fills every field the
 * token appears in. A placeholder without a value falls back to its `${VAR:-default}` default;
 * an empty value counts as not filled. When `existing` is given, a URL that only became known
 * now is checked for a collision as well.
 */
export function applyPlaceholders(entry: ImportEntry, values: Record<string, string>, existing?: readonly ExistingServer[]): ApplyResult {
  if (entry.status === 'skip')
    return { ok: false, error: entry.reason ? skippedReason(entry) : say('reasonImportNotImportable'), missing: [] };
  const chosen = chooseValues(entry.placeholders, values);
  if (!chosen.ok) return chosen;
  const inField = (field: string) => valuesInField(entry.placeholders, chosen.chosen, field);

  let url = entry.url;
  if (url !== undefined) {
    const check = checkUrl(substitute(url, inField('url')));
    if (!check.ok) return refused(check.reason);
    url = check.url;
  }
  const pairs: [string, string][] = entry.headers.map((header) => [
    header.name,
    substitute(header.value, inField(`header:${header.name}`)),
  ]);
  const headers = normaliseHeaders(pairs);
  if (!headers.ok) return refused(headers.reason);
  const bearer = filledBearer(entry.bearerToken, inField('bearerToken'), headers.bearerToken);
  if (!bearer.ok) return bearer;

  let filled = filledEntry(entry, url, bearer.token, headers.headers);
  if (existing !== undefined && filled.status === 'add') filled = withConflict(filled, existing);
  return { ok: true, entry: filled };
}

const refused = (error: Said): ApplyResult => ({ ok: false, error, missing: [] });

/**
 * The bearer token after filling in: from the entry's own token field or from an
 * `Authorization: Bearer …` header, never both, never empty and within the header bound.
 */
export function filledBearer(
  entryToken: string | undefined,
  values: ReadonlyMap<string, string>,
  headerToken: string | undefined,
): { ok: true; token: string | undefined } | { ok: false; error: Said; missing: [] } {
  const filledToken = entryToken === undefined ? undefined : substitute(entryToken, values).trim();
  if (filledToken !== undefined && headerToken !== undefined) return { ok: false, error: say('reasonImportTwoTokens'), missing: [] };
  const token = filledToken ?? headerToken;
  if (token === '') return { ok: false, error: say('reasonImportEmptyToken'), missing: [] };
  if (token !== undefined && token.length > MAX_HEADER_VALUE_LENGTH) {
    return { ok: false, error: say('reasonImportTokenTooLong', { kib: MAX_HEADER_VALUE_LENGTH / 1024 }), missing: [] };
  }
  return { ok: true, token };
}

/** The entry with its URL, token and headers filled in: a token makes it bearer, none leaves a bearer entry without auth. */
function filledEntry(entry: ImportEntry, url: string | undefined, bearerToken: string | undefined, headers: ImportHeader[]): ImportEntry {
  const { bearerToken: _old, clientId, scopes, ...rest } = entry;
  const authKind = bearerToken !== undefined ? 'bearer' : entry.authKind === 'bearer' ? 'none' : entry.authKind;
  return {
    ...rest,
    ...(url !== undefined ? { url } : {}),
    authKind,
    ...(bearerToken !== undefined ? { bearerToken } : {}),
    ...(authKind === 'oauth' && clientId !== undefined ? { clientId } : {}),
    ...(authKind === 'oauth' && scopes !== undefined ? { scopes } : {}),
    headers,
    placeholders: [],
  };
}
