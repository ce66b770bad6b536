/**
 * Reading the first metadata document that exists among well-known candidates (RFC 9728 for the
 * protected resource, RFC 8414 / OIDC for the authorization server): a 4xx means "not published
 * here, try the next one"; any other failure is an error of its own (E4, E5).
 */
import { guardedFetch, readJsonCapped } from './bounded-fetch.js';
import type { FetchLike } from './ports.js';

/** The JSON of the first candidate not answering 4xx, or `undefined` when every one did. */
export async function firstWellKnownJson(
  fetchFn: FetchLike,
  urls: readonly string[],
  what: string,
  unreadable: (url: string, status: number) => Error,
): Promise<{ json: unknown; url: string } | undefined> {
  for (const url of urls) {
    const res = await guardedFetch(fetchFn, url, { headers: { accept: 'application/json' } }, what);
    if (!res.ok) await res.body?.cancel().catch(() => undefined);
    if (res.status >= 400 && res.status < 500) continue;
    if (!res.ok) throw unreadable(url, res.status);
    return { json: await readJsonCapped(res, url, what), url };
  }
  return undefined;
}
