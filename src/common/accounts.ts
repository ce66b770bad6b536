/**
 * Several accounts on one server URL (S3). Two entries may share a URL — a work and a personal
 * account — as long as their names differ: the name is what tells them apart in the panel, and
 * their ids (slugged from the names) keep the agent's tool names unique and readable. The same
 * URL under the same name (case and surrounding spaces ignored) is a duplicate. URLs are compared
 * in canonical form ({@link canonicalUrl}), names trimmed and lowercased.
 */
import { canonicalUrl } from './url-rules.js';

export interface NamedEntry {
  id?: string;
  name: string;
  url: string;
}

export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export function sameUrl(a: string, b: string): boolean {
  return canonicalUrl(a) === canonicalUrl(b);
}

/** The entries other than `entry` itself (by id) on the same URL. */
export function otherAccountsOf<T extends NamedEntry>(servers: readonly T[], entry: NamedEntry): T[] {
  return servers.filter((s) => (entry.id === undefined || s.id !== entry.id) && sameUrl(s.url, entry.url));
}

/** An entry other than `entry` with its URL and its name: what adding or renaming `entry` must refuse. */
export function duplicateOf<T extends NamedEntry>(servers: readonly T[], entry: NamedEntry): T | undefined {
  return otherAccountsOf(servers, entry).find((s) => sameName(s.name, entry.name));
}

/**
 * A name for another account on a URL that `taken` entries already use: the base name with a
 * number — "GitHub (2)", "GitHub (3)" — the first one no entry on that URL has. `base` is bounded
 * by the caller (a server name is at most a form field's length).
 */
export function anotherAccountName(base: string, taken: readonly NamedEntry[]): string {
  const stem = base.trim().replace(/\s*\(\d+\)$/, '') || base.trim();
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})`;
    if (!taken.some((s) => sameName(s.name, candidate))) return candidate;
  }
}
