/**
 * Fences old worker instances (SPEC C6): a claim makes its sender the owner; a fresh document
 * takes the first sender as owner; any other sender is refused before its request runs.
 */
import type { OffscreenMethod } from '../protocol/offscreen.js';

export const NOT_THE_OWNER = 'Refused: this request came from a service worker instance that no longer owns the MCP sessions.';

export class OwnerFence {
  /** The worker instance the document answers; set by a claim, or by the first request of a fresh document. */
  #owner: string | undefined;

  /** Whether `sender` may run `method`; a claim always may, and takes the document over. */
  admit(method: OffscreenMethod, sender: string): boolean {
    if (method === 'offscreen:claim' || this.#owner === undefined) this.#owner = sender;
    return this.#owner === sender;
  }
}
