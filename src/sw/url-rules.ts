/**
 * Which MCP server URLs the product accepts: HTTPS, or plain HTTP only on an explicit loopback
 * host for local development (SPEC E3, N2). Shared by the panel form and the worker.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function checkServerUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return { ok: false, message: 'This is not a valid URL.' };
  }
  if (u.username || u.password) return { ok: false, message: 'The URL must not contain a user name or password.' };
  if (u.protocol === 'https:') return { ok: true, url: stripFragment(u) };
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return { ok: true, url: stripFragment(u) };
  if (u.protocol === 'http:') return { ok: false, message: 'Plain HTTP is allowed only for 127.0.0.1, localhost or [::1]. Use https://.' };
  return { ok: false, message: `Unsupported scheme "${u.protocol}". Use https://.` };
}

function stripFragment(u: URL): string {
  u.hash = '';
  return u.href;
}

/** Host-permission match pattern for a URL's origin (ports are matched by any-port patterns). */
export function originPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}/*`;
}
