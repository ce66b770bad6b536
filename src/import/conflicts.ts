/**
 * Decides which entries would collide, so nothing is overwritten silently (SPEC B2). An entry
 * collides with a saved server that has the same name (case-insensitive): the user is asked
 * whether to overwrite it. An entry on the URL (canonical form) of a saved server under another
 * name is another account on that server (S3): it is added beside it, and the preview says so
 * (`anotherAccountOf`) before anything is written. A later entry of the same paste that repeats
 * an earlier one's name is skipped; one on an earlier one's URL under another name is another
 * account too. URLs that still hold placeholders are compared once they are filled in.
 */
import type { ImportEntry } from './import-schema.js';
import { DUPLICATE, EXISTS } from './reasons.js';
import { canonicalUrl } from '../common/url-rules.js';

export interface ExistingServer {
  name: string;
  url: string;
}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

function urlKey(entry: ImportEntry): string | undefined {
  if (entry.url === undefined || entry.placeholders.some((placeholder) => placeholder.field === 'url')) return undefined;
  return canonicalUrl(entry.url);
}

/** The saved server an entry collides with (the same name), if any. */
export function findExisting(entry: ImportEntry, existing: readonly ExistingServer[]): ExistingServer | undefined {
  const name = nameKey(entry.name);
  return existing.find((server) => nameKey(server.name) === name);
}

/** A saved server on the entry's URL under another name: the entry is another account of it. */
function sameUrlServer(entry: ImportEntry, existing: readonly ExistingServer[]): ExistingServer | undefined {
  const url = urlKey(entry);
  return url === undefined ? undefined : existing.find((server) => canonicalUrl(server.url) === url);
}

/** Marks duplicates within the paste as skipped and collisions with saved servers as conflicts. */
export function markConflicts(entries: readonly ImportEntry[], existing: readonly ExistingServer[]): ImportEntry[] {
  const names = new Set<string>();
  const earlier: ExistingServer[] = [];
  return entries.map((entry) => {
    if (entry.status === 'skip') return entry;
    const name = nameKey(entry.name);
    if (names.has(name)) {
      return {
        name: entry.name,
        ...(entry.url !== undefined ? { url: entry.url } : {}),
        status: 'skip',
        reason: DUPLICATE.message,
        reasonWording: DUPLICATE.wording,
        authKind: 'none',
        headers: [],
        placeholders: [],
        enabled: entry.enabled,
        disabledTools: [],
        connectOnStartup: entry.connectOnStartup,
      };
    }
    names.add(name);
    const marked = withConflict(entry, existing);
    const sibling = marked.status === 'add' && !marked.anotherAccountOf ? sameUrlServer(entry, earlier) : undefined;
    if (entry.url !== undefined) earlier.push({ name: entry.name, url: entry.url });
    return sibling ? { ...marked, anotherAccountOf: sibling.name.slice(0, 120) } : marked;
  });
}

/**
 * The entry with status `conflict` when it collides with a saved server, else with
 * `anotherAccountOf` when a saved server already uses its URL, else unchanged.
 */
export function withConflict(entry: ImportEntry, existing: readonly ExistingServer[]): ImportEntry {
  const match = findExisting(entry, existing);
  if (match === undefined) {
    const sibling = sameUrlServer(entry, existing);
    return sibling ? { ...entry, anotherAccountOf: sibling.name.slice(0, 120) || entry.name } : entry;
  }
  return {
    ...entry,
    status: 'conflict',
    reason: EXISTS.message,
    reasonWording: EXISTS.wording,
    conflictWith: match.name.slice(0, 120) || entry.name,
  };
}
