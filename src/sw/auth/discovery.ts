/**
 * Protected-resource discovery (RFC 9728, SPEC E3/E4): find which authorization server guards
 * the MCP server, without letting the server steer us to another origin or a plain-HTTP URL.
 * Only when no PRM exists anywhere — none announced in the challenge, neither the path-aware nor
 * the root document — fall back to the 2025-03-26 rules (AS at the MCP origin); the documents
 * tried are kept, so an error on that path can say why it was taken.
 */
import { say } from '../../protocol/wording.js';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { firstWellKnownJson } from './well-known.js';
import { DiscoveryError, MetadataError, MultipleAuthorizationServersError, ResourceMismatchError } from './errors.js';
import { authServerMetadataUrls, defaultEndpointsMetadata, fetchAuthServerMetadata, type AuthServerMetadata } from './metadata.js';
import type { FetchLike } from './ports.js';
import { describeIssues } from './schema-util.js';
import { canonicalResourceUrl, isAllowedEndpoint, isSameOrigin, tryParseUrl } from './url-policy.js';

const ProtectedResourceMetadataSchema = lazySchema(() =>
  z.looseObject({
    resource: z.string().check(z.minLength(1), z.maxLength(2048)),
    authorization_servers: z.optional(z.array(z.string().check(z.maxLength(2048))).check(z.maxLength(32))),
    scopes_supported: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(256))),
  }),
);
export type ProtectedResourceMetadata = z.infer<typeof ProtectedResourceMetadataSchema>;

/**
 * PRM URLs to try, in order: the challenge's `resource_metadata` (only if same-origin with the
 * MCP URL and HTTPS/loopback; otherwise ignored), then path-aware, then root well-known.
 */
export function protectedResourceMetadataUrls(mcpUrl: string, challengeUrl?: string): string[] {
  const url = new URL(mcpUrl);
  const urls: string[] = [];
  if (challengeUrl && isSameOrigin(challengeUrl, mcpUrl) && isAllowedEndpoint(challengeUrl)) {
    const u = new URL(challengeUrl);
    u.hash = '';
    urls.push(u.href);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path) urls.push(`${url.origin}/.well-known/oauth-protected-resource${path}`);
  urls.push(`${url.origin}/.well-known/oauth-protected-resource`);
  return [...new Set(urls)];
}

/** Fetch the first PRM that exists; `undefined` if every candidate answered 4xx. */
export async function fetchProtectedResourceMetadata(
  fetchFn: FetchLike,
  mcpUrl: string,
  challengeUrl?: string,
): Promise<{ prm: ProtectedResourceMetadata; url: string } | undefined> {
  const found = await firstWellKnownJson(
    fetchFn,
    protectedResourceMetadataUrls(mcpUrl, challengeUrl),
    'protected resource metadata',
    (url, status) => new DiscoveryError(say('reasonPrmUnreadable', { url, status }), url),
  );
  if (!found) return undefined;
  const { json, url } = found;
  const parsed = ProtectedResourceMetadataSchema.safeParse(json);
  if (!parsed.success) {
    throw new DiscoveryError(`The protected resource metadata at ${url} is invalid (${describeIssues(parsed.error)}).`, url);
  }
  return { prm: parsed.data, url };
}

/**
 * The issuer to use from a PRM (E4): the existing binding's issuer if still listed, else the
 * only one listed; several with no prior choice is an explicit error.
 */
export function chooseIssuer(prm: ProtectedResourceMetadata, prmUrl: string, existingIssuer?: string): string {
  const list = (prm.authorization_servers ?? []).filter((s) => s.length > 0);
  if (list.length === 0) {
    throw new DiscoveryError(say('reasonPrmNoServers', { url: prmUrl }), prmUrl);
  }
  if (existingIssuer && list.includes(existingIssuer)) return existingIssuer;
  if (list.length > 1) throw new MultipleAuthorizationServersError(list, prmUrl);
  const issuer = list[0]!;
  const u = tryParseUrl(issuer);
  if (!u || u.search || u.hash || !isAllowedEndpoint(issuer)) {
    throw new DiscoveryError(`The authorization server "${issuer}" listed in ${prmUrl} is not a valid HTTPS issuer URL.`, prmUrl);
  }
  return issuer;
}

/**
 * Whether a PRM `resource` identifies the MCP resource: the same URL, or — as RFC 9728 makes a
 * root PRM describe the whole origin (`https://host`) — a same-origin resource whose path is a
 * whole-segment prefix of the MCP URL's path. Another origin never matches; neither does a
 * query or a sibling path (`/mcp` does not cover `/mcp2`).
 */
export function resourceCovers(prmResource: string, mcpResource: string): boolean {
  if (prmResource === mcpResource) return true;
  const p = tryParseUrl(prmResource);
  const m = tryParseUrl(mcpResource);
  if (!p || !m || p.origin !== m.origin || p.search) return false;
  const base = p.pathname.endsWith('/') ? p.pathname : `${p.pathname}/`;
  return m.pathname === p.pathname || m.pathname.startsWith(base);
}

