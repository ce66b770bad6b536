/**
 * The orchestrator: turns "I need a token for this server" into the right sequence of OAuth
 * steps, and keeps every loop bounded (SPEC N5). It holds no credentials itself — the
 * {@link CredentialStore} does, keyed by binding (E10) — so a service-worker restart loses
 * only in-flight promises and discovery caches, both safe to rebuild.
 */
import { say } from '../../protocol/wording.js';
import { probeChallenge } from './challenge-probe.js';
import { createPkce, randomState } from './pkce.js';
import { buildAuthorizationUrl, mapAuthorizeFailure, parseAuthorizationCallback } from './authorize.js';
import { discover, withLegacyNote, type DiscoveryResult } from './discovery.js';
import {
  AuthorizationRequiredError,
  BearerRejectedError,
  ConfiguredClientIssuerError,
  ForbiddenError,
  FreshTokenRefusedError,
  StepUpLimitError,
  TokenError,
} from './errors.js';
import { chooseAuthMethod, resolveClient } from './registration.js';
import { accountPrompt } from './account-prompt.js';
import { revokeToken } from './revoke.js';
import { flowScope, registersAgainForScope } from './flow-scope.js';
import { exchangeCode, refreshTokens, type TokenSet } from './token.js';
import { parseBearerChallenge, type BearerChallenge } from './www-authenticate.js';
import { errorText } from './bounded-fetch.js';
import {
  credentialKeyString,
  type AuthBinding,
  type AuthServerConfig,
  type AuthorizeFn,
  type Clock,
  type CredentialKey,
  type CredentialStore,
  type FetchLike,
  type OAuthAuth,
  type RandomSource,
  type StoredClient,
} from './ports.js';
import { canonicalResourceUrl, isAllowedEndpoint } from './url-policy.js';

/**
 * Authorizations allowed for one request, however the challenge varies (N5): the one a 401
 * starts counts too, so a server answering 403 forever sees at most this many.
 */
const MAX_STEP_UPS = 3;
/** 401 recoveries allowed for one request: a second 401 means the fresh token is refused too. */
const MAX_UNAUTHORIZED_RETRIES = 1;
/** Refresh this long before the stated expiry (capped at a tenth of the lifetime). */
const REFRESH_SKEW_MS = 60_000;
/** Assumed lifetime when the AS does not say and a refresh token exists (conservative). */
export const UNKNOWN_LIFETIME_MS = 15 * 60_000;
/** OAuth errors after which a refresh token is dead and is dropped. */
const DEAD_REFRESH_ERRORS = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);

export interface AuthManagerPorts {
  fetch: FetchLike;
  /** The fetch for requests made for one server, if it differs (the worker logs them in that server's request log). */
  fetchFor?: (serverId: string) => FetchLike;
  now: Clock;
  authorize: AuthorizeFn;
  store: CredentialStore;
  /** `https://<extension-id>.chromiumapp.org/mcp-oauth` in the extension (E2). */
  redirectUri: string;
  random?: RandomSource;
  /** `client_name` for dynamic registration. */
  clientName?: string;
}

/** Per-request retry budget; create one per MCP request and pass it to the handlers. */
export interface RequestAuthState {
  unauthorizedRetries: number;
  stepUps: number;
  /** Interactive authorizations started for this request, by a 401 or a 403 step-up. */
  authorizations?: number;
}
export function newRequestAuthState(): RequestAuthState {
  return { unauthorizedRetries: 0, stepUps: 0, authorizations: 0 };
}

export interface TokenOptions {
  /** May a window be opened? Only from a user action (E2, E9). */
  interactive?: boolean;
  /** The `WWW-Authenticate` of the 401 that led here, if any. */
  wwwAuthenticate?: string | null;
}

