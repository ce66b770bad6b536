/**
 * Which client id to use with an authorization server (SPEC E8): the user's preconfigured
 * client, else a Client ID Metadata Document URL when both sides support it, else dynamic
 * client registration (RFC 7591). The DCR answer is validated before anything stores it.
 */
import { say } from '../../protocol/wording.js';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { guardedFetch, readJsonCapped } from './bounded-fetch.js';
import { ClientIdRequiredError, RegistrationError } from './errors.js';
import type { AuthServerMetadata } from './metadata.js';
import type { FetchLike, StoredClient, TokenEndpointAuthMethod } from './ports.js';
import { describeIssues } from './schema-util.js';
import { tryParseUrl } from './url-policy.js';

const MAX_CLIENT_ID_LENGTH = 512;

const RegistrationResponseSchema = lazySchema(() =>
  z.looseObject({
    client_id: z.string().check(z.minLength(1), z.maxLength(MAX_CLIENT_ID_LENGTH)),
    client_secret: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
    token_endpoint_auth_method: z.optional(z.string().check(z.maxLength(64))),
  }),
);

/** A resolved client and where it came from (only `dcr` clients are worth storing). */
export interface ResolvedClient extends StoredClient {
  source: 'preconfigured' | 'cimd' | 'dcr';
}

export interface ResolveClientOptions {
  metadata: AuthServerMetadata;
  redirectUri: string;
  clientName: string;
  scope?: string;
  preconfigured?: { clientId: string; clientSecret?: string };
  clientMetadataUrl?: string;
}

/**
 * With a secret, pick the auth method the AS supports (RFC 8414 default when unlisted:
 * `client_secret_basic`); without one, `none`.
 */
export function chooseAuthMethod(metadata: AuthServerMetadata, hasSecret: boolean, declared?: string): TokenEndpointAuthMethod {
  if (!hasSecret) return 'none';
  if (declared === 'client_secret_basic' || declared === 'client_secret_post') return declared;
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** Preconfigured → CIMD (if the AS supports it) → DCR → explicit "enter a client ID" error. */
export async function resolveClient(fetchFn: FetchLike, options: ResolveClientOptions): Promise<ResolvedClient> {
  const { metadata } = options;
  if (options.preconfigured) {
    const { clientId, clientSecret } = options.preconfigured;
    const client: ResolvedClient = {
      clientId,
      tokenEndpointAuthMethod: chooseAuthMethod(metadata, !!clientSecret),
      source: 'preconfigured',
    };
    if (clientSecret) client.clientSecret = clientSecret;
    return client;
  }
  if (options.clientMetadataUrl && metadata.client_id_metadata_document_supported === true) {
    const u = tryParseUrl(options.clientMetadataUrl);
    if (u && u.protocol === 'https:' && u.pathname !== '/') {
      return { clientId: u.href, tokenEndpointAuthMethod: 'none', source: 'cimd' };
    }
  }
  if (!metadata.registration_endpoint) {
    throw new ClientIdRequiredError(say('reasonNoDynamicRegistration', { issuer: metadata.issuer }), metadata.issuer);
  }
  return registerClient(fetchFn, metadata, options);
}

/** RFC 7591 registration of a public client with our redirect URI. */
async function registerClient(
  fetchFn: FetchLike,
  metadata: AuthServerMetadata,
  options: Pick<ResolveClientOptions, 'redirectUri' | 'clientName' | 'scope'>,
): Promise<ResolvedClient> {
  const endpoint = metadata.registration_endpoint!;
  const body: Record<string, unknown> = {
    client_name: options.clientName,
    // 2026-07-28 client registration: clients MUST name one; "web" because the redirect URI is
    // https on chromiumapp.org (a non-local host), which is what OIDC's "web" type expects.
    application_type: 'web',
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  if (options.scope) body['scope'] = options.scope;
  const res = await guardedFetch(
    fetchFn,
    endpoint,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    },
    'registration endpoint',
  );
  if (!res.ok) {
    const detail = await oauthErrorDetail(res, endpoint);
    throw new RegistrationError(say('reasonRegistrationFailed', { url: endpoint, status: res.status, detail }), endpoint);
  }
  const json = await readJsonCapped(res, endpoint, 'registration endpoint');
  const parsed = RegistrationResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new RegistrationError(
      `The registration endpoint ${endpoint} returned an unusable client (${describeIssues(parsed.error)}).`,
      endpoint,
    );
  }
  const r = parsed.data;
  const client: ResolvedClient = {
    clientId: r.client_id,
    tokenEndpointAuthMethod: chooseAuthMethod(metadata, !!r.client_secret, r.token_endpoint_auth_method),
    source: 'dcr',
  };
  if (r.client_secret) client.clientSecret = r.client_secret;
  return client;
}

/** `: invalid_x — description` from an OAuth error body, or '' if there is none readable. */
async function oauthErrorDetail(res: Response, url: string): Promise<string> {
  try {
    const json = (await readJsonCapped(res, url, 'error response', 16 * 1024)) as Record<string, unknown>;
    const error = typeof json?.['error'] === 'string' ? json['error'].slice(0, 100) : '';
    const desc = typeof json?.['error_description'] === 'string' ? json['error_description'].slice(0, 300) : '';
    return error ? `: ${error}${desc ? ` — ${desc}` : ''}` : '';
  } catch {
    return '';
  }
}
