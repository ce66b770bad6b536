/**
 * OAuth tokens (SPEC F1, E10, S3). Access tokens live only in the session area: they are
 * short-lived, must not reach disk, and must survive a service-worker eviction. Each is
 * stored under a digest of its owner — the server entry and its (resource, issuer) binding —
 * so a token can only be found by code that is about to talk to the same resource through the
 * same authorization server for the same entry: two entries on one URL (two accounts, S3) never
 * see each other's token.
 *
 * An owner index (`mcp_token_owners`: serverId → keys) tells which keys a server put; when a
 * server's binding changes its old keys are deleted. Refresh tokens are long-lived and sealed
 * into the server's config entry instead, for that entry and binding.
 *
 * The session area is emptied when the extension is updated, so keys of the earlier
 * (resource, issuer)-only format never meet this code: no migration is needed here.
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

/** Whose token: the server entry and the binding it was obtained under. */
export interface TokenOwner extends AuthBinding {
  serverId: string;
}

/** Session-area key of an owner's access token. */
export async function tokenKey(owner: TokenOwner): Promise<string> {
  // JSON of a fixed order keeps the encoding unambiguous whatever the parts contain.
  const text = JSON.stringify([owner.serverId, owner.resource, owner.issuer]);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
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
  async get(owner: TokenOwner): Promise<AccessToken | undefined> {
    const key = await tokenKey(owner);
    const result = AccessTokenSchema.safeParse((await this.#area.get(key))[key]);
    return result.success ? result.data : undefined;
  }

  /** Records the key in the owner index, so a later binding change of the server can drop it. */
  put(owner: TokenOwner, token: AccessToken): Promise<void> {
    const value = AccessTokenSchema.parse(token);
    return this.#queue.run(async () => {
      const key = await tokenKey(owner);
      const owners = await this.#owners();
      const mine = owners[owner.serverId] ?? [];
      if (!mine.includes(key)) owners[owner.serverId] = [...mine, key];
      await this.#area.set({ [key]: value, [TOKEN_OWNERS_KEY]: owners });
    });
  }

  /** Removes the owner's token (e.g. after a 401 on it); another entry's token is untouched. */
  remove(owner: TokenOwner): Promise<void> {
    return this.#queue.run(async () => {
      const key = await tokenKey(owner);
      const owners = await this.#owners();
      const mine = owners[owner.serverId];
      if (mine) owners[owner.serverId] = mine.filter((k) => k !== key);
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
      const keepKey = keep ? await tokenKey({ serverId, resource: keep.resource, issuer: keep.issuer }) : undefined;
      const owners = await this.#owners();
      const mine = owners[serverId] ?? [];
      const doomed = mine.filter((k) => k !== keepKey);
      owners[serverId] = mine.filter((k) => k === keepKey);
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

/** Seals a refresh token for `auth.tokens.refresh`; only the same entry and binding can open it. */
export function sealRefreshToken(owner: TokenOwner, refreshToken: string): Promise<SealedBlob> {
  return seal(refreshToken, purposeFor('refresh', purposeScope(owner)));
}

/** Throws `SealError` when the blob was sealed for another entry or binding. */
export function openRefreshToken(owner: TokenOwner, blob: SealedBlob): Promise<string> {
  return open(blob, purposeFor('refresh', purposeScope(owner)));
}

function purposeScope(owner: TokenOwner) {
  return { serverId: owner.serverId, binding: { resource: owner.resource, issuer: owner.issuer } };
}
