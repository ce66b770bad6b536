/**
 * The only way the authorization core talks to the network. It enforces, for every request:
 * the endpoint policy before sending (N2), no redirects (N2, E6), and a byte cap on the body
 * (N1), and turns each failure into an error that names the URL.
 */
import { AuthNetworkError, BadResponseError, RedirectRefusedError, ResponseTooLargeError } from './errors.js';
import type { FetchLike } from './ports.js';
import { assertAllowedEndpoint } from './url-policy.js';

/** Metadata, DCR and token responses are small; 256 KiB is generous. */
const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/**
 * `fetch` with the endpoint policy checked first and `redirect: 'error'`. A 3xx that still
 * reaches us (a fetch that ignores the option, or `opaqueredirect`) is refused too.
 */
export async function guardedFetch(fetchFn: FetchLike, url: string, init: RequestInit, what: string): Promise<Response> {
  assertAllowedEndpoint(url, what);
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, redirect: 'error' });
  } catch (e) {
    // With redirect:'error', a redirect surfaces as a TypeError like any network failure.
    throw new AuthNetworkError(
      `Could not fetch the ${what} at ${url} (network error, or the server tried to redirect, which is not followed): ${errorText(e)}`,
      url,
      { cause: e },
    );
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    await res.body?.cancel().catch(() => undefined);
    throw new RedirectRefusedError(
      `The ${what} at ${url} answered with a redirect (HTTP ${res.status}); redirects are not followed for authorization requests.`,
      url,
    );
  }
  return res;
}

/** Read the body, refusing to buffer more than `maxBytes` (checked as the bytes arrive). */
export async function readBodyCapped(res: Response, url: string, what: string, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ResponseTooLargeError(`The ${what} at ${url} sent more than ${maxBytes} bytes; it was not read.`, url);
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** True for `application/json` and `application/*+json`. */
function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

/** Read a capped JSON body; an HTML login page or garbage becomes a named error (N10). */
export async function readJsonCapped(res: Response, url: string, what: string, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  const contentType = res.headers.get('content-type');
  if (!isJsonContentType(contentType)) {
    await res.body?.cancel().catch(() => undefined);
    throw new BadResponseError(`The ${what} at ${url} answered with content type "${contentType ?? 'none'}" instead of JSON.`, url);
  }
  const bytes = await readBodyCapped(res, url, what, maxBytes);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw new BadResponseError(`The ${what} at ${url} sent a body that is not valid JSON.`, url);
  }
}

/** Message of any thrown value, shortened so hostile text cannot flood the UI. */
export function errorText(e: unknown, max = 300): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
