/**
 * Turns a previewed entry with placeholders into one that can be saved, once the user has
 * filled in the fields. Everything is checked again afterwards — the filled-in URL must pass
 * the URL rules, header values must be clean, and `Authorization: Bearer …` assembled from a
 * placeholder becomes bearer auth — because the values come from a form, not from the paste.
 */
import { type ExistingServer, withConflict } from './conflicts.js';
import { normaliseHeaders } from './headers.js';
import type { ImportEntry, Placeholder } from './import-schema.js';
import { MAX_HEADER_VALUE_LENGTH } from './limits.js';
import { substitute } from './placeholders.js';
import { checkUrl } from '../common/url-rules.js';
import { hasValueControlChar } from '../common/control-chars.js';
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
  const chosen = new Map<string, string>();
  const missing: Placeholder[] = [];
  for (const placeholder of entry.placeholders) {
    if (chosen.has(placeholder.token)) continue;
    const given = Object.hasOwn(values, placeholder.token) ? values[placeholder.token] : undefined;
    const value = typeof given === 'string' && given !== '' ? given : placeholder.defaultValue;
    if (value === undefined) {
      if (!missing.some((item) => item.token === placeholder.token)) missing.push(placeholder);
      continue;
    }
    if (hasValueControlChar(value)) return { ok: false, error: say('reasonImportValueControl', { label: placeholder.label }), missing: [] };
    chosen.set(placeholder.token, value);
  }
  if (missing.length > 0) {
    return {
      ok: false,
      error: say('reasonImportFillIn', { labels: missing.map((item) => item.label).join(', ') }),
      missing: missing.map((item) => item.token),
    };
  }

  const inField = (field: string): Map<string, string> => {
    const map = new Map<string, string>();
    for (const placeholder of entry.placeholders) {
      const value = chosen.get(placeholder.token);
      if (placeholder.field === field && value !== undefined) map.set(placeholder.token, value);
    }
    return map;
  };

  let url = entry.url;
  if (url !== undefined) {
    const check = checkUrl(substitute(url, inField('url')));
    if (!check.ok) return { ok: false, error: check.reason, missing: [] };
    url = check.url;
  }
  const pairs: [string, string][] = entry.headers.map((header) => [
    header.name,
    substitute(header.value, inField(`header:${header.name}`)),
  ]);
  const headers = normaliseHeaders(pairs);
  if (!headers.ok) return { ok: false, error: headers.reason, missing: [] };
  const filledToken = entry.bearerToken === undefined ? undefined : substitute(entry.bearerToken, inField('bearerToken')).trim();
  if (filledToken !== undefined && headers.bearerToken !== undefined) {
    return { ok: false, error: say('reasonImportTwoTokens'), missing: [] };
  }
  const bearerToken = filledToken ?? headers.bearerToken;
  if (bearerToken === '') return { ok: false, error: say('reasonImportEmptyToken'), missing: [] };
  if (bearerToken !== undefined && bearerToken.length > MAX_HEADER_VALUE_LENGTH) {
    return { ok: false, error: say('reasonImportTokenTooLong', { kib: MAX_HEADER_VALUE_LENGTH / 1024 }), missing: [] };
  }

  const { bearerToken: _old, clientId, scopes, ...rest } = entry;
  const authKind = bearerToken !== undefined ? 'bearer' : entry.authKind === 'bearer' ? 'none' : entry.authKind;
  let filled: ImportEntry = {
    ...rest,
    ...(url !== undefined ? { url } : {}),
    authKind,
    ...(bearerToken !== undefined ? { bearerToken } : {}),
    ...(authKind === 'oauth' && clientId !== undefined ? { clientId } : {}),
    ...(authKind === 'oauth' && scopes !== undefined ? { scopes } : {}),
    headers: headers.headers,
    placeholders: [],
  };
  if (existing !== undefined && filled.status === 'add') filled = withConflict(filled, existing);
  return { ok: true, entry: filled };
}
