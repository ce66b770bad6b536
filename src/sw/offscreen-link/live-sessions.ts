/**
 * The live sessions opened with an OAuth token, and the token each sends now (SPEC E9), so a
 * fresh token reaches them without reconnecting: after a refresh for one refused request, or
 * after the user's "Re-authorize" / "Grant more access" for every session of the server.
 */
import { BoundedMap } from '../../common/bounded-map.js';

/** More live sessions than servers anyone configures; old entries beyond it are dropped. */
const MAX_TRACKED_SESSIONS = 128;

export interface HeldToken {
  serverId: string;
  /** Undefined for a session adopted from an earlier worker (C7): this worker never saw what it sends. */
  token: string | undefined;
}

/** Hands `token` to the session (`offscreen:set-authorization`); false when that session is gone. */
export type SetAuthorization = (connectionId: string, token: string) => Promise<boolean>;

export class LiveSessions {
  /** connectionId → server and the token its session currently sends. */
  readonly #held = new BoundedMap<string, HeldToken>(MAX_TRACKED_SESSIONS);
  readonly #setAuthorization: SetAuthorization;

  constructor(setAuthorization: SetAuthorization) {
    this.#setAuthorization = setAuthorization;
  }

  /** A session opened with `token`; sessions that end without a close through here are bounded. */
  opened(connectionId: string, serverId: string, token: string): void {
    this.#held.set(connectionId, { serverId, token });
  }

  /**
   * A session a new worker adopted from the document (C7), with the token it sends unknown here:
   * a Re-authorize hands it the new token, and a 401 on it is refreshed like on any other.
   */
  adopted(connectionId: string, serverId: string): void {
    if (!this.#held.has(connectionId)) this.#held.set(connectionId, { serverId, token: undefined });
  }

  closed(connectionId: string): void {
    this.#held.delete(connectionId);
  }

  of(connectionId: string): HeldToken | undefined {
    return this.#held.get(connectionId);
  }

  /** Hands `token` to one session; whether the session took it. */
  async renew(connectionId: string, held: HeldToken, token: string): Promise<boolean> {
    if (!(await this.#setAuthorization(connectionId, token))) return false;
    held.token = token;
    return true;
  }

  /** Hands `token` to every session of `serverId` still sending another; the number updated. */
  async handToAll(serverId: string, token: string): Promise<number> {
    let n = 0;
    for (const [connectionId, held] of this.#held) {
      if (held.serverId !== serverId || held.token === token) continue;
      try {
        if (await this.renew(connectionId, held, token)) n++;
        // The session is gone (lost, superseded): stop tracking it and its token.
        else this.#held.delete(connectionId);
      } catch {
        // A session that went away meanwhile reconnects with the stored token anyway.
      }
    }
    return n;
  }
}
