/**
 * The directory's one network request (SPEC S1, N1, N2): a page of `GET <registry>/v0.1/servers`,
 * made by the worker like its other bounded fetches — without cookies (outgoingFetch), only to an
 * origin Chrome granted on the user's click, no redirect followed, a timeout over the whole
 * answer, a byte cap, and the body validated by registry-parse.ts. Each failure is an error in
 * words (a wording code) naming the registry's origin.
 */
import type { FetchLike } from '../auth/ports.js';
import { readBodyCapped } from '../auth/bounded-fetch.js';
import { DIRECTORY_LIMITS, type DirectoryPage } from '../../protocol/panel-directory.js';
import type { WireErrorCode } from '../../protocol/error-codes.js';
import { say, type Said } from '../../protocol/wording.js';
import { originPattern } from '../../common/url-rules.js';
import { parseRegistryPage } from './registry-parse.js';

/** A page of 30 entries is a few tens of KiB; 4 MiB still reads a flood of 10,000 small ones (cut to one page) and bounds the rest. */
export const MAX_REGISTRY_BODY = 4 * 1024 * 1024;
export const REGISTRY_TIMEOUT_MS = 15_000;
/** Entries asked for per page (the registry's default; its maximum is 100). */
export const REGISTRY_PAGE_SIZE = 30;

export interface RegistryPorts {
  fetch: FetchLike;
  /** `chrome.permissions.contains({ origins })` in the extension. */
  contains(origins: string[]): Promise<boolean>;
  timeoutMs?: number;
}

/** A failure the panel shows as it is: the code travels with its wording (result.ts `toWireError`). */
export class RegistryError extends Error {
  readonly wording: Said['wording'];
  constructor(
    readonly code: WireErrorCode,
    said: Said,
  ) {
    super(said.message);
    this.name = 'RegistryError';
    this.wording = said.wording;
  }
}

/** The search URL: the base's path kept (a company registry may live under one), `/v0.1/servers` after it. */
export function searchUrl(registryUrl: string, search: string, cursor?: string): string {
  const url = new URL(`${registryUrl.replace(/\/+$/, '')}/v0.1/servers`);
  url.searchParams.set('limit', String(REGISTRY_PAGE_SIZE));
  // Without it the official registry lists every published version of a server.
  url.searchParams.set('version', 'latest');
  if (search.trim()) url.searchParams.set('search', search.trim().slice(0, DIRECTORY_LIMITS.search));
  if (cursor) url.searchParams.set('cursor', cursor);
  return url.href;
}

async function send(ports: RegistryPorts, url: string, origin: string, signal: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await ports.fetch(url, { method: 'GET', headers: { Accept: 'application/json' }, redirect: 'error', signal });
  } catch {
    if (signal.aborted) throw new RegistryError('timeout', say('reasonRegistryTimeout', { origin }));
    // With redirect:'error' a redirect surfaces here like any network failure.
    throw new RegistryError('network', say('reasonRegistryUnreachable', { origin }));
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    await res.body?.cancel().catch(() => undefined);
    throw new RegistryError('redirect-refused', say('reasonRegistryUnreachable', { origin }));
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new RegistryError('http-status', say('reasonRegistryHttpStatus', { origin, status: res.status }));
  }
  return res;
}

async function readJson(res: Response, url: string, origin: string, signal: AbortSignal): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  const mime = type.split(';')[0]!.trim().toLowerCase();
  if (mime !== 'application/json' && !(mime.startsWith('application/') && mime.endsWith('+json'))) {
    await res.body?.cancel().catch(() => undefined);
    throw new RegistryError('bad-response', say('reasonRegistryNotJson', { origin, type: type.slice(0, 80) || 'none' }));
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBodyCapped(res, url, 'registry answer', MAX_REGISTRY_BODY);
  } catch (e) {
    if (signal.aborted) throw new RegistryError('timeout', say('reasonRegistryTimeout', { origin }));
    if ((e as { code?: unknown }).code === 'response-too-large')
      throw new RegistryError('response-too-large', say('reasonRegistryTooLarge', { origin, max: MAX_REGISTRY_BODY / 1024 / 1024 }));
    throw new RegistryError('network', say('reasonRegistryUnreachable', { origin }));
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    throw new RegistryError('bad-response', say('reasonRegistryMalformed', { origin }));
  }
}

/** One page of the registry's search, validated; throws a {@link RegistryError} in words. */
export async function searchRegistry(
  ports: RegistryPorts,
  registryUrl: string,
  params: { search: string; cursor?: string | undefined },
): Promise<DirectoryPage> {
  const origin = new URL(registryUrl).origin;
  if (!(await ports.contains([originPattern(registryUrl)])))
    throw new RegistryError('permission', say('reasonRegistryNoPermission', { origin }));
  const url = searchUrl(registryUrl, params.search, params.cursor);
  const signal = AbortSignal.timeout(ports.timeoutMs ?? REGISTRY_TIMEOUT_MS);
  const body = await readJson(await send(ports, url, origin, signal), url, origin, signal);
  const page = parseRegistryPage(body, registryUrl);
  if (!page) throw new RegistryError('bad-response', say('reasonRegistryMalformed', { origin }));
  return page;
}
