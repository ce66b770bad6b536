/**
 * In-memory CredentialStore for tests and the conformance harness. The extension's real store
 * (chrome storage + sealing) is src/sw/chrome/chrome-credential-store.ts; this one only mirrors its
 * keying rules.
 */
import {
  credentialKeyString,
  type AuthBinding,
  type CredentialKey,
  type CredentialStore,
  type StoredAccessToken,
  type StoredClient,
  type StoredRefreshToken,
} from '../../src/sw/auth/ports.js';

export class MemoryCredentialStore implements CredentialStore {
  readonly bindings = new Map<string, AuthBinding>();
  readonly clients = new Map<string, StoredClient>();
  readonly accessTokens = new Map<string, StoredAccessToken>();
  readonly refreshTokens = new Map<string, StoredRefreshToken>();
  readonly clientIssuers = new Map<string, string>();

  async getBinding(serverId: string) {
    return this.bindings.get(serverId);
  }
  async putBinding(serverId: string, binding: AuthBinding | undefined) {
    set(this.bindings, serverId, binding);
  }
  async getClient(key: CredentialKey) {
    return this.clients.get(credentialKeyString(key));
  }
  async putClient(key: CredentialKey, client: StoredClient | undefined) {
    set(this.clients, credentialKeyString(key), client);
  }
  async getAccessToken(key: CredentialKey) {
    return this.accessTokens.get(credentialKeyString(key));
  }
  async putAccessToken(key: CredentialKey, token: StoredAccessToken | undefined) {
    set(this.accessTokens, credentialKeyString(key), token);
  }
  async getRefreshToken(key: CredentialKey) {
    return this.refreshTokens.get(credentialKeyString(key));
  }
  async putRefreshToken(key: CredentialKey, token: StoredRefreshToken | undefined) {
    set(this.refreshTokens, credentialKeyString(key), token);
  }
  async pinClientIssuer(serverId: string, issuer: string | undefined) {
    set(this.clientIssuers, serverId, issuer);
  }
  async clear(key: CredentialKey) {
    const k = credentialKeyString(key);
    this.clients.delete(k);
    this.accessTokens.delete(k);
    this.refreshTokens.delete(k);
  }
}

function set<V>(map: Map<string, V>, key: string, value: V | undefined): void {
  if (value === undefined) map.delete(key);
  else map.set(key, value);
}
