/**
 * Decides which entries would collide, so nothing is overwritten silently (SPEC B2). An entry
 * collides with a saved server that has the same name (case-insensitive) or the same URL in
 * canonical form; a later entry of the same paste that repeats an earlier one is skipped.
 * URLs that still hold placeholders are compared by name only until they are filled in.
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

/** The saved server an entry collides with, if any. */
export function findExisting(entry: ImportEntry, existing: readonly ExistingServer[]): ExistingServer | undefined {
  const url = urlKey(entry);
  const name = nameKey(entry.name);
  return existing.find((server) => nameKey(server.name) === name || (url !== undefined && canonicalUrl(server.url) === url));
}

/** Marks duplicates within the paste as skipped and collisions with saved servers as conflicts. */
export function markConflicts(entries: readonly ImportEntry[], existing: readonly ExistingServer[]): ImportEntry[] {
  const names = new Set<string>();
  const urls = new Set<string>();
  return entries.map((entry) => {
    if (entry.status === 'skip') return entry;
    const url = urlKey(entry);
    const name = nameKey(entry.name);
    if (names.has(name) || (url !== undefined && urls.has(url))) {
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
    if (url !== undefined) urls.add(url);
    return withConflict(entry, existing);
  });
}

/** The entry with status `conflict` when it collides with a saved server, else unchanged. */
export function withConflict(entry: ImportEntry, existing: readonly ExistingServer[]): ImportEntry {
  const match = findExisting(entry, existing);
  if (match === undefined) return entry;
  return {
    ...entry,
    status: 'conflict',
    reason: EXISTS.message,
    reasonWording: EXISTS.wording,
    conflictWith: match.name.slice(0, 120) || entry.name,
  };
}
