/**
 * Which words the card's authorization button uses (SPEC E9, E11, K1). Every OAuth server card
 * has the button, ready ones too (to re-consent or change account): "Authorize" only while the
 * server waits for its first authorization; "Re-authorize" once it has been authorized, including
 * when a refresh failed with no user present — that reason tells the user to click "Re-authorize",
 * so the button must carry the same word.
 */
import type { ServerView } from '../protocol/panel.js';

/** The worker's needs-auth reasons that ask for "Re-authorize" (auth-manager.ts needsAuth). */
const ASKS_REAUTHORIZE = /click Re-authorize/;

export function authorizeLabelKey(s: Pick<ServerView, 'status' | 'reason'>): 'authorize' | 'reauthorize' {
  if (s.status === 'needs-auth' && !ASKS_REAUTHORIZE.test(s.reason?.message ?? '')) return 'authorize';
  return 'reauthorize';
}
