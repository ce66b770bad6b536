/**
 * The extension's {@link CredentialStore} (SPEC E10, F1, F2): the AuthManager's credentials
 * filed where the spec wants them.
 * - Access tokens live only in the session area, under a digest of their server and its
 *   (resource, issuer) binding ({@link TokenStore}), so they never reach disk and two entries on
 *   one URL (two accounts, S3) never share one.
 * - The binding, the dynamically registered client and the refresh token live in the server's
 *   own config entry (`auth.binding`, `auth.registration`, `auth.tokens`), the refresh token and
 *   any client secret sealed with a purpose derived from the server and the binding: a blob
 *   copied to another server (another account on the same URL) or issuer cannot be opened.
 *
 * Invariant of a config entry: `registration` and `tokens` always belong to `binding`. Writing a
 * credential for another binding therefore moves the entry to that binding and drops what the
 * old one had — a credential is never found again under a key it was not obtained for.
 */
import type { AuthBinding as StoredBinding, McpServerConfig, SealedBlob } from '../../storage/config-schema.js';
import type { ConfigSnapshot, Updater } from '../../storage/config-store.js';
import { open, purposeFor, seal } from '../../storage/seal.js';
import { openRefreshToken, sealRefreshToken, type TokenOwner, type TokenStore } from '../../storage/token-store.js';
import type {
  AuthBinding,
  CredentialKey,
  CredentialStore,
  StoredAccessToken,
  StoredClient,
  StoredRefreshToken,
  TokenEndpointAuthMethod,
} from '../auth/ports.js';

/** The slice of the worker's ConfigStore this store needs (all writes go through its queue). */
export interface ConfigAccess {
  read(): Promise<ConfigSnapshot>;
  update(fn: Updater): Promise<ConfigSnapshot>;
}

type OAuthEntry = Extract<McpServerConfig['auth'], { kind: 'oauth' }>;

const AUTH_METHODS = new Set<string>(['none', 'client_secret_basic', 'client_secret_post']);

function sameBinding(a: AuthBinding | undefined, b: AuthBinding | undefined): boolean {
  return !!a && !!b && a.resource === b.resource && a.issuer === b.issuer;
}

const bindingOf = (key: AuthBinding): StoredBinding => ({ resource: key.resource, issuer: key.issuer });
const ownerOf = (key: CredentialKey): TokenOwner => ({ serverId: key.serverId, resource: key.resource, issuer: key.issuer });

export class ChromeCredentialStore implements CredentialStore {
  readonly #config: ConfigAccess;
  readonly #tokens: TokenStore;

  /** `tokens` must be a TokenStore over `chrome.storage.session` (F1). */
  constructor(config: ConfigAccess, tokens: TokenStore) {
    this.#config = config;
    this.#tokens = tokens;
  }

  async #entry(serverId: string): Promise<OAuthEntry | undefined> {
    const server = (await this.#config.read()).servers.find((s) => s.id === serverId);
    return server?.auth.kind === 'oauth' ? server.auth : undefined;
  }

