/**
 * Stored-config migrations, keyed by the version they upgrade from.
 *
 * Version 0 (stored before `mcp_schema_version` existed) kept secrets in plaintext:
 * `auth: {kind:'bearer', token: "…"}`, `auth.clientSecret: "…"` for OAuth, and static
 * headers as a `{Name: "value"}` map. It also had no `id` and left `enabled`,
 * `disabledTools`, `connectOnStartup` to defaults. Version 1 seals every secret (F2) and
 * writes all fields out.
 *
 * Each entry is migrated on its own. An entry that is not an object is carried through as
 * it is (config-store reports it); plaintext secrets are sealed even in an entry that is
 * otherwise invalid, because a plaintext secret at rest is the worse outcome (F3).
 */
import type { SealedBlob } from './config-schema.js';
import { SERVER_ID_PATTERN } from '../protocol/server-id.js';
import { purposeFor, sealHeader } from './seal.js';
import { slugify } from './slug.js';

export type Sealer = (plaintext: string, purpose: string) => Promise<SealedBlob>;

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
