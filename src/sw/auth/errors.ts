/**
 * Named authorization errors. Each carries a stable `code` the UI and the connection state
 * machine switch on (SPEC C1 attributed reasons), and a plain-words message that names the URL
 * and what was wrong, so a failed discovery is never an opaque "auth failed".
 */
import { say, type Said, type Wording } from '../../protocol/wording.js';
import type { ErrorAction, WireErrorCodeOf } from '../../protocol/error-codes.js';

/** Stable codes, a part of the wire vocabulary, so they reach the panel unchanged. */
export type AuthErrorCode = WireErrorCodeOf<
  | 'auth'
  | 'auth-discovery'
  | 'resource-mismatch'
  | 'multiple-authorization-servers'
  | 'auth-metadata'
  | 'registration'
  | 'client-id-required'
  | 'client-issuer-changed'
  | 'token'
  | 'auth-denied'
  | 'auth-response'
  | 'auth-cancelled'
  | 'needs-auth'
  | 'insecure-endpoint'
  | 'redirect-refused'
  | 'response-too-large'
  | 'bad-response'
  | 'network'
  | 'step-up-limit'
  | 'forbidden'
  | 'bearer-rejected'
>;

/** Base class: never thrown directly, so `instanceof AuthError` means "one of ours". */
abstract class AuthError extends Error {
  abstract readonly code: AuthErrorCode;
  /** What the user can do about it; travels with the code to the panel's button. */
  readonly action: ErrorAction | undefined;
  /** The URL the failure is about, when there is one (shown to the user). */
  readonly url: string | undefined;
  /** The message as a code + parameters, for the panel to say in the user's language. */
  readonly wording: Wording | undefined;
  constructor(message: string | Said, url?: string, options?: { cause?: unknown }) {
    super(typeof message === 'string' ? message : message.message, options);
    this.wording = typeof message === 'string' ? undefined : message.wording;
    this.url = url;
    this.name = new.target.name;
  }
}

/** The base of an error that adds nothing but its code; the subclass keeps its own name. */
function codedAuthError(code: AuthErrorCode) {
  return class extends AuthError {
    readonly code: AuthErrorCode = code;
  };
}

/** Protected-resource discovery failed (no usable PRM, bad `authorization_servers`, …). */
export class DiscoveryError extends AuthError {
  readonly code: AuthErrorCode = 'auth-discovery';
}

/** The PRM names a different resource than the server URL the user added (E4). */
export class ResourceMismatchError extends DiscoveryError {
  override readonly code: AuthErrorCode = 'resource-mismatch';
}

/** Several authorization servers and no prior choice: we refuse to guess (E4). */
export class MultipleAuthorizationServersError extends DiscoveryError {
  override readonly code: AuthErrorCode = 'multiple-authorization-servers';
  constructor(
    readonly issuers: readonly string[],
    url: string,
  ) {
    super(say('reasonSeveralAuthServers', { url, issuers: issuers.join(', ') }), url);
  }
}

/** Authorization-server metadata missing or invalid (E5). */
export class MetadataError extends AuthError {
  readonly code: AuthErrorCode = 'auth-metadata';
}

/** Dynamic client registration failed or returned something unusable (E8). */
export class RegistrationError extends AuthError {
  readonly code: AuthErrorCode = 'registration';
}

/** No registration endpoint and no configured client id: the UI offers the client-ID field. */
export class ClientIdRequiredError extends RegistrationError {
  override readonly code: AuthErrorCode = 'client-id-required';
  override readonly action: ErrorAction = 'edit';
}

/**
 * The user's configured client belongs to the authorization server it was first used with; the
 * server now names another one. Its client id and secret are not sent there (E10).
 */
export class ConfiguredClientIssuerError extends AuthError {
  readonly code: AuthErrorCode = 'client-issuer-changed';
  override readonly action: ErrorAction = 'edit';
  constructor(
    readonly newIssuer: string,
    readonly pinnedIssuer: string,
  ) {
    super(say('reasonClientIssuerChanged', { new: newIssuer, pinned: pinnedIssuer }), newIssuer);
  }
}

/** The token endpoint refused or answered with an invalid token response (E9, N4). */
export class TokenError extends AuthError {
  readonly code: AuthErrorCode = 'token';
  constructor(
    message: string | Said,
    url?: string,
    /** The OAuth `error` value, e.g. `invalid_grant`, when the AS sent one. */
    readonly oauthError?: string,
    options?: { cause?: unknown },
  ) {
    super(message, url, options);
  }
}

/** The authorization server answered the authorization request with `error=` (N3). */
export class AuthorizationDeniedError extends AuthError {
  readonly code: AuthErrorCode = 'auth-denied';
  constructor(
    message: string | Said,
    url: string | undefined,
    readonly oauthError: string,
  ) {
    super(message, url);
  }
}

/** The callback failed a check (state, issuer, missing code): possibly an attack (N3). */
export class AuthorizationResponseError extends codedAuthError('auth-response') {}

/** The user closed or rejected the authorization window. */
export class AuthorizationCancelledError extends codedAuthError('auth-cancelled') {}

/**
 * No usable credentials and no interaction allowed: the server is in `needs-auth` (C1, E9).
 * `action` says which button helps: `authorize` (the default), `reauthorize` once a sign-in
 * has lapsed, or `edit` when the server's settings have no way to authorize.
 */
export class AuthorizationRequiredError extends AuthError {
  readonly code: AuthErrorCode = 'needs-auth';
  override readonly action: ErrorAction;
  constructor(message: string | Said, url?: string, options?: { cause?: unknown; action?: ErrorAction }) {
    super(message, url, options?.cause === undefined ? undefined : { cause: options.cause });
    this.action = options?.action ?? 'authorize';
  }
}

/** An endpoint is neither HTTPS nor explicit loopback HTTP; refused before any request (N2). */
export class InsecureEndpointError extends codedAuthError('insecure-endpoint') {}

/** A discovery or OAuth endpoint tried to redirect us (N2, E6). */
export class RedirectRefusedError extends codedAuthError('redirect-refused') {}

/** A response body exceeded its byte cap (N1). */
export class ResponseTooLargeError extends codedAuthError('response-too-large') {}

/** A response was not the JSON it should be (wrong content type, unparsable). */
export class BadResponseError extends codedAuthError('bad-response') {}

/** The network request itself failed (DNS, TLS, connection refused, CORS). */
export class AuthNetworkError extends codedAuthError('network') {}

/** More than the allowed number of step-up authorizations for one request (N5). */
export class StepUpLimitError extends codedAuthError('step-up-limit') {}

/** A 403 that is not an `insufficient_scope` challenge: more authorization will not help. */
export class ForbiddenError extends codedAuthError('forbidden') {}

/**
 * The server refused a token its own authorization server had just issued (N5): authorizing
 * again would only fetch another token it refuses, so the client stops after one attempt with
 * this terminal error (state `error`, not `needs-auth`: Authorize is not the primary action for it).
 */
export class FreshTokenRefusedError extends AuthError {
  readonly code: AuthErrorCode = 'auth';
  override readonly action: ErrorAction = 'retry';
  constructor(url: string) {
    super(say('reasonFreshTokenRefused', { url }), url);
  }
}

/** A static bearer token was rejected; only the user can fix it (E1). */
export class BearerRejectedError extends AuthError {
  readonly code: AuthErrorCode = 'bearer-rejected';
  override readonly action: ErrorAction = 'edit';
  constructor(url?: string) {
    super(say('reasonBearerRejected'), url);
  }
}
