/**
 * Paste-JSON import (SPEC B2): from the text a user pasted to the preview the panel shows —
 * what will be added, skipped and why, which values still have to be filled in, and which
 * entries collide with saved servers. Pure and total: it never throws and never touches
 * storage, so it runs unchanged in the offscreen document (SPEC B3), the panel and Node tests.
 */
import { buildEntry } from './build-entry.js';
import { type ExistingServer, markConflicts } from './conflicts.js';
import { readDialect } from './dialects.js';
import type { ImportPreview } from './import-schema.js';
import { parseJsonText } from './json-text.js';
import { MAX_ERRORS } from './limits.js';

export function parseImport(text: string, existing: readonly ExistingServer[]): ImportPreview {
  try {
    const parsed = parseJsonText(text);
    if (!parsed.ok) return { dialect: 'unknown', entries: [], errors: [parsed.error] };
    const read = readDialect(parsed.value);
    const built = read.entries.map((raw, index) => buildEntry(raw, index, read.context));
    const entries = markConflicts(built, usableExisting(existing));
    const errors = [...read.errors];
    if (errors.length === 0 && entries.length === 0) errors.push('The configuration lists no servers.');
    return { dialect: read.dialect, entries, errors: errors.slice(0, MAX_ERRORS).map((error) => error.slice(0, 1000)) };
  } catch {
    return { dialect: 'unknown', entries: [], errors: ['The pasted configuration could not be read.'] };
  }
}

function usableExisting(existing: unknown): ExistingServer[] {
  if (!Array.isArray(existing)) return [];
  const list: unknown[] = existing;
  return list.filter(
    (server): server is ExistingServer =>
      typeof server === 'object' &&
      server !== null &&
      'name' in server &&
      typeof server.name === 'string' &&
      'url' in server &&
      typeof server.url === 'string',
  );
}
