/**
 * Authorization-server metadata (RFC 8414 / OpenID discovery, SPEC E5). The well-known URL
 * order follows the MCP 2025-11-25 spec; the issuer and PKCE checks stop a metadata document
 * from impersonating another AS or downgrading PKCE.
 */
import { say } from '../../protocol/wording.js';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { firstWellKnownJson } from './well-known.js';
import { MetadataError } from './errors.js';
import type { FetchLike } from './ports.js';
import { describeIssues } from './schema-util.js';
import { isAllowedEndpoint, isSameOrigin, tryParseUrl } from './url-policy.js';

const Url = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const StringList = lazySchema(() => z.array(z.string().check(z.maxLength(256))).check(z.maxLength(256)));

const AuthServerMetadataSchema = lazySchema(() =>
  z.looseObject({
    issuer: Url,
    authorization_endpoint: Url,
    token_endpoint: Url,
    registration_endpoint: z.optional(Url),
    revocation_endpoint: z.optional(Url),
    scopes_supported: z.optional(StringList),
    response_types_supported: z.optional(StringList),
    grant_types_supported: z.optional(StringList),
    code_challenge_methods_supported: z.optional(StringList),
    token_endpoint_auth_methods_supported: z.optional(StringList),
    authorization_response_iss_parameter_supported: z.optional(z.boolean()),
    client_id_metadata_document_supported: z.optional(z.boolean()),
  }),
);

/** The fields we use, validated. */
export type AuthServerMetadata = z.infer<typeof AuthServerMetadataSchema>;

/**
 * Candidate metadata URLs for an issuer, in the order to try them. With a path component:
 * RFC 8414 path insertion, OIDC path insertion, OIDC path append; without: RFC 8414, OIDC.
 */
export function authServerMetadataUrls(issuer: string): string[] {
  const url = tryParseUrl(issuer);
  if (!url) throw new MetadataError(`The authorization server identifier "${issuer}" is not a URL.`, issuer);
  const origin = url.origin;
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) {
    return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

export interface FetchMetadataOptions {
  /**
   * 2025-03-26 fallback: the "issuer" we asked is only the MCP origin, which that revision
   * never required to be the AS's issuer identifier. So any issuer on that same origin is
   * accepted (e.g. `https://host/oauth`; the document came from that origin anyway), and
   * missing PKCE methods are accepted (that revision did not require them).
   */
  legacy?: boolean;
}

/**
 * Fetch and validate the metadata of `issuer`. Returns `undefined` only when every candidate
 * answered 4xx (no metadata published), so the caller can decide whether that is fatal.
 */
export async function fetchAuthServerMetadata(
  fetchFn: FetchLike,
  issuer: string,
  options: FetchMetadataOptions = {},
): Promise<AuthServerMetadata | undefined> {
  const found = await firstWellKnownJson(
    fetchFn,
    authServerMetadataUrls(issuer),
    'authorization server metadata',
    (url, status) => new MetadataError(say('reasonAsMetadataUnreadable', { url, status }), url),
  );
  return found && validateAuthServerMetadata(found.json, issuer, found.url, options);
}

/** Check a metadata document against the issuer we expected and our security floor. */
function validateAuthServerMetadata(json: unknown, issuer: string, url: string, options: FetchMetadataOptions = {}): AuthServerMetadata {
  const parsed = AuthServerMetadataSchema.safeParse(json);
  if (!parsed.success) {
    throw new MetadataError(`The authorization server metadata at ${url} is invalid (${describeIssues(parsed.error)}).`, url);
  }
  const meta = parsed.data;
  const issuerMatches = options.legacy ? isSameOrigin(meta.issuer, issuer) && !tryParseUrl(meta.issuer)?.search : meta.issuer === issuer;
  if (!issuerMatches) {
    throw new MetadataError(
      `The authorization server metadata at ${url} says its issuer is "${meta.issuer}", but "${issuer}" was expected; it may be impersonating another server.`,
      url,
    );
  }
  const methods = meta.code_challenge_methods_supported;
  if (!(methods === undefined && options.legacy) && !methods?.includes('S256')) {
    throw new MetadataError(
      `The authorization server ${issuer} does not declare PKCE S256 support (code_challenge_methods_supported in ${url}); authorization was not attempted.`,
      url,
    );
  }
  for (const field of ['authorization_endpoint', 'token_endpoint'] as const) {
    if (!isAllowedEndpoint(meta[field])) {
      throw new MetadataError(
        `The ${field.replace('_', ' ')} "${meta[field]}" in ${url} is not HTTPS (or loopback HTTP); nothing was sent to it.`,
        url,
      );
    }
  }
  return meta;
}

/** Endpoints used by the 2025-03-26 fallback when the MCP origin publishes no metadata. */
export function defaultEndpointsMetadata(origin: string): AuthServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
}