  /** Credentials of `key`, only if the entry is still bound to exactly that binding. */
  async #boundEntry(key: CredentialKey): Promise<OAuthEntry | undefined> {
    const auth = await this.#entry(key.serverId);
    return auth && sameBinding(auth.binding, key) ? auth : undefined;
  }

  /** Read-modify-write of one OAuth entry through the config queue; a vanished server is a no-op. */
  async #edit(serverId: string, fn: (auth: OAuthEntry) => OAuthEntry | Promise<OAuthEntry>): Promise<void> {
    await this.#config.update(async (servers) => {
      const at = servers.findIndex((s) => s.id === serverId);
      const server = servers[at];
      if (!server || server.auth.kind !== 'oauth') return servers;
      servers[at] = { ...server, auth: await fn(server.auth) };
      return servers;
    });
  }

  /** The entry moved to `key`'s binding: what belonged to another binding is dropped (E10). */
  #rebind(auth: OAuthEntry, key: AuthBinding): OAuthEntry {
    if (sameBinding(auth.binding, key)) return auth;
    const { registration: _r, tokens: _t, ...rest } = auth;
    return { ...rest, binding: bindingOf(key) };
  }

  async getBinding(serverId: string): Promise<AuthBinding | undefined> {
    const binding = (await this.#entry(serverId))?.binding;
    return binding ? { resource: binding.resource, issuer: binding.issuer } : undefined;
  }

  async putBinding(serverId: string, binding: AuthBinding | undefined): Promise<void> {
    await this.#edit(serverId, (auth) => {
      if (binding) return this.#rebind(auth, binding);
      const { binding: _b, registration: _r, tokens: _t, ...rest } = auth;
      return rest;
    });
    await this.#tokens.dropOtherBindings(serverId, binding);
  }

  async getClient(key: CredentialKey): Promise<StoredClient | undefined> {
    const reg = (await this.#boundEntry(key))?.registration;
    if (!reg) return undefined;
    const method = reg.tokenEndpointAuthMethod;
    const client: StoredClient = {
      clientId: reg.clientId,
      tokenEndpointAuthMethod: (method && AUTH_METHODS.has(method)
        ? method
        : reg.clientSecret
          ? 'client_secret_basic'
          : 'none') as TokenEndpointAuthMethod,
    };
    if (reg.clientSecret) {
      // Unopenable (tampered, moved, or the sealing key is gone): register again rather than fail forever.
      const secret = await open(reg.clientSecret, purposeFor('client-secret', { serverId: key.serverId, binding: key })).catch(
        () => undefined,
      );
      if (secret === undefined) return undefined;
      client.clientSecret = secret;
    }
    return client;
  }

  async putClient(key: CredentialKey, client: StoredClient | undefined): Promise<void> {
    const secret: SealedBlob | undefined = client?.clientSecret
      ? await seal(client.clientSecret, purposeFor('client-secret', { serverId: key.serverId, binding: key }))
      : undefined;
    await this.#edit(key.serverId, (auth) => {
      if (!client) {
        if (!sameBinding(auth.binding, key)) return auth;
        const { registration: _r, ...rest } = auth;
        return rest;
      }
      const registration = {
        clientId: client.clientId,
        tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
        ...(secret ? { clientSecret: secret } : {}),
      };
      return { ...this.#rebind(auth, key), registration };
    });
  }

  async getAccessToken(key: CredentialKey): Promise<StoredAccessToken | undefined> {
    if (!(await this.#boundEntry(key))) return undefined;
    const stored = await this.#tokens.get(ownerOf(key));
    if (!stored) return undefined;
    return {
      token: stored.accessToken,
      ...(stored.expiresAt !== undefined ? { expiresAt: stored.expiresAt } : {}),
      ...(stored.scope !== undefined ? { scope: stored.scope } : {}),
    };
  }

  async putAccessToken(key: CredentialKey, token: StoredAccessToken | undefined): Promise<void> {
    if (!token) {
      await this.#tokens.remove(ownerOf(key));
      return;
    }
    await this.#tokens.put(ownerOf(key), {
      accessToken: token.token,
      tokenType: 'Bearer',
      ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}),
      ...(token.scope !== undefined ? { scope: token.scope } : {}),
    });
  }

  async getRefreshToken(key: CredentialKey): Promise<StoredRefreshToken | undefined> {
    const tokens = (await this.#boundEntry(key))?.tokens;
    if (!tokens?.refresh) return undefined;
    // Unopenable means unusable: the server needs authorization again, never a permanent error.
    const token = await openRefreshToken(ownerOf(key), tokens.refresh).catch(() => undefined);
    if (token === undefined) return undefined;
    return { token, ...(tokens.scope !== undefined ? { scope: tokens.scope } : {}) };
  }

  async putRefreshToken(key: CredentialKey, token: StoredRefreshToken | undefined): Promise<void> {
    const sealed = token ? await sealRefreshToken(ownerOf(key), token.token) : undefined;
    await this.#edit(key.serverId, (auth) => {
      if (!sealed) {
        if (!sameBinding(auth.binding, key)) return auth;
        const { tokens: _t, ...rest } = auth;
        return rest;
      }
      return { ...this.#rebind(auth, key), tokens: { refresh: sealed, ...(token?.scope !== undefined ? { scope: token.scope } : {}) } };
    });
  }

  /** Kept in the entry, like the binding; `undefined` (Forget authorization) unpins it (E10). */
  async pinClientIssuer(serverId: string, issuer: string | undefined): Promise<void> {
    await this.#edit(serverId, (auth) => {
      if (!auth.clientId) return auth;
      const { clientIssuer: _i, ...rest } = auth;
      return issuer ? { ...rest, clientIssuer: issuer } : rest;
    });
  }

  async clear(key: CredentialKey): Promise<void> {
    await this.#tokens.remove(ownerOf(key));
    await this.#edit(key.serverId, (auth) => {
      if (!sameBinding(auth.binding, key)) return auth;
      const { registration: _r, tokens: _t, ...rest } = auth;
      return rest;
    });
  }
}
