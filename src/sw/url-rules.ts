/**
 * Which MCP server URLs the product accepts: HTTPS, or plain HTTP only on an explicit loopback
 * host for local development (SPEC E3, N2). The panel form, the worker and the importer all use
 * the one rule in `src/import/url-rules.ts`.
 */
import { checkUrl } from '../import/url-rules.js';

export function checkServerUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  const checked = checkUrl(input);
  if (!checked.ok) return { ok: false, message: checked.reason };
  const u = new URL(checked.url);
  u.hash = '';
  return { ok: true, url: u.href };
}

/** Host-permission match pattern for a URL's origin (a pattern without a port matches any port). */
export function originPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}/*`;
}
