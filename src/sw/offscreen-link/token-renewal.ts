/**
 * Asks the AuthManager for a token that can answer a server's refusal (SPEC E3, E7, E9): a 401
 * gets a refresh, a 403 `insufficient_scope` a step-up, never a window (background work). A
 * server with a static bearer token is never refreshed (E1), nor one set up without
 * authorization unless it answered 401 Bearer (then needs-auth offers the switch to OAuth).
 */
import { RemoteError, toWireError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { AuthManager, RequestAuthState } from '../auth/auth-manager.js';
import type { AuthServerConfig } from '../auth/ports.js';
import { parseBearerChallenge } from '../auth/www-authenticate.js';

/**
 * What renewal needs of the AuthManager. `handleForbidden` is optional: without it a 403 is
 * passed through. Background work never opens a window, so a 403 `insufficient_scope` ends in
 * needs-auth with the challenged scope remembered for the user's next "Authorize" (step-up, SPEC E7).
 */
export type UnauthorizedHandler = Pick<AuthManager, 'handleUnauthorized'> & Partial<Pick<AuthManager, 'handleForbidden' | 'tokenAccepted'>>;

export interface TokenRenewalDeps {
  auth: UnauthorizedHandler;
  /** The current stored entry of a server (undefined once removed). */
  configOf(serverId: string): Promise<McpServerConfig | undefined>;
  authConfigOf(config: McpServerConfig): Promise<AuthServerConfig>;
}

const is401 = (e: unknown) => {
  const w = toWireError(e);
  return w.code === 'auth' && w.httpStatus === 401;
};

/** A 403 whose challenge asks for more scope: only more authorization can help. */
const isScopeChallenge = (e: unknown) => {
  const w = toWireError(e);
  return w.code === 'auth' && w.httpStatus === 403 && /insufficient_scope/i.test(w.wwwAuthenticate ?? '');
};

/** A refusal a fresh token may answer: a 401, or a 403 asking for more scope. */
export const isTokenRefusal = (e: unknown) => is401(e) || isScopeChallenge(e);

/** Turns an auth-core error into the wire error the manager maps to a state (needs-auth …). */
function asRemote(e: unknown): RemoteError {
  return e instanceof RemoteError ? e : new RemoteError(toWireError(e, 'auth'));
}

/**
 * A token for `serverId` that answers `error`, or undefined when there is none to get (the
 * refusal then stands). `rejected` is the token the server refused; `state` the request's budget (N5).
 */
export async function renewToken(
  deps: TokenRenewalDeps,
  serverId: string,
  error: unknown,
  rejected: string | undefined,
  state: RequestAuthState,
): Promise<string | undefined> {
  const config = await deps.configOf(serverId);
  if (!config || config.auth.kind === 'bearer') return undefined;
  const challenge = toWireError(error).wwwAuthenticate ?? null;
  // Set up without authorization but answering 401 Bearer: needs-auth, offering the switch to OAuth (E3).
  if (config.auth.kind === 'none' && !(is401(error) && parseBearerChallenge(challenge))) return undefined;
  try {
    if (isScopeChallenge(error)) {
      if (!deps.auth.handleForbidden) return undefined;
      return await deps.auth.handleForbidden(await deps.authConfigOf(config), challenge, { state, interactive: false });
    }
    return await deps.auth.handleUnauthorized(await deps.authConfigOf(config), challenge, {
      state,
      ...(rejected !== undefined ? { rejectedToken: rejected } : {}),
      interactive: false,
    });
  } catch (e) {
    // A scope challenge keeps its 403 and header, so a panel-started call can offer step-up (step-up.ts).
    if (isScopeChallenge(error))
      throw new RemoteError({ ...toWireError(asRemote(e)), httpStatus: 403, ...(challenge ? { wwwAuthenticate: challenge } : {}) });
    throw asRemote(e);
  }
}
