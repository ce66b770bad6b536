/**
 * Carries OAuth through the worker → offscreen requests (SPEC E9, N5). The transport lives in
 * the offscreen document and the AuthManager in the worker, so the token travels as the
 * `Authorization` header of `offscreen:connect`. When the server answers 401 — at connect or
 * later, e.g. because the token expired — this wrapper asks the AuthManager for a fresh token
 * (a refresh, single-flight per binding; never a window), hands it to the live session with
 * `offscreen:set-authorization` and sends the request once more. A 401 means the server refused
 * the request before running it, so the resend is not a replay of a tool call (H3). A second
 * 401 for the same request, or a failed refresh, ends in `needs-auth` with the reason.
 */
import type { OffscreenMethod, OffscreenParams, OffscreenValue } from '../../protocol/offscreen.js';
import { RemoteError, toWireError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import { newRequestAuthState, type AuthManager, type RequestAuthState } from '../auth/auth-manager.js';
import type { AuthServerConfig } from '../auth/ports.js';
import { parseBearerChallenge } from '../auth/www-authenticate.js';

export type RequestFn = <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => Promise<OffscreenValue<M>>;

/**
 * What the wrapper needs of the AuthManager. `handleForbidden` is optional: without it a 403 is
 * passed through. Background work never opens a window, so a 403 `insufficient_scope` ends in
 * needs-auth with the challenged scope remembered for the user's next "Authorize" (step-up, SPEC E7).
 */
export type UnauthorizedHandler = Pick<AuthManager, 'handleUnauthorized'> & Partial<Pick<AuthManager, 'handleForbidden'>>;

export interface OAuthRequestDeps {
  request: RequestFn;
  auth: UnauthorizedHandler;
  /** The current stored entry of a server (undefined once removed). */
  configOf(serverId: string): Promise<McpServerConfig | undefined>;
  authConfigOf(config: McpServerConfig): Promise<AuthServerConfig>;
}

/** Requests that run on an open session and can be resent after a 401 with a fresh token. */
const SESSION_METHODS = new Set<OffscreenMethod>([
  'offscreen:list-category',
  'offscreen:call-tool',
  'offscreen:ping',
  'offscreen:get-prompt',
  'offscreen:read-resource',
]);

const is401 = (e: unknown) => {
  const w = toWireError(e);
  return w.code === 'auth' && w.httpStatus === 401;
};

/** A 403 whose challenge asks for more scope: only more authorization can help. */
const isScopeChallenge = (e: unknown) => {
  const w = toWireError(e);
  return w.code === 'auth' && w.httpStatus === 403 && /insufficient_scope/i.test(w.wwwAuthenticate ?? '');
};

function bearerOf(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const m = value ? /^bearer\s+(.+)$/i.exec(value.trim()) : null;
  return m?.[1];
}

/** Turns an auth-core error into the wire error the manager maps to a state (needs-auth …). */
function asRemote(e: unknown): RemoteError {
  return e instanceof RemoteError ? e : new RemoteError(toWireError(e, 'auth'));
}

/** More live sessions than servers anyone configures; old entries beyond it are dropped. */
const MAX_TRACKED_SESSIONS = 128;

/**
 * The wrapped request function, which also reaches the live sessions it opened: a user's
 * "Re-authorize" or "Grant more access" (panel-oauth.ts, step-up.ts) hands the new token to
 * them without reconnecting.
 */
export type OAuthRequestFn = RequestFn & {
  /**
   * Sends `token` to every live session of `serverId` (`offscreen:set-authorization`), so the
   * next request uses the freshly granted token; resolves to the number of sessions updated.
   */
  handTokenToLiveSessions: (serverId: string, token: string) => Promise<number>;
};

export function withOAuthRetry(deps: OAuthRequestDeps): OAuthRequestFn {
  /** connectionId → server and the token its session currently sends. */
  const sessions = new Map<string, { serverId: string; token: string }>();
  const handTokenToLiveSessions = async (serverId: string, token: string): Promise<number> => {
    let n = 0;
    for (const [connectionId, held] of sessions) {
      if (held.serverId !== serverId || held.token === token) continue;
      try {
        const { updated } = await deps.request('offscreen:set-authorization', { connectionId, authorization: `Bearer ${token}` });
        if (!updated) {
          // The session is gone (lost, superseded): stop tracking it and its token.
          sessions.delete(connectionId);
          continue;
        }
        held.token = token;
        n++;
      } catch {
        // A session that went away meanwhile reconnects with the stored token anyway.
      }
    }
    return n;
  };

  async function freshToken(
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

  async function connect(params: OffscreenParams<'offscreen:connect'>): Promise<OffscreenValue<'offscreen:connect'>> {
    const state = newRequestAuthState();
    let headers = params.headers;
    for (;;) {
      try {
        const value = await deps.request('offscreen:connect', { ...params, headers });
        const token = bearerOf(headers);
        if (token !== undefined) {
          sessions.set(params.connectionId, { serverId: params.serverId, token });
          // Sessions that ended without a close through here must not pile up (bounded).
          if (sessions.size > MAX_TRACKED_SESSIONS) sessions.delete(sessions.keys().next().value!);
        }
        return value;
      } catch (e) {
        if (!is401(e) && !isScopeChallenge(e)) throw e;
        const token = await freshToken(params.serverId, e, bearerOf(headers), state);
        if (token === undefined) throw e;
        const rest = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
        headers = { ...rest, Authorization: `Bearer ${token}` };
      }
    }
  }

  async function onSession<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const connectionId = (params as { connectionId: string }).connectionId;
    try {
      return await deps.request(method, params);
    } catch (e) {
      const held = sessions.get(connectionId);
      if (!held || (!is401(e) && !isScopeChallenge(e))) throw e;
      const token = await freshToken(held.serverId, e, held.token, newRequestAuthState());
      if (token === undefined) throw e;
      const { updated } = await deps.request('offscreen:set-authorization', { connectionId, authorization: `Bearer ${token}` });
      if (!updated) throw e;
      held.token = token;
      return deps.request(method, params);
    }
  }

  const request = async <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> => {
    if (method === 'offscreen:connect') return connect(params as OffscreenParams<'offscreen:connect'>) as Promise<OffscreenValue<M>>;
    if (method === 'offscreen:close') sessions.delete((params as { connectionId: string }).connectionId);
    if (SESSION_METHODS.has(method)) return onSession(method, params);
    return deps.request(method, params);
  };
  return Object.assign(request, { handTokenToLiveSessions });
}
