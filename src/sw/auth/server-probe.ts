/**
 * The guided add's reading of the `initialize` probe (initialize-probe.ts), sent without credentials:
 * it tells which authorization the server calls for — a 200 needs none (and names the server in
 * `serverInfo`), a 401 whose protected resource metadata names an authorization server calls for
 * OAuth (SPEC E3) and proposes a name from that metadata, any other 401 or a 403 for a bearer token. A session the probe opened is ended
 * at once, so nothing stays open on the server.
 */
import { RemoteError } from '../../protocol/result.js';
import { errorText, readBodyCapped } from './bounded-fetch.js';
import { endSession, postInitialize, postModern } from './initialize-probe.js';
import { fetchProtectedResourceMetadata } from './discovery.js';
import type { FetchLike } from './ports.js';
import { parseBearerChallenge } from './www-authenticate.js';
import { sseDataOf } from '../../common/sse-text.js';

export interface ProbeResult {
  authKind: 'none' | 'bearer' | 'oauth';
  name?: string;
}

const MAX_PROBE_BODY = 256 * 1024;
const MAX_NAME = 120;

/**
 * `serverInfo.title ?? serverInfo.name` of an initialize result — or of a 2026-07-28 discover
 * result, which names it in `_meta` — in JSON or in an SSE `data:` line.
 */
export function serverNameOf(body: string): string | undefined {
  const candidates = [body, ...sseDataOf(body)];
  for (const text of candidates) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      continue;
    }
    type Info = { title?: unknown; name?: unknown };
    const result = (json as { result?: { serverInfo?: Info; _meta?: Record<string, Info | undefined> } } | null)?.result;
    const info = result?.serverInfo ?? result?._meta?.['io.modelcontextprotocol/serverInfo'];
    const name = [info?.title, info?.name].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (name) return name.trim().replace(/\s+/g, ' ').slice(0, MAX_NAME);
  }
  return undefined;
}

/**
 * Whether the 401 leads to an authorization server, and the name the metadata proposes: the
 * protected resource's `resource_name`, else the authorization server's host (SPEC K1) — a name
 * the user recognizes rather than the MCP URL's host (often a bare IP or "localhost").
 */
async function oauthOf(fetchFn: FetchLike, url: string, header: string | null): Promise<{ oauth: boolean; name?: string }> {
  const challenge = parseBearerChallenge(header?.slice(0, 16 * 1024));
  try {
    const found = await fetchProtectedResourceMetadata(fetchFn, url, challenge?.resourceMetadata);
    if (!found?.prm.authorization_servers?.length) return { oauth: false };
    const name = metadataName(found.prm);
    return { oauth: true, ...(name ? { name } : {}) };
  } catch {
    // Metadata that exists but cannot be read still says the server uses OAuth; Authorize explains the fault.
    return { oauth: !!challenge?.resourceMetadata };
  }
}

/** `resource_name` (server-written: one line, bounded), else the first authorization server's host. */
function metadataName(prm: { resource_name?: unknown; authorization_servers?: string[] }): string | undefined {
  const named = typeof prm.resource_name === 'string' ? prm.resource_name.replace(/[\p{Cc}\s]+/gu, ' ').trim() : '';
  if (named) return named.slice(0, MAX_NAME);
  try {
    return new URL(prm.authorization_servers?.[0] ?? '').host || undefined;
  } catch {
    return undefined;
  }
}

export async function probeServer(fetchFn: FetchLike, url: string): Promise<ProbeResult> {
  const origin = new URL(url).origin;
  let res: Response;
  try {
    res = await postInitialize(fetchFn, url);
    // A server of the 2026-07-28 era only refuses `initialize`: ask it the modern way (SPEC R1).
    if (res.status === 400) {
      await res.body?.cancel().catch(() => undefined);
      res = await postModern(fetchFn, url, 'server/discover');
    }
  } catch (e) {
    throw new RemoteError({ code: 'network', message: `Could not reach ${origin}: ${errorText(e)}` });
  }
  const sessionId = res.headers.get('mcp-session-id');
  if (res.ok) {
    const body = await readBodyCapped(res, url, 'MCP endpoint', MAX_PROBE_BODY).catch(() => new Uint8Array(0));
    if (sessionId) await endSession(fetchFn, url, sessionId);
    const name = serverNameOf(new TextDecoder().decode(body));
    return { authKind: 'none', ...(name ? { name } : {}) };
  }
  await res.body?.cancel().catch(() => undefined);
  if (res.status === 401) {
    const found = await oauthOf(fetchFn, url, res.headers.get('www-authenticate'));
    return found.oauth ? { authKind: 'oauth', ...(found.name ? { name: found.name } : {}) } : { authKind: 'bearer' };
  }
  if (res.status === 403) return { authKind: 'bearer' };
  throw new RemoteError({
    code: 'http-status',
    message: `${origin} answered HTTP ${res.status} to an MCP initialize: check that the URL is the server's MCP endpoint.`,
    httpStatus: res.status,
  });
}
