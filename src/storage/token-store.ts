/**
 * OAuth tokens (SPEC F1, E10). Access tokens live only in the session area: they are
 * short-lived, must not reach disk, and must survive a service-worker eviction. Each is
 * stored under a digest of its (resource, issuer) binding, so a token can only be found by
 * code that is about to talk to the same resource through the same authorization server.
 *
 * An owner index (`mcp_token_owners`: serverId → keys) tells which keys a server put; when a
 * server's binding changes its old keys are deleted, unless another server still uses them.
 * Refresh tokens are long-lived and sealed into the server's config entry instead.
 */
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazy-schema.js';
import type { AuthBinding, SealedBlob } from './config-schema.js';
import type { KeyValueArea } from './ports.js';
import { open, purposeFor, seal } from './seal.js';
import { SerialQueue } from './serial-queue.js';

export const TOKEN_KEY_PREFIX = 'mcp_token_';
const TOKEN_OWNERS_KEY = 'mcp_token_owners';

const AccessTokenSchema = lazySchema(() =>
  z.object({
    accessToken: z.string().check(z.minLength(1), z.maxLength(16384)),
    tokenType: z.string().check(z.minLength(1), z.maxLength(64)),
    /** Epoch milliseconds; absent when the server did not say (N4). */
    expiresAt: z.optional(z.number()),
    scope: z.optional(z.string().check(z.maxLength(4096))),
  }),
);
export type AccessToken = z.infer<typeof AccessTokenSchema>;

const OwnersSchema = lazySchema(() => z.record(z.string(), z.array(z.string())));
type Owners = Record<string, string[]>;

/** Session-area key of a binding's access token. */
export async function tokenKey(binding: AuthBinding): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${binding.resource}\n${binding.issuer}`));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return TOKEN_KEY_PREFIX + hex.slice(0, 32);
}

export class TokenStore {
  readonly #area: KeyValueArea;
  readonly #queue = new SerialQueue();

  /** `area` must be the session area (F1). */
  constructor(area: KeyValueArea) {
    this.#area = area;
  }

  /** An entry that fails validation is treated as absent. */
  async get(binding: AuthBinding): Promise<AccessToken | undefined> {
    const key = await tokenKey(binding);
    const result = AccessTokenSchema.safeParse((await this.#area.get(key))[key]);
    return result.success ? result.data : undefined;
  }

  /** Records that `serverId` owns the binding's key, so a later binding change can drop it. */
  put(serverId: string, binding: AuthBinding, token: AccessToken): Promise<void> {
    const value = AccessTokenSchema.parse(token);
    return this.#queue.run(async () => {
      const key = await tokenKey(binding);
      const owners = await this.#owners();
      const mine = owners[serverId] ?? [];
      if (!mine.includes(key)) owners[serverId] = [...mine, key];
      await this.#area.set({ [key]: value, [TOKEN_OWNERS_KEY]: owners });
    });
  }

  /** Removes the binding's token for every server that shared it (e.g. after a 401 on it). */
  remove(binding: AuthBinding): Promise<void> {
    return this.#queue.run(async () => {
      const key = await tokenKey(binding);
      const owners = await this.#owners();
      for (const id of Object.keys(owners)) owners[id] = owners[id]!.filter((k) => k !== key);
      await this.#area.remove(key);
      await this.#area.set({ [TOKEN_OWNERS_KEY]: prune(owners) });
    });
  }

  /**
   * Deletes every token `serverId` put under another binding than `keep` (E10: old
   * credentials never reach a new authorization server). Without `keep`, forgets all of the
   * server's tokens. Returns the number of token entries deleted.
   */
  dropOtherBindings(serverId: string, keep?: AuthBinding): Promise<number> {
    return this.#queue.run(async () => {
      const keepKey = keep ? await tokenKey(keep) : undefined;
      const owners = await this.#owners();
      const mine = owners[serverId] ?? [];
      const dropped = mine.filter((k) => k !== keepKey);
      owners[serverId] = mine.filter((k) => k === keepKey);
      const stillUsed = new Set(Object.values(owners).flat());
      const doomed = dropped.filter((k) => !stillUsed.has(k));
      if (doomed.length > 0) await this.#area.remove(doomed);
      await this.#area.set({ [TOKEN_OWNERS_KEY]: prune(owners) });
      return doomed.length;
    });
  }

  async #owners(): Promise<Owners> {
    const result = OwnersSchema.safeParse((await this.#area.get(TOKEN_OWNERS_KEY))[TOKEN_OWNERS_KEY]);
    return result.success ? result.data : {};
  }
}

function prune(owners: Owners): Owners {
  return Object.fromEntries(Object.entries(owners).filter(([, keys]) => keys.length > 0));
}

/** Seals a refresh token for `auth.tokens.refresh`; only the same binding can open it. */
export function sealRefreshToken(binding: AuthBinding, refreshToken: string): Promise<SealedBlob> {
  return seal(refreshToken, purposeFor('refresh', { binding }));
}

/** Throws `SealError` when the blob was sealed for another binding. */
export function openRefreshToken(binding: AuthBinding, blob: SealedBlob): Promise<string> {
  return open(blob, purposeFor('refresh', { binding }));
}
