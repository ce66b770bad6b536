/**
 * Which scope to request (SPEC E7). The server's current challenge knows best what this
 * request needs, so it wins; step-up must not drop what was already granted, so it takes the
 * union; and `offline_access` is asked for only where the AS says it exists.
 */

export interface ScopeInputs {
  /** `scope` of the current `WWW-Authenticate` challenge. */
  challengeScope?: string;
  /** True for a 403 `insufficient_scope` step-up. */
  stepUp?: boolean;
  /** Scope of the tokens we hold. */
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
  let scopes: string[];
  const challenged = splitScope(input.challengeScope);
  if (challenged.length > 0) {
    scopes = input.stepUp ? [...splitScope(input.grantedScope), ...challenged] : challenged;
  } else if (input.configuredScopes && input.configuredScopes.length > 0) {
    scopes = [...input.configuredScopes];
  } else if (input.prmScopes && input.prmScopes.length > 0) {
    scopes = [...input.prmScopes];
  } else {
    scopes = [];
  }
  scopes = [...new Set(scopes.filter(Boolean))];
  if (scopes.length > 0 && input.asScopes?.includes('offline_access') && !scopes.includes('offline_access')) {
    scopes.push('offline_access');
  }
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}
