/** Shared set-up for storage tests: a fresh, empty IndexedDB and no cached key or connection. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { resetStorageDbForTests } from '../../../src/storage/idb.js';
import { resetKeyCacheForTests } from '../../../src/storage/seal.js';
import type { McpServerConfig } from '../../../src/storage/config-schema.js';

export async function freshIndexedDb(): Promise<void> {
  await resetStorageDbForTests();
  resetKeyCacheForTests();
  globalThis.indexedDB = new IDBFactory();
}

/** What a worker restart does to module state: connection and key cache are gone. */
export async function simulateWorkerRestart(): Promise<void> {
  await resetStorageDbForTests();
  resetKeyCacheForTests();
}

export function server(id: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    id,
    name: `Server ${id}`,
    url: `https://${id}.example.com/mcp`,
    auth: { kind: 'none' },
    enabled: true,
    disabledTools: [],
    connectOnStartup: false,
    ...extra,
  };
}