/** `Authorization: Bearer …` for a token. */
export function bearerHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export class AuthManager {
  readonly #ports: AuthManagerPorts;
  readonly #discoveries = new Map<string, DiscoveryResult>();
  readonly #refreshes = new Map<string, Promise<string>>();
  readonly #flows = new Map<string, Promise<string>>();
  readonly #challenges = new Map<string, BearerChallenge>();
  /** Per server: the token the last interactive authorization obtained, until a server accepts it. */
  readonly #unproven = new Map<string, string>();
  /**
   * Per server: the configured auth (as {@link refusalKey}) under which the server refused a fresh
   * token (N5). Until that configuration changes or the user authorizes again, no token request
   * is made for it: the terminal error is repeated.
   */
  readonly #refusedFresh = new Map<string, string>();

  constructor(ports: AuthManagerPorts) {
    this.#ports = ports;
  }

  /** Headers to send to this server: none, its static bearer token, or a usable OAuth token. */
  async getAuthHeaders(cfg: AuthServerConfig, options: TokenOptions = {}): Promise<Record<string, string>> {
    if (cfg.auth.kind === 'none') return {};
    return bearerHeaders(await this.getAccessToken(cfg, options));
  }

  /**
   * A token that should work now: cached, else refreshed, else (only if `interactive`) a new
   * authorization; otherwise {@link AuthorizationRequiredError} (state `needs-auth`).
   */
  async getAccessToken(cfg: AuthServerConfig, options: TokenOptions = {}): Promise<string> {
    const auth = cfg.auth;
    if (auth.kind === 'bearer') return auth.token;
    if (auth.kind !== 'oauth')
      throw new AuthorizationRequiredError(say('reasonNotConfiguredForAuth', { url: cfg.url }), cfg.url, { action: 'edit' });
    this.#remember(cfg, options.wwwAuthenticate);
    if (!options.interactive && this.#refusedFresh.get(cfg.id) === refusalKey(cfg)) throw new FreshTokenRefusedError(cfg.url);
    const key = await this.#currentKey(cfg);
    let refreshFailure: unknown;
    if (key) {
      const access = await this.#ports.store.getAccessToken(key);
      if (access && (access.expiresAt === undefined || this.#ports.now() < access.expiresAt)) return access.token;
      if (await this.#ports.store.getRefreshToken(key)) {
        try {
          return await this.#refresh(cfg, key);
        } catch (e) {
          refreshFailure = e;
        }
      }
    }
    if (options.interactive) return this.#flow(cfg, false);
    throw needsAuth(cfg, refreshFailure);
  }

  /**
   * Start (or restart) authorization from a user click, even if tokens exist ("Re-authorize").
   * `probed` is the server's answer to an unauthenticated `initialize` the caller already sent
   * (its `WWW-Authenticate`, if any): the flow then does not ask the server again.
   */
  authorize(cfg: AuthServerConfig, probed?: { wwwAuthenticate: string | undefined }): Promise<string> {
    requireOAuth(cfg);
    // The user asks explicitly: one more attempt, even after a refused fresh token.
    this.#refusedFresh.delete(cfg.id);
    this.#remember(cfg, probed?.wwwAuthenticate);
    return this.#flow(cfg, false, probed !== undefined);
  }

  /**
   * After a 401: refresh once; a 401 again within the same request is not retried (N5).
   * Bearer servers never start OAuth: their token must be updated by the user (E1).
   */
  async handleUnauthorized(
    cfg: AuthServerConfig,
    wwwAuthenticate: string | null | undefined,
    options: { state?: RequestAuthState; rejectedToken?: string; interactive?: boolean } = {},
  ): Promise<string> {
    if (cfg.auth.kind === 'bearer') throw new BearerRejectedError(cfg.url);
    if (cfg.auth.kind === 'none') {
      // A Bearer challenge says OAuth can help (seed §3): the card offers the one-click switch.
      if (parseBearerChallenge(wwwAuthenticate))
        throw new AuthorizationRequiredError(say('reasonAsksForSignIn', { url: cfg.url }), cfg.url);
      throw new AuthorizationRequiredError(say('reasonRequiresAuth', { url: cfg.url }), cfg.url, {
        action: 'edit',
      });
    }
    this.#remember(cfg, wwwAuthenticate);
    if (!options.interactive && this.#refusedFresh.get(cfg.id) === refusalKey(cfg)) throw new FreshTokenRefusedError(cfg.url);
    const state = options.state ?? newRequestAuthState();
    state.unauthorizedRetries++;
    const key = await this.#currentKey(cfg);
    // A token refused on its first use right after the user authorized, or a refreshed one refused
    // within the same request: the server refuses what its AS issues. One attempt, then stop (N5).
    const fresh = options.rejectedToken !== undefined && this.#unproven.get(cfg.id) === options.rejectedToken;
    if (fresh || state.unauthorizedRetries > MAX_UNAUTHORIZED_RETRIES) {
      if (key) await this.#ports.store.putAccessToken(key, undefined);
      this.#unproven.delete(cfg.id);
      this.#refusedFresh.set(cfg.id, refusalKey(cfg));
      throw new FreshTokenRefusedError(cfg.url);
    }
    let refreshFailure: unknown;
    if (key) {
      const access = await this.#ports.store.getAccessToken(key);
      if (access && options.rejectedToken !== undefined && access.token !== options.rejectedToken) return access.token;
      await this.#ports.store.putAccessToken(key, undefined);
      if (await this.#ports.store.getRefreshToken(key)) {
        try {
          return await this.#refresh(cfg, key);
        } catch (e) {
          refreshFailure = e;
        }
      }
    }
    if (options.interactive) {
      state.authorizations = (state.authorizations ?? 0) + 1;
      return this.#flow(cfg, false);
    }
    throw needsAuth(cfg, refreshFailure);
  }

  /** A server accepted `token` (a session opened with it): it is no longer a fresh, unproven one. */
  tokenAccepted(serverId: string, token: string): void {
    if (this.#unproven.get(serverId) === token) this.#unproven.delete(serverId);
  }

  /**
   * After a 403: only `insufficient_scope` leads to step-up, with the union of granted and
   * challenged scopes, at most {@link MAX_STEP_UPS} times for one request.
   */
  async handleForbidden(
    cfg: AuthServerConfig,
    wwwAuthenticate: string | null | undefined,
    options: { state: RequestAuthState; interactive?: boolean },
  ): Promise<string> {
    const challenge = parseBearerChallenge(wwwAuthenticate);
    if (cfg.auth.kind !== 'oauth' || challenge?.error !== 'insufficient_scope') {
      const why = challenge?.error ? ` (${challenge.error.slice(0, 100)})` : '';
      throw new ForbiddenError(say('reasonForbidden', { url: cfg.url, why }), cfg.url);
    }
    if (options.state.stepUps >= MAX_STEP_UPS || (options.state.authorizations ?? 0) >= MAX_STEP_UPS) {
      throw new StepUpLimitError(
        `${cfg.url} still asks for more permissions after ${MAX_STEP_UPS} authorizations for the same request; stopped.`,
        cfg.url,
      );
    }
    options.state.stepUps++;
    this.#challenges.set(cfg.id, challenge);
    if (!options.interactive) {
      throw new AuthorizationRequiredError(
        `${cfg.url} needs additional permissions${challenge.scope ? ` (${challenge.scope.slice(0, 200)})` : ''}; authorize again.`,
        cfg.url,
      );
    }
    options.state.authorizations = (options.state.authorizations ?? 0) + 1;
    return this.#flow(cfg, true);
  }

  /**
   * Delete this server's credentials, revoking them first at the AS when it has a revocation
   * endpoint. Local deletion happens whatever the AS answers; `revokeError` says if it failed.
   */
  async forget(cfg: AuthServerConfig): Promise<{ revoked: boolean; revokeError?: string }> {
    const { store } = this.#ports;
    const binding = await store.getBinding(cfg.id);
    this.#challenges.delete(cfg.id);
    this.#refusedFresh.delete(cfg.id);
    this.#unproven.delete(cfg.id);
    // Forgetting is the user's explicit way to use a configured client with a new issuer (E10).
    await store.pinClientIssuer?.(cfg.id, undefined);
    if (!binding) {
      this.#discoveries.delete(cfg.id);
      return { revoked: false };
    }
    const key: CredentialKey = { serverId: cfg.id, ...binding };
    let revoked = false;
    let revokeError: string | undefined;
    try {
      const refresh = await store.getRefreshToken(key);
      const access = await store.getAccessToken(key);
      if ((refresh || access) && cfg.auth.kind === 'oauth') {
        const d = this.#discoveries.get(cfg.id) ?? (await discover(this.#fetch(cfg.id), cfg.url, { existingIssuer: binding.issuer }));
        const endpoint = d.metadata.revocation_endpoint;
        const client = d.issuer === binding.issuer ? await this.#storedClient(cfg.auth, key, d) : undefined;
        if (endpoint && client && isAllowedEndpoint(endpoint)) {
          if (refresh)
            await revokeToken(this.#fetch(cfg.id), { revocationEndpoint: endpoint, client, token: refresh.token, hint: 'refresh_token' });
          if (access)
            await revokeToken(this.#fetch(cfg.id), { revocationEndpoint: endpoint, client, token: access.token, hint: 'access_token' });
          revoked = true;
        }
      }
    } catch (e) {
      revokeError = errorText(e);
    } finally {
      await store.clear(key);
      await store.putBinding(cfg.id, undefined);
      this.#discoveries.delete(cfg.id);
    }
    return revokeError === undefined ? { revoked } : { revoked, revokeError };
  }

  #fetch(serverId: string): FetchLike {
    return this.#ports.fetchFor?.(serverId) ?? this.#ports.fetch;
  }

  #remember(cfg: AuthServerConfig, header: string | null | undefined): void {
    const challenge = parseBearerChallenge(header);
    if (challenge) this.#challenges.set(cfg.id, challenge);
  }

  /**
   * The key of the stored binding, if it still belongs to the configured URL. A changed URL
   * means a new resource: the old credentials are dropped, never reused (E10).
   */
  async #currentKey(cfg: AuthServerConfig): Promise<CredentialKey | undefined> {
    const binding = await this.#ports.store.getBinding(cfg.id);
    if (!binding) return undefined;
    if (binding.resource !== canonicalResourceUrl(cfg.url)) {
      await this.#dropBinding(cfg.id, binding);
      return undefined;
    }
    return { serverId: cfg.id, ...binding };
  }

  async #dropBinding(serverId: string, binding: AuthBinding): Promise<void> {
    await this.#ports.store.clear({ serverId, ...binding });
    await this.#ports.store.putBinding(serverId, undefined);
    this.#discoveries.delete(serverId);
  }

  /** Single-flight per binding: concurrent 401s share one refresh (a rotated token is single-use). */
  #refresh(cfg: AuthServerConfig, key: CredentialKey): Promise<string> {
    const k = credentialKeyString(key);
    const running = this.#refreshes.get(k);
    if (running) return running;
    const p = this.#doRefresh(cfg, key).finally(() => this.#refreshes.delete(k));
    this.#refreshes.set(k, p);
    return p;
  }

  async #doRefresh(cfg: AuthServerConfig, key: CredentialKey): Promise<string> {
    const { store } = this.#ports;
    const auth = requireOAuth(cfg);
    const refresh = await store.getRefreshToken(key);
    if (!refresh) throw needsAuth(cfg, undefined);
    let d = this.#discoveries.get(cfg.id);
    if (!d || d.issuer !== key.issuer || d.resource !== key.resource) {
      d = await discover(this.#fetch(cfg.id), cfg.url, {
        existingIssuer: key.issuer,
        ...resourceMetadataOption(this.#challenges.get(cfg.id)),
      });
      this.#discoveries.set(cfg.id, d);
    }
    if (d.issuer !== key.issuer || d.resource !== key.resource) {
      // The server now names another AS: the refresh token must not travel there (E10).
      await this.#dropBinding(cfg.id, key);
      throw new AuthorizationRequiredError(
        `${cfg.url} is now protected by ${d.issuer} instead of ${key.issuer}; authorize again.`,
        cfg.url,
      );
    }
    const client = await this.#storedClient(auth, key, d);
    if (!client) throw needsAuth(cfg, undefined);
    let tokens: TokenSet;
    try {
      const req = { tokenEndpoint: d.metadata.token_endpoint, client, refreshToken: refresh.token };
      tokens = await refreshTokens(this.#fetch(cfg.id), d.legacy ? req : { ...req, resource: d.indicator });
    } catch (e) {
      if (e instanceof TokenError && e.oauthError && DEAD_REFRESH_ERRORS.has(e.oauthError)) {
        await store.putRefreshToken(key, undefined);
        await store.putAccessToken(key, undefined);
      }
      throw e;
    }
    await this.#storeTokens(key, tokens, refresh.scope, refresh.token);
    return tokens.accessToken;
  }

  /** Single-flight per server: two clicks or two connects open one window, not two. */
  #flow(cfg: AuthServerConfig, stepUp: boolean, probed = false): Promise<string> {
    const running = this.#flows.get(cfg.id);
    if (running) return running;
    const p = this.#doFlow(cfg, stepUp, probed).finally(() => this.#flows.delete(cfg.id));
    this.#flows.set(cfg.id, p);
    return p;
  }

  async #doFlow(cfg: AuthServerConfig, stepUp: boolean, probed: boolean): Promise<string> {
    const ports = this.#ports;
    // No 401 seen yet (a first "Authorize"): ask the server itself, unauthenticated, what it wants.
    if (!probed && !this.#challenges.has(cfg.id)) this.#remember(cfg, await probeChallenge(this.#fetch(cfg.id), cfg.url));
    const challenge = this.#challenges.get(cfg.id);
    const resource = canonicalResourceUrl(cfg.url);
    const old = await ports.store.getBinding(cfg.id);
    const d = await discover(this.#fetch(cfg.id), cfg.url, {
      ...resourceMetadataOption(challenge),
      ...(old && old.resource === resource ? { existingIssuer: old.issuer } : {}),
    });
    this.#discoveries.set(cfg.id, d);
    try {
      return await this.#flowAt(cfg, d, old, challenge, stepUp);
    } catch (e) {
      throw withLegacyNote(e, d);
    }
  }

  /** The flow once discovery has said who authorizes this server. */
  async #flowAt(
    cfg: AuthServerConfig,
    d: DiscoveryResult,
    old: AuthBinding | undefined,
    challenge: BearerChallenge | undefined,
    stepUp: boolean,
  ): Promise<string> {
    const ports = this.#ports;
    const auth = requireOAuth(cfg);
    const key: CredentialKey = { serverId: cfg.id, resource: d.resource, issuer: d.issuer };
    if (old && (old.issuer !== key.issuer || old.resource !== key.resource)) await this.#dropBinding(cfg.id, old);

    // Kept whatever the reason for this authorization (step-up, Re-authorize): never narrowed (E7).
    const granted = (await ports.store.getAccessToken(key))?.scope ?? (await ports.store.getRefreshToken(key))?.scope;
    const scope = flowScope({ challenge, granted, d, auth });
    if (auth.clientId && auth.clientIssuer && auth.clientIssuer !== d.issuer)
      throw new ConfiguredClientIssuerError(d.issuer, auth.clientIssuer);
    const grant = await this.#authorizeWithClient(auth, key, d, scope, stepUp);
    return this.#redeem(auth, key, d, grant, scope);
  }

  /**
   * Authorizes with the configured or stored client, or one registered now. A step-up refused
   * for the scope of the client it registered earlier registers once more with the wider scope
   * and tries once more; that client is stored only if this succeeds.
   */
  async #authorizeWithClient(
    auth: OAuthAuth,
    key: CredentialKey,
    d: DiscoveryResult,
    scope: string | undefined,
    stepUp: boolean,
  ): Promise<AuthorizationGrant> {
    const stored = await this.#storedClient(auth, key, d);
    const client = stored ?? (await this.#registerClient(auth, key, d, scope));
    const prompt = auth.otherAccounts ? accountPrompt(d.metadata) : undefined;
    try {
      return { client, ...(await this.#authorizeCode(d, client, scope, prompt)) };
    } catch (e) {
      if (!registersAgainForScope(e, { stepUp, storedRegistration: !!stored, auth, d })) throw e;
      const wider = await this.#registerClient(auth, key, d, scope, false);
      const grant = { client: wider, ...(await this.#authorizeCode(d, wider, scope, prompt)) };
      await this.#ports.store.putClient(key, wider);
      return grant;
    }
  }

  /** Redeems the code, then records the tokens, the binding and the issuer a configured client is now pinned to (E10). */
  async #redeem(
    auth: OAuthAuth,
    key: CredentialKey,
    d: DiscoveryResult,
    { client, code, codeVerifier }: AuthorizationGrant,
    scope: string | undefined,
  ): Promise<string> {
    const ports = this.#ports;
    const tokens = await exchangeCode(this.#fetch(key.serverId), {
      tokenEndpoint: d.metadata.token_endpoint,
      client,
      code,
      codeVerifier,
      redirectUri: ports.redirectUri,
      ...(d.legacy ? {} : { resource: d.indicator }),
    });
    // Tokens first: once the binding is written, a connect that reads it finds its token (E9).
    await this.#storeTokens(key, tokens, scope, undefined);
    this.#unproven.set(key.serverId, tokens.accessToken);
    await ports.store.putBinding(key.serverId, { resource: key.resource, issuer: key.issuer });
    if (auth.clientId && !auth.clientIssuer) await ports.store.pinClientIssuer?.(key.serverId, key.issuer);
    return tokens.accessToken;
  }

  /** One authorization request through the identity port: PKCE, state, and the checked callback (E2, N3). */
  async #authorizeCode(
    d: DiscoveryResult,
    client: StoredClient,
    scope: string | undefined,
    prompt: string | undefined,
  ): Promise<{ code: string; codeVerifier: string }> {
    const ports = this.#ports;
    const pkce = await createPkce(ports.random);
    const state = randomState(ports.random);
    const url = buildAuthorizationUrl({
      authorizationEndpoint: d.metadata.authorization_endpoint,
      clientId: client.clientId,
      redirectUri: ports.redirectUri,
      codeChallenge: pkce.challenge,
      state,
      ...(scope ? { scope } : {}),
      ...(d.legacy ? {} : { resource: d.indicator }),
      ...(prompt ? { prompt } : {}),
    });
    let callback: string;
    try {
      callback = await ports.authorize(url);
    } catch (e) {
      throw mapAuthorizeFailure(e);
    }
    const { code } = parseAuthorizationCallback(callback, {
      state,
      redirectUri: ports.redirectUri,
      issuer: d.metadata.issuer,
      issRequired: d.metadata.authorization_response_iss_parameter_supported === true,
    });
    return { code, codeVerifier: pkce.verifier };
  }

  /** The preconfigured client, or one registered earlier under exactly this key. */
  async #storedClient(auth: OAuthAuth, key: CredentialKey, d: DiscoveryResult): Promise<StoredClient | undefined> {
    if (auth.clientId) {
      const client: StoredClient = {
        clientId: auth.clientId,
        tokenEndpointAuthMethod: chooseAuthMethod(d.metadata, !!auth.clientSecret),
      };
      if (auth.clientSecret) client.clientSecret = auth.clientSecret;
      return client;
    }
    return this.#ports.store.getClient(key);
  }

  async #registerClient(
    auth: OAuthAuth,
    key: CredentialKey,
    d: DiscoveryResult,
    scope: string | undefined,
    store = true,
  ): Promise<StoredClient> {
    const resolved = await resolveClient(this.#fetch(key.serverId), {
      metadata: d.metadata,
      redirectUri: this.#ports.redirectUri,
      clientName: this.#ports.clientName ?? 'Remote MCP for Chrome',
      ...(scope ? { scope } : {}),
      ...(auth.clientMetadataUrl ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
    });
    const { source: _source, ...client } = resolved;
    if (store) await this.#ports.store.putClient(key, client);
    return client;
  }

  async #storeTokens(
    key: CredentialKey,
    tokens: TokenSet,
    requestedScope: string | undefined,
    oldRefresh: string | undefined,
  ): Promise<void> {
    const now = this.#ports.now();
    const scope = tokens.scope ?? requestedScope;
    const refreshToken = tokens.refreshToken ?? oldRefresh;
    let expiresAt: number | undefined;
    if (tokens.expiresIn !== undefined) {
      const lifetime = tokens.expiresIn * 1000;
      expiresAt = now + lifetime - Math.min(REFRESH_SKEW_MS, lifetime / 10);
    } else if (refreshToken) {
      expiresAt = now + UNKNOWN_LIFETIME_MS;
    }
    await this.#ports.store.putAccessToken(key, {
      token: tokens.accessToken,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(scope !== undefined ? { scope } : {}),
    });
    if (refreshToken) await this.#ports.store.putRefreshToken(key, { token: refreshToken, ...(scope !== undefined ? { scope } : {}) });
  }
}

