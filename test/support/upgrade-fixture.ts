/**
 * What the upgrade fixture holds (test/fixtures/upgrade/v1), shared by the script that writes it
 * (scripts/make-upgrade-fixture.ts) and the test that loads it (test/e2e/upgrade.test.ts). The
 * ports are fixed because the stored URLs must still be valid when the test runs; they are
 * unusual ones no other test asks for (the others take free ports from the system), below Linux's
 * ephemeral range (32768–60999) so that no outgoing connection can hold one (CI once lost the
 * whole upgrade test to a Chromium connection sitting on 29394).
 */
export const UPGRADE = {
  bearerPort: 29391,
  providerPort: 29392,
  headerPort: 29393,
  /** The OAuth server "Secure": its MCP resource server and its authorization server. */
  oauthMcpPort: 29394,
  oauthAsPort: 29395,
  /** The bearer server "Vault": token sealed in its config entry (F2). */
  bearerToken: 'upgrade-bearer-6f2d9c41e8a7b305',
  /** The header server "Keyed": a static header, value sealed (F2); connect on start-up off. */
  header: { name: 'X-Api-Key', value: 'upgrade-header-0b7e4a19c3d2f856' },
  /**
   * "Secure"'s client (dynamic registration) and refresh token (sealed in its config entry, E10):
   * the AS that writes the fixture issues these values and the one that loads it starts knowing
   * them (test/support/oauth-known-grant.ts). The redirect URI is the extension's own, whose id
   * the manifest's key fixes (the fixture's directory names carry it).
   */
  oauthGrant: {
    clientId: 'upgrade-client-5c8e1a7d3f90b264',
    redirectUri: 'https://pfeobelfcgjanfpdlgcphpfjpmbjcenn.chromiumapp.org/mcp-oauth',
    refreshToken: 'upgrade-refresh-a41f6c2e9d08b7e3',
  },
  /** The OpenAI-compatible provider's key, sealed in the provider settings. */
  providerKey: 'sk-upgrade-provider-93a1c7e05d4b28f6',
  /** The tool "Vault" always allows, and the one it has disabled. */
  grantedTool: 'echo',
  disabledTool: 'add',
  chatTurns: ['What is stored?', 'And after an upgrade?'],
  answers: ['Servers, grants and chats.', 'All of it, still.'],
} as const;

/** The extension's own storage directories inside a profile, relative to its root. */
export function storageDirs(extensionId: string): string[] {
  return [
    `Default/Local Extension Settings/${extensionId}`,
    `Default/IndexedDB/chrome-extension_${extensionId}_0.indexeddb.leveldb`,
    `Default/IndexedDB/chrome-extension_${extensionId}_0.indexeddb.blob`,
  ];
}
