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
import { newRequestAuthState } from '../auth/auth-manager.js';
import { bearerOf, withBearer } from './bearer-header.js';
import { LiveSessions } from './live-sessions.js';
import { isTokenRefusal, renewToken, type TokenRenewalDeps } from './token-renewal.js';

export type RequestFn = <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>) => Promise<OffscreenValue<M>>;

export interface OAuthRequestDeps extends TokenRenewalDeps {
  request: RequestFn;
}

/** Requests that run on an open session and can be resent after a 401 with a fresh token. */
const SESSION_METHODS = new Set<OffscreenMethod>([
  'offscreen:list-category',
  'offscreen:call-tool',
  'offscreen:ping',
  'offscreen:get-prompt',
  'offscreen:read-resource',
]);

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
  const sessions = new LiveSessions(
    async (connectionId, token) =>
      (await deps.request('offscreen:set-authorization', { connectionId, authorization: `Bearer ${token}` })).updated,
  );

  async function connect(params: OffscreenParams<'offscreen:connect'>): Promise<OffscreenValue<'offscreen:connect'>> {
    const state = newRequestAuthState();
    let headers = params.headers;
    for (;;) {
      try {
        const value = await deps.request('offscreen:connect', { ...params, headers });
        const token = bearerOf(headers);
        if (token !== undefined) {
          sessions.opened(params.connectionId, params.serverId, token);
          // A session opened with it: a later refusal is not of a fresh token (N5, auth-manager.ts).
          deps.auth.tokenAccepted?.(params.serverId, token);
        }
        return value;
      } catch (e) {
        if (!isTokenRefusal(e)) throw e;
        const token = await renewToken(deps, params.serverId, e, bearerOf(headers), state);
        if (token === undefined) throw e;
        headers = withBearer(headers, token);
      }
    }
  }

  async function onSession<M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> {
    const connectionId = (params as { connectionId: string }).connectionId;
    try {
      return await deps.request(method, params);
    } catch (e) {
      const held = sessions.of(connectionId);
      if (!held || !isTokenRefusal(e)) throw e;
      const token = await renewToken(deps, held.serverId, e, held.token, newRequestAuthState());
      if (token === undefined || !(await sessions.renew(connectionId, held, token))) throw e;
      return deps.request(method, params);
    }
  }

  const request = async <M extends OffscreenMethod>(method: M, params: OffscreenParams<M>): Promise<OffscreenValue<M>> => {
    if (method === 'offscreen:connect') return connect(params as OffscreenParams<'offscreen:connect'>) as Promise<OffscreenValue<M>>;
    if (method === 'offscreen:close') sessions.closed((params as { connectionId: string }).connectionId);
    if (SESSION_METHODS.has(method)) return onSession(method, params);
    const value = await deps.request(method, params);
    // The sessions a new worker adopts carry OAuth tokens too (C7): they get renewals like the ones opened here.
    if (method === 'offscreen:claim')
      for (const s of (value as OffscreenValue<'offscreen:claim'>).sessions) sessions.adopted(s.connectionId, s.serverId);
    return value;
  };
  return Object.assign(request, { handTokenToLiveSessions: (serverId: string, token: string) => sessions.handToAll(serverId, token) });
}
