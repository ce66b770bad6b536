/**
 * A `fetch` for the SDK's StreamableHTTPClientTransport that carries authorization: it adds
 * the current `Authorization` header to every request, and on a 401 or a 403
 * `insufficient_scope` asks the token provider for a new token and sends the request again.
 * How often that may happen is the provider's decision (the AuthManager bounds it per request,
 * SPEC N5); this wrapper only adds a hard ceiling in case a provider never says no.
 *
 * The conformance harness's own adapter: the extension retries through the worker's request
 * pipeline instead (src/sw/offscreen-link/oauth-requests.ts). Pure: no chrome.*, no storage.
 */

import type { FetchFn } from '../../src/offscreen/session.js';

/** Per-request retry budget handed back to the provider (the AuthManager's RequestAuthState). */
interface AuthRetryState {
  unauthorizedRetries: number;
  stepUps: number;
  authorizations?: number;
}

export interface TokenProvider {
  /** Headers for a request; `{}` when no credential is available yet (the server will say). */
  headers(): Promise<Record<string, string>>;
  /** After a 401: a token to retry with, or throw (needs-auth, bearer rejected, limit reached). */
  unauthorized(wwwAuthenticate: string | null, context: { state: AuthRetryState; rejectedToken?: string }): Promise<string>;
  /** After a 403: a token with more scope to retry with, or throw (not a scope problem, limit reached). */
  forbidden(wwwAuthenticate: string | null, context: { state: AuthRetryState }): Promise<string>;
}

/** Ceiling on sends of one request, whatever the provider allows (1 + 401 + 3 step-ups + slack). */
const MAX_SENDS_PER_REQUEST = 8;

/** Minimal view of the AuthManager, so this module does not import the service-worker code. */
export interface AuthManagerLike<C> {
  getAuthHeaders(cfg: C, options?: { interactive?: boolean }): Promise<Record<string, string>>;
  handleUnauthorized(
    cfg: C,
    wwwAuthenticate: string | null | undefined,
    options?: { state?: AuthRetryState; rejectedToken?: string; interactive?: boolean },
  ): Promise<string>;
  handleForbidden(
    cfg: C,
    wwwAuthenticate: string | null | undefined,
    options: { state: AuthRetryState; interactive?: boolean },
  ): Promise<string>;
}

/**
 * A {@link TokenProvider} over an AuthManager and one server config. Without a usable token
 * the request goes out unauthenticated, so discovery starts from the server's own challenge
 * (E3, E7). `interactive` says whether a 401/403 may open an authorization window.
 */
export function authManagerTokenProvider<C>(
  manager: AuthManagerLike<C>,
  cfg: C,
  options: { interactive: boolean; isNeedsAuth(e: unknown): boolean },
): TokenProvider {
  return {
    async headers() {
      try {
        return await manager.getAuthHeaders(cfg, { interactive: false });
      } catch (e) {
        if (options.isNeedsAuth(e)) return {};
        throw e;
      }
    },
    unauthorized(wwwAuthenticate, context) {
      return manager.handleUnauthorized(cfg, wwwAuthenticate, { ...context, interactive: options.interactive });
    },
    forbidden(wwwAuthenticate, context) {
      return manager.handleForbidden(cfg, wwwAuthenticate, { ...context, interactive: options.interactive });
    },
  };
}

/** Wrap `baseFetch` so every request is authorized by `provider`. */
export function createAuthFetch(provider: TokenProvider, baseFetch: FetchFn = (i, r) => fetch(i, r)): FetchFn {
  return async (input, init) => {
    const state: AuthRetryState = { unauthorizedRetries: 0, stepUps: 0, authorizations: 0 };
    // A stream body cannot be sent twice: such a request gets no retry.
    const replayable = init?.body === undefined || init.body === null || typeof init.body === 'string';
    let token: string | undefined;
    let extra = await provider.headers();
    for (let send = 1; ; send++) {
      const headers = new Headers(init?.headers);
      for (const [k, v] of Object.entries(extra)) headers.set(k, v);
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      const sentToken = bearerOf(headers.get('authorization'));
      const res = await baseFetch(input, { ...init, headers });
      if ((res.status !== 401 && res.status !== 403) || !replayable || send >= MAX_SENDS_PER_REQUEST) return res;
      const challenge = res.headers.get('www-authenticate');
      await res.body?.cancel().catch(() => undefined);
      if (res.status === 401) {
        token = await provider.unauthorized(challenge, { state, ...(sentToken !== undefined ? { rejectedToken: sentToken } : {}) });
      } else {
        token = await provider.forbidden(challenge, { state });
      }
      extra = {};
    }
  };
}

function bearerOf(header: string | null): string | undefined {
  const m = header ? /^bearer\s+(.+)$/i.exec(header.trim()) : null;
  return m ? m[1] : undefined;
}
