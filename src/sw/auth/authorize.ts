/**
 * The front-channel step (SPEC E2, N3): build the authorization URL, then accept the callback
 * only if it answers exactly the request we made (`state`) from exactly the AS we asked
 * (`iss`, RFC 9207).
 */
import { say } from '../../protocol/wording.js';
import { AuthorizationCancelledError, AuthorizationDeniedError, AuthorizationResponseError } from './errors.js';
import { assertAllowedEndpoint, tryParseUrl } from './url-policy.js';

export interface AuthorizationRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  scope?: string;
  /** Canonical resource (RFC 8707); omitted only for 2025-03-26 servers without PRM. */
  resource?: string;
  /** `select_account` or `login` when another entry shares the server's URL (S3, account-prompt.ts). */
  prompt?: string;
}

/** The URL to open; the endpoint is checked against the endpoint policy first (N2). */
export function buildAuthorizationUrl(req: AuthorizationRequest): string {
  assertAllowedEndpoint(req.authorizationEndpoint, 'authorization endpoint');
  const url = new URL(req.authorizationEndpoint);
  url.hash = '';
  const p = url.searchParams;
  p.set('response_type', 'code');
  p.set('client_id', req.clientId);
  p.set('redirect_uri', req.redirectUri);
  p.set('code_challenge', req.codeChallenge);
  p.set('code_challenge_method', 'S256');
  p.set('state', req.state);
  if (req.scope) p.set('scope', req.scope);
  if (req.resource) p.set('resource', req.resource);
  if (req.prompt) p.set('prompt', req.prompt);
  return url.href;
}

export interface CallbackExpectations {
  state: string;
  redirectUri: string;
  /** The issuer we sent the request to. */
  issuer: string;
  /** AS metadata `authorization_response_iss_parameter_supported`. */
  issRequired: boolean;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Extract the code from the callback URL, or throw the precise reason it is unacceptable. */
export function parseAuthorizationCallback(callbackUrl: string, expect: CallbackExpectations): { code: string } {
  const url = tryParseUrl(callbackUrl);
  const redirect = new URL(expect.redirectUri);
  if (!url || url.origin !== redirect.origin || url.pathname !== redirect.pathname) {
    throw new AuthorizationResponseError('The authorization finished at an unexpected address; it was ignored.');
  }
  const p = url.searchParams;
  if (p.get('state') !== expect.state) {
    throw new AuthorizationResponseError(
      'The authorization response does not match the request that was sent (state mismatch); it was ignored.',
    );
  }
  const iss = p.get('iss');
  if (iss !== null || expect.issRequired) {
    if (iss !== expect.issuer) {
      throw new AuthorizationResponseError(
        `The issuer check failed: the authorization response names the issuer "${clip(iss ?? '(none)', 200)}", not the authorization server ${expect.issuer} (RFC 9207 "iss" mismatch); it was ignored.`,
        expect.issuer,
      );
    }
  }
  const error = p.get('error');
  if (error !== null) {
    const desc = p.get('error_description');
    const detail = desc ? `: ${clip(desc, 300)}` : '.';
    const said =
      error === 'access_denied'
        ? say('reasonAccessDenied', { detail })
        : say('reasonAuthDenied', { issuer: expect.issuer, error: clip(error, 100), detail });
    throw new AuthorizationDeniedError(said, expect.issuer, clip(error, 100));
  }
  const code = p.get('code');
  if (!code) throw new AuthorizationResponseError('The authorization response carries no authorization code.', expect.issuer);
  return { code };
}

/** Messages with which `chrome.identity.launchWebAuthFlow` reports a closed or refused window. */
const CANCEL_MESSAGES = ['the user did not approve access', 'user cancelled', 'user canceled'];

/** Turn the identity port's rejection into {@link AuthorizationCancelledError} when it is one. */
export function mapAuthorizeFailure(e: unknown): unknown {
  const message = e instanceof Error ? e.message : String(e);
  if (CANCEL_MESSAGES.some((m) => message.toLowerCase().includes(m))) {
    return new AuthorizationCancelledError(say('reasonAuthWindowClosed'), undefined);
  }
  return e;
}
