/**
 * What a server's state asks the user to fix in its settings (docs/ui.md, K1): a bearer server
 * whose token was refused needs a new token — "Update token" is then its primary action and
 * goes straight into the token field; any other "edit" reason opens the field it is about.
 */
import type { ServerView } from '../protocol/panel.js';

/** The settings fields an "edit" reason can point at. */
export type SettingsField = 'token' | 'auth-kind' | 'url' | 'timeout';

/** The server authenticates with a static token and the server refused it (E1: only the user can fix it). */
export function tokenRefused(s: ServerView): boolean {
  const r = s.reason;
  return s.authKind === 'bearer' && r?.action === 'edit' && (r.kind === 'auth' || r.httpStatus === 401 || r.httpStatus === 403);
}

/** The field "Edit settings" (or "Update token") puts the focus in. */
export function settingsFieldFor(s: ServerView): SettingsField {
  if (tokenRefused(s)) return 'token';
  const r = s.reason;
  // No authorization set up, and the server wants some: the choice of kind is the fix.
  if (r?.kind === 'auth' && s.authKind !== 'bearer') return 'auth-kind';
  if (r?.kind === 'timeout') return 'timeout';
  return 'url';
}
