/**
 * What the upgrade fixture holds (test/fixtures/upgrade/v1), shared by the script that writes it
 * (scripts/make-upgrade-fixture.ts) and the test that loads it (test/e2e/upgrade.test.ts). The
 * ports are fixed because the stored URLs must still be valid when the test runs; they are
 * unusual ones no other test asks for (the others take free ports from the system).
 */
export const UPGRADE = {
  bearerPort: 39391,
  providerPort: 39392,
  headerPort: 39393,
  /** The bearer server "Vault": token sealed in its config entry (F2). */
  bearerToken: 'upgrade-bearer-6f2d9c41e8a7b305',
  /** The header server "Keyed": a static header, value sealed (F2); connect on start-up off. */
  header: { name: 'X-Api-Key', value: 'upgrade-header-0b7e4a19c3d2f856' },
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
