/**
 * Host permission for the authorization server (SPEC L1). The worker's token, registration and
 * metadata requests go to the AS origin, which Chrome must have granted; the grant can only be
 * asked for inside a click in the panel. So before an interactive authorization the worker
 * finds the AS the MCP server names (its protected-resource metadata, on the MCP origin that is
 * already granted) and, when that origin is not granted yet, says which one to ask for.
 */
import { chooseIssuer, fetchProtectedResourceMetadata } from '../auth/discovery.js';
import type { FetchLike } from '../auth/ports.js';
import { originPattern } from '../../common/url-rules.js';

export interface AsPermissionPorts {
  fetch: FetchLike;
  /** `chrome.permissions.contains({ origins })` in the extension. */
  contains(origins: string[]): Promise<boolean>;
}

/**
 * Origin patterns the authorization would need and Chrome has not granted; empty when nothing
 * is missing or when discovery fails here (the authorization itself then reports why, in words).
 */
export async function missingAuthOrigins(
  ports: AsPermissionPorts,
  mcpUrl: string,
  existingIssuer?: string,
  /** `resource_metadata` of the server's 401 challenge, tried first as discovery does. */
  challengeUrl?: string,
): Promise<string[]> {
  let issuer: string;
  try {
    const found = await fetchProtectedResourceMetadata(ports.fetch, mcpUrl, challengeUrl);
    if (!found) return [];
    issuer = chooseIssuer(found.prm, found.url, existingIssuer);
  } catch {
    return [];
  }
  if (new URL(issuer).origin === new URL(mcpUrl).origin) return [];
  const pattern = originPattern(issuer);
  return (await ports.contains([pattern])) ? [] : [pattern];
}
