/**
 * The scope an interactive authorization asks for (SPEC E7), and the one case where a step-up
 * registers its client again to get it: an authorization server that holds a client we
 * registered to the narrower scope it was registered with answers `invalid_scope`.
 */
import type { DiscoveryResult } from './discovery.js';
import { AuthorizationDeniedError } from './errors.js';
import type { OAuthAuth } from './ports.js';
import { selectScope } from './scope.js';
import type { BearerChallenge } from './www-authenticate.js';

export interface FlowScopeInputs {
  /** The server's current challenge, if it sent one. */
  challenge: BearerChallenge | undefined;
  /** The scope of the tokens held for this binding: kept whatever the reason of this flow. */
  granted: string | undefined;
  d: Pick<DiscoveryResult, 'prm' | 'metadata'>;
  auth: Pick<OAuthAuth, 'scopes'>;
}

export function flowScope({ challenge, granted, d, auth }: FlowScopeInputs): string | undefined {
  return selectScope({
    ...(challenge?.scope !== undefined ? { challengeScope: challenge.scope } : {}),
    ...(granted !== undefined ? { grantedScope: granted } : {}),
    ...(d.prm?.scopes_supported ? { prmScopes: d.prm.scopes_supported } : {}),
    ...(auth.scopes ? { configuredScopes: auth.scopes } : {}),
    ...(d.metadata.scopes_supported ? { asScopes: d.metadata.scopes_supported } : {}),
  });
}

export interface ReRegistration {
  stepUp: boolean;
  /** Whether the client used was one registered earlier (not a fresh one, not a configured one). */
  storedRegistration: boolean;
  auth: Pick<OAuthAuth, 'clientId'>;
  d: Pick<DiscoveryResult, 'metadata'>;
}

/** Whether this failure of an authorization is worth one more try with a client registered for the wider scope. */
export function registersAgainForScope(e: unknown, { stepUp, storedRegistration, auth, d }: ReRegistration): boolean {
  return (
    stepUp &&
    !auth.clientId &&
    storedRegistration &&
    !!d.metadata.registration_endpoint &&
    e instanceof AuthorizationDeniedError &&
    e.oauthError === 'invalid_scope'
  );
}
