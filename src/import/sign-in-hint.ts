/**
 * What an import preview can say honestly about sign-in, without asking the server (SPEC E3):
 * an OAuth entry will need it; an entry that sends no credentials at all (no token, no header)
 * may need it, since a remote server often answers such a request with a 401 Bearer challenge —
 * its card then offers the switch to OAuth. An entry with a token or headers says nothing.
 */
import type { ImportEntry } from './import-schema.js';

export type SignInHint = 'needed' | 'maybe';

export function signInHint(entry: Pick<ImportEntry, 'status' | 'authKind' | 'headers'>): SignInHint | undefined {
  if (entry.status === 'skip') return undefined;
  if (entry.authKind === 'oauth') return 'needed';
  if (entry.authKind === 'none' && entry.headers.length === 0) return 'maybe';
  return undefined;
}