/** Everything the flow needs to know about who authorizes this MCP server. */
export interface DiscoveryResult {
  /** Canonical MCP resource URL: what credentials are bound to (E9, E10). */
  resource: string;
  /**
   * The `resource` parameter of authorization and token requests (RFC 8707): the PRM's `resource`
   * exactly as published (the canonical URI "aligns with the resource parameter in RFC 9728";
   * a root PRM's pathless `https://host` must not become `https://host/` or the MCP URL), else
   * the canonical MCP URL.
   */
  indicator: string;
  issuer: string;
  metadata: AuthServerMetadata;
  prm?: ProtectedResourceMetadata;
  /** True when no PRM exists and the 2025-03-26 rules were used. */
  legacy: boolean;
  /** With `legacy`: the documents tried that did not exist (PRM; AS metadata if the defaults were used). */
  tried?: { prm: string[]; metadata: string[] };
}

export interface DiscoverOptions {
  /** `resource_metadata` from the current 401 challenge. */
  resourceMetadataUrl?: string;
  /** The issuer of the binding we already have, kept if the PRM still lists it. */
  existingIssuer?: string;
}

/** PRM → issuer → AS metadata, or the 2025-03-26 fallback when there is no PRM. */
export async function discover(fetchFn: FetchLike, mcpUrl: string, options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  let resource: string;
  try {
    resource = canonicalResourceUrl(mcpUrl);
  } catch (e) {
    throw new DiscoveryError(`The server URL cannot be authorized: ${(e as Error).message}`, mcpUrl);
  }
  const found = await fetchProtectedResourceMetadata(fetchFn, resource, options.resourceMetadataUrl);
  if (!found) {
    const tried = protectedResourceMetadataUrls(resource, options.resourceMetadataUrl);
    // The challenge announced a PRM: the server is not a 2025-03-26 server, whatever the well-known URLs say.
    if (options.resourceMetadataUrl !== undefined) throw announcedButMissing(resource, options.resourceMetadataUrl, tried);
    return discoverLegacy(fetchFn, resource, tried);
  }
  const { prm, url } = found;
  let prmResource: string | undefined;
  try {
    prmResource = canonicalResourceUrl(prm.resource);
  } catch {
    prmResource = undefined;
  }
  if (prmResource === undefined || !resourceCovers(prmResource, resource)) {
    throw new ResourceMismatchError(
      `The protected resource metadata at ${url} is for "${prm.resource}", not for "${resource}"; it cannot be used.`,
      url,
    );
  }
  const issuer = chooseIssuer(prm, url, options.existingIssuer);
  const metadata = await fetchAuthServerMetadata(fetchFn, issuer);
  if (!metadata) {
    throw new MetadataError(say('reasonAsNoMetadata', { issuer }), issuer);
  }
  return { resource, indicator: prm.resource, issuer, metadata, prm, legacy: false };
}

function announcedButMissing(resource: string, announced: string, tried: string[]): DiscoveryError {
  const ignored =
    isSameOrigin(announced, resource) && isAllowedEndpoint(announced)
      ? ''
      : ` (${announced} was not fetched: it is not on the server's origin over HTTPS or loopback HTTP)`;
  return new DiscoveryError(
    `${resource} announced protected resource metadata at ${announced} in its 401 challenge${ignored}, but none could be read (tried ${tried.join(', ')}); authorization was not attempted.`,
    announced,
  );
}

/** 2025-03-26: the AS is at the MCP origin; without metadata, use `/authorize`, `/token`, `/register`. */
async function discoverLegacy(fetchFn: FetchLike, resource: string, triedPrm: string[]): Promise<DiscoveryResult> {
  const origin = new URL(resource).origin;
  let metadata: AuthServerMetadata | undefined;
  try {
    metadata = await fetchAuthServerMetadata(fetchFn, origin, { legacy: true });
  } catch (e) {
    if (e instanceof Error) e.message += legacySuffix({ prm: triedPrm, metadata: [] });
    throw e;
  }
  const tried = { prm: triedPrm, metadata: metadata ? [] : authServerMetadataUrls(origin) };
  return { resource, indicator: resource, issuer: origin, metadata: metadata ?? defaultEndpointsMetadata(origin), legacy: true, tried };
}

function legacySuffix(tried: NonNullable<DiscoveryResult['tried']>): string {
  const defaults = tried.metadata.length
    ? `; it publishes no metadata either (tried ${tried.metadata.join(', ')}), so its default /authorize, /token and /register were used`
    : '';
  return ` (No protected resource metadata exists — tried ${tried.prm.join(', ')} — so the 2025-03-26 rules were used: the authorization server at the MCP server's origin${defaults}.)`;
}

/**
 * An error met on the 2025-03-26 path, with the documents that were tried first appended, so
 * "registration at …/register failed (HTTP 404)" says why that URL was used at all.
 */
export function withLegacyNote(e: unknown, d: DiscoveryResult): unknown {
  if (d.legacy && d.tried && e instanceof Error) e.message += legacySuffix(d.tried);
  return e;
}
