/**
 * How a previewed entry will authorize, in the few words the preview shows beside it (SPEC B2):
 * OAuth, a bearer token (from which placeholder, to be filled in, or written in the paste), only
 * custom headers, or nothing. Read from the entry alone; the words are the panel's.
 */
import type { ImportEntry } from './import-schema.js';

/** The token our own export puts where it left a bearer token out. */
const EXPORT_BEARER_TOKEN = '${bearer-token}';

export type AuthSummary =
  | { kind: 'oauth' }
  /** `from`: the placeholders the token is made of, as written (`${GITHUB_TOKEN}`). */
  | { kind: 'bearer-from'; from: string[] }
  /** Left out of an export: the user types it in the preview. */
  | { kind: 'bearer-to-fill' }
  | { kind: 'bearer-in-paste' }
  | { kind: 'headers' }
  | { kind: 'none' };

export interface EntryAuth {
  summary: AuthSummary;
  /** Names of the static headers sent besides (never their values). */
  headerNames: string[];
}

export function authSummary(entry: Pick<ImportEntry, 'status' | 'authKind' | 'headers' | 'placeholders'>): EntryAuth | undefined {
  if (entry.status === 'skip') return undefined;
  const headerNames = entry.headers.map((header) => header.name);
  return { summary: summaryOf(entry), headerNames };
}

function summaryOf(entry: Pick<ImportEntry, 'authKind' | 'headers' | 'placeholders'>): AuthSummary {
  if (entry.authKind === 'oauth') return { kind: 'oauth' };
  if (entry.authKind === 'bearer') {
    const tokens = entry.placeholders.filter((placeholder) => placeholder.field === 'bearerToken').map((placeholder) => placeholder.token);
    if (tokens.includes(EXPORT_BEARER_TOKEN)) return { kind: 'bearer-to-fill' };
    return tokens.length > 0 ? { kind: 'bearer-from', from: tokens } : { kind: 'bearer-in-paste' };
  }
  return entry.headers.length > 0 ? { kind: 'headers' } : { kind: 'none' };
}
