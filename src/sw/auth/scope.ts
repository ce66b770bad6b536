/**
 * Which scope to request (SPEC E7). The server's current challenge knows best what this
 * request needs, so it wins over the PRM's `scopes_supported`, which wins over what the user
 * configured. What was already granted is always kept — step-up and "Re-authorize" ask for
 * granted ∪ needed, so a stale challenge never narrows the grant — and `offline_access` is
 * asked for only where the AS says it exists.
 */

export interface ScopeInputs {
  /** `scope` of the current `WWW-Authenticate` challenge. */
  challengeScope?: string;
  /** Scope of the tokens we hold (kept in every new request). */
  grantedScope?: string;
  /** PRM `scopes_supported`. */
  prmScopes?: readonly string[];
  /** Scopes the user configured for this server. */
  configuredScopes?: readonly string[];
  /** AS metadata `scopes_supported`. */
  asScopes?: readonly string[];
}

/** Split on whitespace, drop empties and duplicates, keep order. */
function splitScope(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(/\s+/).filter(Boolean))];
}

/** The `scope` parameter to send, or `undefined` to omit it. */
export function selectScope(input: ScopeInputs): string | undefined {
  let needed: string[];
  const challenged = splitScope(input.challengeScope);
  if (challenged.length > 0) needed = challenged;
  else if (input.prmScopes && input.prmScopes.length > 0) needed = [...input.prmScopes];
  else if (input.configuredScopes && input.configuredScopes.length > 0) needed = [...input.configuredScopes];
  else needed = [];
  const scopes = [...new Set([...splitScope(input.grantedScope), ...needed].filter(Boolean))];
  if (scopes.length > 0 && input.asScopes?.includes('offline_access') && !scopes.includes('offline_access')) {
    scopes.push('offline_access');
  }
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}
