/**
 * What a dialect reader extracts from one pasted entry, before any validation. Keeping the
 * dialect knowledge (which field holds the URL, what `url` means in Gemini, …) apart from the
 * checks means every dialect gets exactly the same URL, header and placeholder rules.
 */
import type { Said } from '../protocol/wording.js';
export interface RawEntry {
  name: string;
  /** Set when the dialect already knows the entry cannot be imported (stdio, SSE, …). */
  skip?: Said;
  url?: unknown;
  /** Header pairs, Authorization included; values unchecked. */
  headers: [string, unknown][];
  enabled: boolean;
  connectOnStartup?: unknown;
  disabledTools?: unknown;
  includeTools?: unknown;
  /** Milliseconds, as written (Gemini `timeout`, our `timeoutMs`). */
  timeout?: unknown;
  /** Explicit auth kind (our export), otherwise derived from headers and `clientId`. */
  authKind?: 'none' | 'bearer' | 'oauth';
  clientId?: unknown;
  scopes?: unknown;
  /** Header names whose values were left out of our export: they become fields to fill. */
  headerNamesToFill?: string[];
  /** Pinned definitions and "review new tools" (our export only, SPEC S2); validated by build-entry. */
  pins?: unknown;
  reviewNewTools?: unknown;
  notes: string[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function skipped(name: string, reason: Said, url?: unknown): RawEntry {
  return { name, skip: reason, url, headers: [], enabled: true, notes: [] };
}
