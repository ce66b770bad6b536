/**
 * Secrets at rest (SPEC F2, E10). Bearer tokens, refresh tokens, client secrets and static
 * header values are stored only as AES-GCM blobs. The key is generated non-extractable and
 * kept in IndexedDB, so a dump of `chrome.storage.local` (or a stolen profile copy read
 * without Chrome's key store) yields ciphertext only, and no script can export the key.
 *
 * The additional data of each blob is a purpose string naming what the secret is and whom
 * it belongs to; a blob moved to another field, server or (resource, issuer) binding fails
 * to open instead of being sent somewhere it was never meant to go.
 */
import { fromBase64, toBase64 } from './base64.js';
import type { AuthBinding, SealedBlob } from './config-schema.js';
import { SealedBlobSchema } from './config-schema.js';
import { STORE_KEYS, idbDone, idbRequest, openStorageDb } from './idb.js';

const KEY_ID = 'seal-key-v1';
const IV_BYTES = 12;

/** Opening failed: wrong purpose, tampered or foreign ciphertext, malformed blob, or lost key. */
export class SealError extends Error {
  override readonly name = 'SealError';
}

let cachedKey: CryptoKey | null = null;
let keyInFlight: Promise<CryptoKey> | null = null;

/** Single-flight per context; the IndexedDB transaction settles races between contexts. */
function sealKey(): Promise<CryptoKey> {
  if (cachedKey) return Promise.resolve(cachedKey);
  keyInFlight ??= loadOrCreateKey()
    .then((key) => (cachedKey = key))
    .finally(() => {
      keyInFlight = null;
    });
  return keyInFlight;
}

async function loadOrCreateKey(): Promise<CryptoKey> {
  const db = await openStorageDb();
  const existing: unknown = await idbRequest(db.transaction(STORE_KEYS, 'readonly').objectStore(STORE_KEYS).get(KEY_ID));
  if (existing instanceof CryptoKey) return existing;

  // Key generation is async and cannot run inside an IndexedDB transaction (it would
  // auto-commit), so generate first, then insert only if no other context got there first.
  const candidate = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const tx = db.transaction(STORE_KEYS, 'readwrite');
  const store = tx.objectStore(STORE_KEYS);
  let winner: CryptoKey = candidate;
  const probe = store.get(KEY_ID);
  probe.onsuccess = () => {
    if (probe.result instanceof CryptoKey) winner = probe.result;
    else store.put(candidate, KEY_ID);
  };
  await idbDone(tx);
  return winner;
}

/**
 * Forget the in-memory key, as a service-worker restart would.
 * @internal test hook: module state cannot be reset from outside (knip --production skips it).
 */
export function resetKeyCacheForTests(): void {
  cachedKey = null;
  keyInFlight = null;
}

export async function seal(plaintext: string, purpose: string): Promise<SealedBlob> {
  const key = await sealKey();
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ct = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(purpose) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return { v: 1, iv: toBase64(iv), ct: toBase64(new Uint8Array(ct)) };
}

export async function open(blob: SealedBlob, purpose: string): Promise<string> {
  const parsed = SealedBlobSchema.safeParse(blob);
  if (!parsed.success) throw new SealError('Sealed value is malformed');
  let iv: Uint8Array<ArrayBuffer>;
  let ct: Uint8Array<ArrayBuffer>;
  try {
    iv = fromBase64(parsed.data.iv);
    ct = fromBase64(parsed.data.ct);
  } catch {
    throw new SealError('Sealed value is not valid base64');
  }
  if (iv.length !== IV_BYTES) throw new SealError('Sealed value has a wrong IV length');
  const key = await sealKey();
  try {
    const pt = await globalThis.crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(purpose) }, key, ct);
    return new TextDecoder().decode(pt);
  } catch {
    throw new SealError('Sealed value cannot be opened: wrong purpose, tampered, or sealed with another key');
  }
}

export type SecretKind = 'bearer' | 'refresh' | 'client-secret' | 'header' | 'provider-key';
export interface PurposeScope {
  serverId?: string;
  binding?: AuthBinding;
  headerName?: string;
  /** A chat provider's origin (`https://api.openai.com`): its API key opens only for requests there. */
  providerOrigin?: string;
}

/**
 * Which parts name the owner of each kind of secret:
 * - `bearer`: the server (a user-entered token belongs to that entry, not to an AS);
 * - `header`: the server and the header name (case-insensitive, as HTTP is);
 * - `refresh`: the server and its (resource, issuer) binding (E10, S3): two entries on one URL
 *   (two accounts) cannot open each other's; the id never changes on rename, so it survives one;
 * - `client-secret`: the server and the binding for a dynamically registered client, otherwise
 *   the server alone for a client the user configured before any discovery;
 * - `provider-key`: the chat provider's origin, so a key cannot follow a changed base URL elsewhere.
 * Missing parts throw, so a caller cannot accidentally seal with a weaker purpose.
 */
export function purposeFor(kind: SecretKind, scope: PurposeScope): string {
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined || value === '') throw new TypeError(`purposeFor('${kind}') needs ${what}`);
    return value;
  };
  const bindingParts = (b: AuthBinding) => ({ server: need(scope.serverId, 'serverId'), resource: b.resource, issuer: b.issuer });
  let parts: Record<string, string>;
  switch (kind) {
    case 'bearer':
      parts = { server: need(scope.serverId, 'serverId') };
      break;
    case 'header':
      parts = { server: need(scope.serverId, 'serverId'), header: need(scope.headerName, 'headerName').toLowerCase() };
      break;
    case 'refresh':
      parts = bindingParts(need(scope.binding, 'binding'));
      break;
    case 'client-secret':
      parts = scope.binding ? bindingParts(scope.binding) : { server: need(scope.serverId, 'serverId or binding') };
      break;
    case 'provider-key':
      parts = { origin: need(scope.providerOrigin, 'providerOrigin') };
      break;
  }
  // JSON of a fixed key order keeps the encoding unambiguous whatever the values contain.
  return `remote-mcp/v1/${kind}:${JSON.stringify(parts)}`;
}

/**
 * The purpose storage version 1 sealed refresh tokens and registered client secrets with: the
 * binding alone. Only the v1→v2 migration uses it, to open them once and seal them again for
 * their server too.
 */
export function bindingOnlyPurpose(kind: 'refresh' | 'client-secret', binding: AuthBinding): string {
  return `remote-mcp/v1/${kind}:${JSON.stringify({ resource: binding.resource, issuer: binding.issuer })}`;
}

/**
 * Seals a static header's value (F2) for its server and header name: the one place a header's
 * sealing purpose is built. `sealWith` is the v0 migration's injected sealer.
 */
export function sealHeader(serverId: string, headerName: string, value: string, sealWith = seal): Promise<SealedBlob> {
  return sealWith(value, purposeFor('header', { serverId, headerName }));
}
