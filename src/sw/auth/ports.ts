/**
 * The ports the authorization core runs over. Everything with a side effect is injected so
 * the same code runs in the service worker, in Node tests and in a conformance harness.
 */

/** The subset of `fetch` we use. */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** Milliseconds since the epoch. */
export type Clock = () => number;

/** Cryptographic randomness (`crypto.getRandomValues`). */
export interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
}

/**
 * Runs the browser part of the authorization-code flow: open `authorizationUrl` and resolve
 * with the full callback URL (in the extension: `chrome.identity.launchWebAuthFlow`).
 * Rejecting with "The user did not approve access." means the user closed the window.
 */
export type AuthorizeFn = (authorizationUrl: string) => Promise<string>;

/** Which authorization server a credential belongs to (SPEC E10). */
export interface AuthBinding {
  /** Canonical MCP resource URL. */
  resource: string;
  /** Issuer identifier of the authorization server. */
  issuer: string;
}

/** Where credentials are filed: the server and its binding, so nothing leaks across either. */
export interface CredentialKey extends AuthBinding {
  serverId: string;
}

/** Key string that differs whenever server, resource or issuer differ. */
export function credentialKeyString(key: CredentialKey): string {
  return JSON.stringify([key.serverId, key.resource, key.issuer]);
}

/** A client we registered dynamically (or by CIMD); preconfigured ones come from the config. */
export interface StoredClient {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
}

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** Lives only in session storage in the extension (SPEC F1). */
export interface StoredAccessToken {
  token: string;
  /** Epoch ms after which the token should be refreshed; absent = unknown, use until rejected. */
  expiresAt?: number;
  /** Scope granted (or, if the AS did not say, requested). */
  scope?: string;
}

/** Sealed at rest in the extension (SPEC F2). */
export interface StoredRefreshToken {
  token: string;
  scope?: string;
}

/**
 * Credential storage. The extension implements it over `chrome.storage` with sealing; tests
 * use an in-memory one (test/support). All methods are keyed so that a credential can only be
 * found again under the exact (server, resource, issuer) it was obtained for.
 */
export interface CredentialStore {
  getBinding(serverId: string): Promise<AuthBinding | undefined>;
  putBinding(serverId: string, binding: AuthBinding | undefined): Promise<void>;
  getClient(key: CredentialKey): Promise<StoredClient | undefined>;
  putClient(key: CredentialKey, client: StoredClient | undefined): Promise<void>;
  getAccessToken(key: CredentialKey): Promise<StoredAccessToken | undefined>;
  putAccessToken(key: CredentialKey, token: StoredAccessToken | undefined): Promise<void>;
  getRefreshToken(key: CredentialKey): Promise<StoredRefreshToken | undefined>;
  putRefreshToken(key: CredentialKey, token: StoredRefreshToken | undefined): Promise<void>;
  /** Remove client, access and refresh token for this key. */
  clear(key: CredentialKey): Promise<void>;
  /** Records which issuer the user's configured client was first used with (E10). */
  pinClientIssuer?(serverId: string, issuer: string | undefined): Promise<void>;
}

/** The server configuration the auth core needs, with secrets already unsealed by the caller. */
export interface AuthServerConfig {
  id: string;
  url: string;
  auth: NoneAuth | BearerAuth | OAuthAuth;
}
interface NoneAuth {
  kind: 'none';
}
interface BearerAuth {
  kind: 'bearer';
  token: string;
}
export interface OAuthAuth {
  kind: 'oauth';
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** Client ID Metadata Document URL, used only if the AS supports CIMD. */
  clientMetadataUrl?: string;
  /** The issuer the configured `clientId` was first used with; it is never sent to another (E10). */
  clientIssuer?: string;
  /**
   * Another entry shares this server's URL (another account, S3): an authorization asks the AS to
   * let the user choose or sign in to an account, since the browser's session there may be the
   * other entry's user.
   */
  otherAccounts?: boolean;
}
