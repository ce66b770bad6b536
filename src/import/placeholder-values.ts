/**
 * The values the user typed for an entry's placeholders (B2): one value a token, falling back to
 * the token's `${VAR:-default}`, refused when it carries control characters (a header value must
 * stay one line), and reported by label when one is still missing.
 */
import type { Placeholder } from './import-schema.js';
import { say, type Said } from '../protocol/wording.js';
import { hasValueControlChar } from '../common/control-chars.js';

/** The value chosen for each token, or why none could be chosen and which tokens are missing. */
export type ChosenValues = { ok: true; chosen: Map<string, string> } | { ok: false; error: Said; missing: string[] };

/**
 * `values` is keyed by placeholder token (`${GITHUB_TOKEN}`); one value fills every field the
 * token appears in. An empty value counts as not filled.
 */
export function chooseValues(placeholders: readonly Placeholder[], values: Record<string, string>): ChosenValues {
  const chosen = new Map<string, string>();
  const missing: Placeholder[] = [];
  for (const placeholder of placeholders) {
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
  return { ok: true, chosen };
}

/** The chosen values of the placeholders in one field (`url`, `bearerToken`, `header:<Name>`), by token. */
export function valuesInField(
  placeholders: readonly Placeholder[],
  chosen: ReadonlyMap<string, string>,
  field: string,
): Map<string, string> {
  const map = new Map<string, string>();
  for (const placeholder of placeholders) {
    const value = chosen.get(placeholder.token);
    if (placeholder.field === field && value !== undefined) map.set(placeholder.token, value);
  }
  return map;
}
