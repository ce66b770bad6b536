/** URL checks for import entries whose URL still holds `${…}` placeholders. */
import type { Said } from '../protocol/wording.js';
import { MAX_URL_LENGTH } from './limits.js';
import { checkUrl, invalidUrl } from '../common/url-rules.js';

/**
 * Validates a URL that still contains placeholders. The placeholders are replaced by a filler;
 * when the filled URL fails only because a placeholder sits in the scheme or host (say
 * `https://${HOST}/mcp` or `${BASE_URL}/mcp`), judgement is deferred to when the user has filled
 * it in (`applyPlaceholders` checks again). A problem elsewhere skips the entry now.
 */
export function checkUrlWithPlaceholders(raw: string, tokens: readonly string[]): { ok: true } | { ok: false; reason: Said } {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: invalidUrl('too long') };
  let filled = raw;
  for (const token of tokens) filled = filled.split(token).join('x');
  const check = checkUrl(filled);
  if (check.ok) return { ok: true };
  const authorityEnd = endOfAuthority(raw);
  const firstPlaceholder = Math.min(...tokens.map((token) => raw.indexOf(token)).filter((index) => index >= 0));
  if (firstPlaceholder < authorityEnd) return { ok: true };
  return check;
}

function endOfAuthority(raw: string): number {
  const schemeEnd = raw.indexOf('://');
  if (schemeEnd === -1) return raw.length;
  const rest = raw.slice(schemeEnd + 3).search(/[/?#]/);
  return rest === -1 ? raw.length : schemeEnd + 3 + rest;
}
