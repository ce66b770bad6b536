/**
 * The panel's OAuth actions in the worker (SPEC E2, E9, E11, K1): adding an OAuth server with an
 * optional pre-registered client (its secret sealed at once, F2), "Authorize" — the only path
 * that opens the authorization window, reached from a click — and "Forget authorization".
 */
import { say } from '../../protocol/wording.js';
import { RemoteError } from '../../protocol/result.js';
import type { McpServerConfig } from '../../storage/config-schema.js';
import type { ConfigStore } from '../../storage/config-store.js';
import type { AuthManager } from '../auth/auth-manager.js';
import type { McpManager } from '../manager/mcp-manager.js';
import { originPattern } from '../../common/url-rules.js';
import { probeChallenge } from '../auth/challenge-probe.js';
import { parseBearerChallenge } from '../auth/www-authenticate.js';
import { missingAuthOrigins, type AsPermissionPorts } from '../chrome/as-permission.js';
import { authConfigOf, sealClientSecret } from '../chrome/oauth-runtime.js';
import { tryParseUrl } from '../auth/url-policy.js';
import { authorizeFailure } from './authorize-failure.js';
import { retryingSuperseded } from './superseded-retry.js';

/** What the OAuth actions use, handed in by main.ts. */
export interface OAuthHandlerDeps {
  manager: McpManager;
  configStore: Pick<ConfigStore, 'read' | 'updateServer'>;
  auth: Pick<AuthManager, 'authorize' | 'forget'>;
  /** Network and granted-origin checks for the authorization server's origin (SPEC L1). */
  asPermission: AsPermissionPorts;
  /** Gives a new token to the server's live sessions (oauth-requests.ts). */
  handTokenToLiveSessions(serverId: string, token: string): Promise<number>;
}

export interface OAuthAddParams {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  scopes?: string[] | undefined;
  clientMetadataUrl?: string | undefined;
}

function isClientMetadataUrl(value: string): boolean {
  const u = tryParseUrl(value);
  return !!u && u.protocol === 'https:' && u.pathname !== '/';
}

/** The stored `auth` of a new OAuth server: no binding, no tokens yet (needs-auth until authorized). */
export async function newOAuthAuth(serverId: string, p: OAuthAddParams): Promise<McpServerConfig['auth']> {
  const clientId = p.clientId?.trim();
  const secret = p.clientSecret?.trim();
  if (secret && !clientId) throw new RemoteError({ code: 'bad-request', message: 'A client secret needs its client ID.' });
  const scopes = (p.scopes ?? []).map((s) => s.trim()).filter(Boolean);
  const metadataUrl = p.clientMetadataUrl?.trim();
  // The same rule the registration step applies before using it as a client id (SPEC E8).
  if (metadataUrl && !isClientMetadataUrl(metadataUrl))
    throw new RemoteError({ code: 'bad-request', message: 'A client metadata document URL must be an HTTPS URL with a path.' });
  return {
    kind: 'oauth',
    ...(clientId ? { clientId } : {}),
    ...(clientId && secret ? { clientSecret: await sealClientSecret(serverId, secret) } : {}),
    ...(scopes.length ? { scopes } : {}),
    ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
  };
}

async function oauthConfig(configStore: OAuthHandlerDeps['configStore'], serverId: string): Promise<McpServerConfig> {
  const config = (await configStore.read()).servers.find((s) => s.id === serverId);
  if (!config) throw new RemoteError({ code: 'unknown-server', ...say('reasonNoSuchServer', { id: serverId }) });
  if (config.auth.kind !== 'oauth') throw new RemoteError({ code: 'bad-request', ...say('reasonNotOAuth', { name: config.name }) });
  return config;
}

/**
 * The one-click switch of a server set up without authorization that answered 401 Bearer: its
 * stored auth becomes OAuth (no client, no scopes: discovery and the challenge supply them).
 * A bearer or OAuth server is left as it is.
 */
async function useOAuth(configStore: OAuthHandlerDeps['configStore'], serverId: string): Promise<void> {
  const config = (await configStore.read()).servers.find((s) => s.id === serverId);
  if (config?.auth.kind === 'none') await configStore.updateServer(serverId, { auth: { kind: 'oauth' } });
}

/**
 * Runs the interactive authorization, then connects. A cancelled or refused authorization
 * leaves the server in `needs-auth` with that reason. Writing the new binding reconciles the
 * server (disconnect barrier, C3), which can supersede our first connect: it is retried.
 */
async function authorizeServer(
  deps: OAuthHandlerDeps,
  serverId: string,
  switchToOAuth = false,
): Promise<{ status: 'ready' | 'needs-auth'; missingOrigins?: string[] }> {
  const { manager } = deps;
  if (switchToOAuth) await useOAuth(deps.configStore, serverId);
  const config = await oauthConfig(deps.configStore, serverId);
  // The server's answer to an unauthenticated initialize drives discovery and scope (E3, E7).
  const challenge = await probeChallenge(deps.asPermission.fetch, config.url);
  const missingOrigins = await missingAuthOrigins(
    deps.asPermission,
    config.url,
    config.auth.kind === 'oauth' ? config.auth.binding?.issuer : undefined,
    parseBearerChallenge(challenge)?.resourceMetadata,
  );
  if (missingOrigins.length > 0) {
    manager.authFailed(serverId, {
      kind: 'auth',
      ...say('reasonAuthServerNoAccess', { origins: missingOrigins.join(', ') }),
      action: 'authorize',
    });
    return { status: 'needs-auth', missingOrigins: [originPattern(config.url), ...missingOrigins] };
  }
  let token: string;
  try {
    const servers = (await deps.configStore.read()).servers;
    token = await deps.auth.authorize(await authConfigOf(config, servers), { wwwAuthenticate: challenge });
  } catch (e) {
    const failure = authorizeFailure(e);
    manager.authFailed(serverId, failure.reason);
    throw new RemoteError(failure.error);
  }
  return retryingSuperseded(async () => {
    await manager.connect(serverId);
    // "Re-authorize" on a ready server: its live session switches to the new token now.
    await deps.handTokenToLiveSessions(serverId, token);
    return { status: 'ready' as const };
  });
}

/** Revokes at the AS when it can, and always deletes the local credentials. */
async function forgetAuthorization(deps: Pick<OAuthHandlerDeps, 'configStore' | 'auth' | 'manager'>, serverId: string) {
  const config = await oauthConfig(deps.configStore, serverId);
  const forgotten = await deps.auth.forget(await authConfigOf(config));
  // Its live session used the forgotten token: closed, and it waits for authorization again.
  await deps.manager.credentialsForgotten(serverId);
  return forgotten;
}

/** The handlers of src/protocol/panel-oauth.ts, spread into the panel API. */
export function oauthPanelHandlers(deps: OAuthHandlerDeps) {
  return {
    'panel:authorize': (p: { serverId: string; switchToOAuth?: boolean | undefined }) => authorizeServer(deps, p.serverId, p.switchToOAuth),
    'panel:forget-authorization': async (p: { serverId: string }) => {
      const r = await forgetAuthorization(deps, p.serverId);
      return { revoked: r.revoked, ...(r.revokeError !== undefined ? { revokeError: r.revokeError.slice(0, 4096) } : {}) };
    },
  };
}
