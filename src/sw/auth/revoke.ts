/**
 * Token revocation (RFC 7009) for "forget this server": best effort, because the local
 * credentials are deleted whatever the AS answers, but the AS should stop honouring them too.
 */
import { guardedFetch } from './bounded-fetch.js';
import { TokenError } from './errors.js';
import type { FetchLike, StoredClient } from './ports.js';
import { applyClientAuth, readOAuthError } from './token.js';

export interface RevokeRequest {
  revocationEndpoint: string;
  client: StoredClient;
  token: string;
  hint: 'refresh_token' | 'access_token';
}

/** Revoke one token; throws a {@link TokenError} naming the endpoint if the AS refuses. */
export async function revokeToken(fetchFn: FetchLike, req: RevokeRequest): Promise<void> {
  const params = new URLSearchParams({ token: req.token, token_type_hint: req.hint });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  applyClientAuth(req.client, params, headers);
  const res = await guardedFetch(
    fetchFn,
    req.revocationEndpoint,
    { method: 'POST', headers, body: params.toString() },
    'revocation endpoint',
  );
  if (!res.ok) {
    const { error, description } = await readOAuthError(res, req.revocationEndpoint);
    throw new TokenError(
      `The revocation endpoint ${req.revocationEndpoint} refused to revoke the token (HTTP ${res.status}${error ? `: ${error}` : ''}${description ? ` — ${description}` : ''}).`,
      req.revocationEndpoint,
      error,
    );
  }
  await res.body?.cancel().catch(() => undefined);
}
