/**
 * The worker's one AuthManager, over the chrome credential store and the identity adapter, and
 * the conversion from a stored server entry to what the auth core needs (secrets unsealed in
 * memory only). Background work calls {@link oauthHeaders}, which never opens a window: without
 * a usable token it fails with `needs-auth` (SPEC E9, E11).
 */
import type { McpServerConfig } from '../../storage/config-schema.js';
import { chromeArea } from '../../storage/ports.js';
import { open, purposeFor, seal } from '../../storage/seal.js';
import { TokenStore } from '../../storage/token-store.js';
import { AuthManager } from '../auth/auth-manager.js';
import type { AuthServerConfig } from '../auth/ports.js';
import { configStore } from './config-access.js';
import { ChromeCredentialStore } from './chrome-credential-store.js';
import { launchAuthFlow, oauthRedirectUri } from './identity.js';

const credentialStore = new ChromeCredentialStore(configStore, new TokenStore(chromeArea(chrome.storage.session)));

export const authManager = new AuthManager({
  fetch: (url, init) => fetch(url, init),
  now: () => Date.now(),
  authorize: launchAuthFlow,
  store: credentialStore,
  redirectUri: oauthRedirectUri(),
  clientName: 'Remote MCP for Chrome',
});

/** A client secret the user configured belongs to the server entry (no binding exists yet). */
export function sealClientSecret(serverId: string, secret: string) {
  return seal(secret, purposeFor('client-secret', { serverId }));
}

/** The auth core's view of a stored entry; the configured client secret is unsealed here. */
export async function authConfigOf(config: McpServerConfig): Promise<AuthServerConfig> {
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
    },
  };
}

/**
 * `Authorization` for an OAuth server at connect time: the cached token, else a refreshed one;
 * never interactive. Throws AuthorizationRequiredError (code `needs-auth`) otherwise.
 */
async function oauthHeaders(config: McpServerConfig): Promise<Record<string, string>> {
  if (config.auth.kind !== 'oauth') return {};
  const token = await authManager.getAccessToken(await authConfigOf(config), { interactive: false });
  return { Authorization: `Bearer ${token}` };
}

/** Static headers and bearer token (credentials.ts), plus the OAuth token for an OAuth server. */
export async function headersWithOAuth(
  config: McpServerConfig,
  base: (config: McpServerConfig) => Promise<Record<string, string>>,
): Promise<Record<string, string>> {
  return { ...(await base(config)), ...(await oauthHeaders(config)) };
}
