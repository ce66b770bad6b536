/**
 * The conversion from a stored server entry to what the auth core needs (secrets unsealed in
 * memory only), and the OAuth headers background work sends. {@link oauthHeaders} never opens a
 * window: without a usable token it fails with `needs-auth` (SPEC E9, E11). The worker's one
 * AuthManager is built in main.ts and passed in.
 */
import type { McpServerConfig } from '../../storage/config-schema.js';
import { open, purposeFor, seal } from '../../storage/seal.js';
import type { AuthManager } from '../auth/auth-manager.js';
import type { AuthServerConfig } from '../auth/ports.js';
import { otherAccountsOf } from '../../common/accounts.js';

/** The one AuthManager call background work may make. */
export type AccessTokens = Pick<AuthManager, 'getAccessToken'>;

/** A client secret the user configured belongs to the server entry (no binding exists yet). */
export function sealClientSecret(serverId: string, secret: string) {
  return seal(secret, purposeFor('client-secret', { serverId }));
}

/**
 * The auth core's view of a stored entry; the configured client secret is unsealed here. With the
 * server list, it says whether another entry shares the URL (another account, S3), so an
 * authorization asks the AS for an account choice.
 */
export async function authConfigOf(config: McpServerConfig, servers?: readonly McpServerConfig[]): Promise<AuthServerConfig> {
  const auth = config.auth;
  if (auth.kind !== 'oauth') return { id: config.id, url: config.url, auth: { kind: 'none' } };
  return {
    id: config.id,
    url: config.url,
    auth: {
      kind: 'oauth',
      ...(auth.clientId ? { clientId: auth.clientId } : {}),
      ...(auth.clientSecret ? { clientSecret: await open(auth.clientSecret, purposeFor('client-secret', { serverId: config.id })) } : {}),
      ...(auth.scopes?.length ? { scopes: auth.scopes } : {}),
      ...(auth.clientMetadataUrl ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
      ...(auth.clientIssuer ? { clientIssuer: auth.clientIssuer } : {}),
      ...(servers && otherAccountsOf(servers, config).length > 0 ? { otherAccounts: true } : {}),
    },
  };
}

/**
 * `Authorization` for an OAuth server at connect time: the cached token, else a refreshed one;
 * never interactive. Throws AuthorizationRequiredError (code `needs-auth`) otherwise.
 */
async function oauthHeaders(auth: AccessTokens, config: McpServerConfig): Promise<Record<string, string>> {
  if (config.auth.kind !== 'oauth') return {};
  const token = await auth.getAccessToken(await authConfigOf(config), { interactive: false });
  return { Authorization: `Bearer ${token}` };
}

/** Static headers and bearer token (credentials.ts), plus the OAuth token for an OAuth server. */
export async function headersWithOAuth(
  auth: AccessTokens,
  config: McpServerConfig,
  base: (config: McpServerConfig) => Promise<Record<string, string>>,
): Promise<Record<string, string>> {
  return { ...(await base(config)), ...(await oauthHeaders(auth, config)) };
}
