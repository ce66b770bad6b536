/**
 * Token endpoint calls (SPEC E9, N4): code exchange and refresh, both carrying `resource`
 * (RFC 8707), with the client authentication the client was registered for, and a strict
 * look at what comes back before anything is stored.
 */
import { say } from '../../protocol/wording.js';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { guardedFetch, readJsonCapped } from './bounded-fetch.js';
import { TokenError } from './errors.js';
import type { FetchLike, StoredClient } from './ports.js';
import { describeIssues } from './schema-util.js';

const MAX_TOKEN_LENGTH = 16 * 1024;
/** Lifetimes beyond a year are treated as nonsense (unknown). */
const MAX_EXPIRES_IN_SECONDS = 366 * 24 * 3600;

const TokenResponseSchema = lazySchema(() =>
  z.looseObject({
    access_token: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH)),
    token_type: z.string().check(z.maxLength(64)),
    expires_in: z.optional(z.unknown()),
    refresh_token: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH))),
    scope: z.optional(z.string().check(z.maxLength(4096))),
  }),
);

export interface TokenSet {
  accessToken: string;
  /** Seconds, only if the AS gave a sane positive number. */
  expiresIn?: number;
  refreshToken?: string;
  scope?: string;
}

interface TokenRequestBase {
  tokenEndpoint: string;
  client: StoredClient;
  /** Omitted only for 2025-03-26 servers without PRM. */
  resource?: string;
}

export interface CodeExchange extends TokenRequestBase {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

export interface RefreshRequest extends TokenRequestBase {
  refreshToken: string;
  scope?: string;
}

/** Exchange an authorization code (with its PKCE verifier) for tokens. */
export function exchangeCode(fetchFn: FetchLike, req: CodeExchange): Promise<TokenSet> {
  const params = new URLSearchParams({
    grant_type: 'authorization_code',
    code: req.code,
    code_verifier: req.codeVerifier,
    redirect_uri: req.redirectUri,
  });
  if (req.resource) params.set('resource', req.resource);
  return tokenRequest(fetchFn, req, params);
}

/** Refresh; the caller keeps the old refresh token if no rotated one comes back. */
export function refreshTokens(fetchFn: FetchLike, req: RefreshRequest): Promise<TokenSet> {
  const params = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: req.refreshToken });
  if (req.resource) params.set('resource', req.resource);
  if (req.scope) params.set('scope', req.scope);
  return tokenRequest(fetchFn, req, params);
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}

/** Add client authentication to the body or headers according to the client's method. */
export function applyClientAuth(client: StoredClient, params: URLSearchParams, headers: Record<string, string>): void {
  const method = client.clientSecret ? client.tokenEndpointAuthMethod : 'none';
  if (method === 'client_secret_basic') {
    const raw = `${formEncode(client.clientId)}:${formEncode(client.clientSecret!)}`;
    headers['authorization'] = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(raw)))}`;
  } else if (method === 'client_secret_post') {
    params.set('client_id', client.clientId);
    params.set('client_secret', client.clientSecret!);
  } else {
    params.set('client_id', client.clientId);
  }
}

async function tokenRequest(fetchFn: FetchLike, req: TokenRequestBase, params: URLSearchParams): Promise<TokenSet> {
  const url = req.tokenEndpoint;
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  applyClientAuth(req.client, params, headers);
  const res = await guardedFetch(fetchFn, url, { method: 'POST', headers, body: params.toString() }, 'token endpoint');
  if (!res.ok) {
    const { error, description } = await readOAuthError(res, url);
    throw new TokenError(
      say('reasonTokenEndpointRefused', {
        url,
        status: res.status,
        detail: `${error ? `: ${error}` : ''}${description ? ` — ${description}` : ''}`,
      }),
      url,
      error,
    );
  }
  return parseTokenResponse(await readJsonCapped(res, url, 'token endpoint'), url);
}

/** The AS's `error` and `error_description`, bounded, read as text (never markup). */
export async function readOAuthError(res: Response, url: string): Promise<{ error?: string; description?: string }> {
  try {
    const json = (await readJsonCapped(res, url, 'token error response', 16 * 1024)) as Record<string, unknown> | null;
    const out: { error?: string; description?: string } = {};
    if (typeof json?.['error'] === 'string') out.error = json['error'].slice(0, 100);
    if (typeof json?.['error_description'] === 'string') out.description = json['error_description'].slice(0, 300);
    return out;
  } catch {
    return {};
  }
}

/** Validate a token response body (N4). */
export function parseTokenResponse(json: unknown, url: string): TokenSet {
  const parsed = TokenResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new TokenError(`The token endpoint ${url} returned an invalid token response (${describeIssues(parsed.error)}).`, url);
  }
  const r = parsed.data;
  if (r.token_type.toLowerCase() !== 'bearer') {
    throw new TokenError(`The token endpoint ${url} issued a "${r.token_type.slice(0, 64)}" token; only Bearer tokens are supported.`, url);
  }
  const out: TokenSet = { accessToken: r.access_token };
  const expiresIn = saneExpiresIn(r.expires_in);
  if (expiresIn !== undefined) out.expiresIn = expiresIn;
  if (r.refresh_token) out.refreshToken = r.refresh_token;
  if (r.scope !== undefined) out.scope = r.scope;
  return out;
}

/** A positive finite lifetime up to a year (numeric strings accepted), else unknown. */
export function saneExpiresIn(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0 || n > MAX_EXPIRES_IN_SECONDS) return undefined;
  return n;
}
