/**
 * The browser half of the authorization-code flow (SPEC E2): `chrome.identity.launchWebAuthFlow`
 * with `interactive: true`. It is only ever handed to the AuthManager's interactive paths, which
 * the worker reaches from a panel click ("Authorize"), never from background work (E9).
 */

/** Path of our redirect URI: `https://<extension-id>.chromiumapp.org/mcp-oauth`. */
const REDIRECT_PATH = 'mcp-oauth';

export function oauthRedirectUri(): string {
  return chrome.identity.getRedirectURL(REDIRECT_PATH);
}

/**
 * Opens the authorization page and resolves with the full callback URL. Closing the window
 * rejects with Chrome's "The user did not approve access." (mapped to auth-cancelled by the core).
 */
export async function launchAuthFlow(url: string): Promise<string> {
  const callback = await chrome.identity.launchWebAuthFlow({ url, interactive: true });
  if (!callback) throw new Error('The user did not approve access.');
  return callback;
}
