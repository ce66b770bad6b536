/**
 * Stored-config migrations, keyed by the version they upgrade from.
 *
 * Version 0 (stored before `mcp_schema_version` existed) kept secrets in plaintext:
 * `auth: {kind:'bearer', token: "…"}`, `auth.clientSecret: "…"` for OAuth, and static
 * headers as a `{Name: "value"}` map. It also had no `id` and left `enabled`,
 * `disabledTools`, `connectOnStartup` to defaults. Version 1 seals every secret (F2) and
 * writes all fields out.
 *
 * Version 1 sealed an OAuth entry's refresh token and registered client secret for its
 * (resource, issuer) binding only. Version 2 seals them for the server entry too (S3), so that
 * two entries on one URL — two accounts — cannot open each other's: the v1→v2 step opens each
 * with the old purpose and seals it again with the new one. A blob that does not open (it never
 * would have: tampered, or sealed under a lost key) is carried unchanged, and reads as absent.
 *
 * Each entry is migrated on its own. An entry that is not an object is carried through as
 * it is (config-store reports it); plaintext secrets are sealed even in an entry that is
 * otherwise invalid, because a plaintext secret at rest is the worse outcome (F3).
 */
import type { SealedBlob } from './config-schema.js';
import { SERVER_ID_PATTERN } from '../protocol/server-id.js';
import { bindingOnlyPurpose, purposeFor, sealHeader } from './seal.js';
import { slugify } from './slug.js';

export type Sealer = (plaintext: string, purpose: string) => Promise<SealedBlob>;
export type Opener = (blob: SealedBlob, purpose: string) => Promise<string>;

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function migrateV0toV1(entries: readonly unknown[], seal: Sealer): Promise<unknown[]> {
  const taken = new Set<string>();
  const idOf = (entry: Raw): string => {
    const own = entry['id'];
    if (typeof own === 'string' && SERVER_ID_PATTERN.test(own) && !taken.has(own)) return own;
    const name = typeof entry['name'] === 'string' ? entry['name'] : typeof own === 'string' ? own : '';
    return slugify(name, taken);
  };

  const out: unknown[] = [];
  for (const entry of entries) {
    if (!isObject(entry)) {
      out.push(entry);
      continue;
    }
    const id = idOf(entry);
    taken.add(id);
    out.push({
      ...entry,
      id,
      auth: await migrateAuth(entry['auth'], id, seal),
      ...(entry['headers'] === undefined ? {} : { headers: await migrateHeaders(entry['headers'], id, seal) }),
      enabled: entry['enabled'] ?? true,
      disabledTools: entry['disabledTools'] ?? [],
      connectOnStartup: entry['connectOnStartup'] ?? false,
    });
  }
  return out;
}

async function migrateAuth(auth: unknown, serverId: string, seal: Sealer): Promise<unknown> {
  if (auth === undefined) return { kind: 'none' };
  if (!isObject(auth)) return auth;
  if (auth['kind'] === 'bearer' && typeof auth['token'] === 'string') {
    return { ...auth, token: await seal(auth['token'], purposeFor('bearer', { serverId })) };
  }
  if (auth['kind'] === 'oauth' && typeof auth['clientSecret'] === 'string') {
    return { ...auth, clientSecret: await seal(auth['clientSecret'], purposeFor('client-secret', { serverId })) };
  }
  return auth;
}

async function migrateHeaders(headers: unknown, serverId: string, seal: Sealer): Promise<unknown> {
  const sealOne = async (name: unknown, value: unknown) =>
    typeof name === 'string' && typeof value === 'string' ? { name, value: await sealHeader(serverId, name, value, seal) } : undefined;
  if (Array.isArray(headers)) {
    const out: unknown[] = [];
    for (const h of headers) out.push((isObject(h) && (await sealOne(h['name'], h['value']))) || h);
    return out;
  }
  if (!isObject(headers)) return headers;
  const out: unknown[] = [];
  for (const [name, value] of Object.entries(headers)) out.push((await sealOne(name, value)) ?? { name, value });
  return out;
}

/** Re-seals what v1 sealed for a binding alone for its server and binding (S3). */
export async function migrateV1toV2(entries: readonly unknown[], crypto: { seal: Sealer; open: Opener }): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const entry of entries) {
    const auth = isObject(entry) ? entry['auth'] : undefined;
    const id = isObject(entry) ? entry['id'] : undefined;
    const binding = isObject(auth) ? bindingOf(auth['binding']) : undefined;
    if (!isObject(entry) || !isObject(auth) || auth['kind'] !== 'oauth' || typeof id !== 'string' || !binding) {
      out.push(entry);
      continue;
    }
    const reseal = async (blob: unknown, kind: 'refresh' | 'client-secret'): Promise<unknown> => {
      if (!isObject(blob)) return blob;
      const plaintext = await crypto.open(blob as SealedBlob, bindingOnlyPurpose(kind, binding)).catch(() => undefined);
      return plaintext === undefined ? blob : crypto.seal(plaintext, purposeFor(kind, { serverId: id, binding }));
    };
    const next: Raw = { ...auth };
    const tokens = auth['tokens'];
    if (isObject(tokens) && tokens['refresh'] !== undefined)
      next['tokens'] = { ...tokens, refresh: await reseal(tokens['refresh'], 'refresh') };
    const registration = auth['registration'];
    if (isObject(registration) && registration['clientSecret'] !== undefined)
      next['registration'] = { ...registration, clientSecret: await reseal(registration['clientSecret'], 'client-secret') };
    out.push({ ...entry, auth: next });
  }
  return out;
}

function bindingOf(value: unknown): { resource: string; issuer: string } | undefined {
  if (!isObject(value)) return undefined;
  const { resource, issuer } = value;
  return typeof resource === 'string' && resource !== '' && typeof issuer === 'string' && issuer !== '' ? { resource, issuer } : undefined;
}
