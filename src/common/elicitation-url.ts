/**
 * The page a server's URL-mode elicitation asks the user to open (SPEC R5, MCP 2025-11-25
 * elicitation): https, or http on loopback; no user name or password in it (a credential in a URL
 * ends up in history and logs); at most 2,048 characters. The offscreen document declines any
 * other request before a card exists, and the card checks again before it offers the link.
 */
import { isLoopbackHost } from './url-rules.js';

export const MAX_ELICITATION_URL = 2048;

/** The URL as the card may show and open it, or undefined when it must be declined. */
export function openableElicitationUrl(raw: unknown): URL | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ELICITATION_URL) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) ? url : undefined;
}