/** An authorization code, the client it was issued to and the PKCE verifier that redeems it. */
interface AuthorizationGrant {
  client: StoredClient;
  code: string;
  codeVerifier: string;
}

/** The configured auth a refused fresh token is remembered under: a change to it (URL, client, scopes) tries again. */
function refusalKey(cfg: AuthServerConfig): string {
  if (cfg.auth.kind !== 'oauth') return cfg.url;
  const { clientId, scopes, clientMetadataUrl } = cfg.auth;
  return JSON.stringify([cfg.url, clientId ?? null, scopes ?? null, clientMetadataUrl ?? null]);
}

function requireOAuth(cfg: AuthServerConfig): OAuthAuth {
  if (cfg.auth.kind !== 'oauth')
    throw new AuthorizationRequiredError(say('reasonNotConfiguredForOAuth', { url: cfg.url }), cfg.url, { action: 'edit' });
  return cfg.auth;
}

function resourceMetadataOption(challenge: BearerChallenge | undefined): { resourceMetadataUrl?: string } {
  return challenge?.resourceMetadata ? { resourceMetadataUrl: challenge.resourceMetadata } : {};
}

/**
 * `needs-auth`, carrying why a refresh failed when it did (E9 attributed reason). A failed
 * refresh happens with no user present, so the text opens with what to do and the action asks
 * the card for its "Re-authorize" button (E9 beyond).
 */
function needsAuth(cfg: AuthServerConfig, cause: unknown): AuthorizationRequiredError {
  if (cause === undefined) return new AuthorizationRequiredError(say('reasonNeedsAuth', { url: cfg.url }), cfg.url);
  const expired = cause instanceof TokenError && cause.oauthError !== undefined && DEAD_REFRESH_ERRORS.has(cause.oauthError);
  const what = expired ? SIGN_IN_EXPIRED : 'Could not renew the sign-in — click Re-authorize, or Connect to try again.';
  return new AuthorizationRequiredError(
    `${what} ${cfg.url} needs authorization (refreshing the token failed: ${errorText(cause)}).`,
    cfg.url,
    { cause, action: 'reauthorize' },
  );
}

/** The first words of the reason when the authorization server refused the refresh token. */
export const SIGN_IN_EXPIRED = 'Sign-in expired — click Re-authorize.';
