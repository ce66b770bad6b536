/**
 * The one `initialize` probe: the request a client sends first, without credentials, sent only
 * to see how the server answers it. The guided add reads the answer for the authorization the
 * server calls for (server-probe.ts); Authorize reads the 401's challenge (challenge-probe.ts,
 * SPEC E3). Both are bounded by {@link PROBE_TIMEOUT_MS}, so a server that never answers fails the
 * probe instead of leaving the add or the authorization waiting.
 */
import { guardedFetch } from './bounded-fetch.js';
import type { FetchLike } from './ports.js';
import { EXTENSION_INFO } from '../../protocol/extension-info.js';
import { modernHeaders, modernRequest } from '../../protocol/modern-wire.js';

/** The revision the probe asks for (the SDK's own sessions negotiate theirs in the offscreen document). */
const PROBE_PROTOCOL_VERSION = '2025-11-25';

/** How long the server has to answer the probe (headers and body). */
export const PROBE_TIMEOUT_MS = 10_000;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: PROBE_PROTOCOL_VERSION, capabilities: {}, clientInfo: EXTENSION_INFO },
});

/** Sends the probe; rejects on a network error, a redirect, or no answer within `timeoutMs`. */
export function postInitialize(fetchFn: FetchLike, mcpUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Response> {
  return guardedFetch(
    fetchFn,
    mcpUrl,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
      signal: AbortSignal.timeout(timeoutMs),
    },
    'MCP endpoint',
  );
}

/**
 * The same question to a server of the 2026-07-28 era, which refuses `initialize` (HTTP 400): its
 * `server/discover`, and after that its `tools/list`, without credentials (SPEC R1, E3, E7). Rejects
 * like postInitialize.
 */
export function postModern(fetchFn: FetchLike, mcpUrl: string, method: 'server/discover' | 'tools/list', timeoutMs = PROBE_TIMEOUT_MS) {
  const init = { method: 'POST', headers: modernHeaders(method), body: modernRequest(method, 0), signal: AbortSignal.timeout(timeoutMs) };
  return guardedFetch(fetchFn, mcpUrl, init, 'MCP endpoint');
}

/**
 * After an `initialize` the server took without credentials, the first request a client then
 * sends (`notifications/initialized`, `tools/list`), still without them: a server that lets
 * anyone initialize but guards its tools answers this one with the 401 whose challenge names the
 * scope it wants (SPEC E7; 2026-07-28 authorization, scope selection). Rejects like postInitialize.
 */
export async function postFirstListing(
  fetchFn: FetchLike,
  mcpUrl: string,
  sessionId: string | null,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROBE_PROTOCOL_VERSION,
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
  };
  const signal = AbortSignal.timeout(timeoutMs);
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const sent = await guardedFetch(fetchFn, mcpUrl, { method: 'POST', headers, body: initialized, signal }, 'MCP endpoint');
  await sent.body?.cancel().catch(() => undefined);
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return guardedFetch(fetchFn, mcpUrl, { method: 'POST', headers, body: list, signal }, 'MCP endpoint');
}

/** Ends a session a probe opened (best effort: a server may not support DELETE). */
export async function endSession(fetchFn: FetchLike, mcpUrl: string, sessionId: string): Promise<void> {
  await guardedFetch(fetchFn, mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } }, 'MCP endpoint')
    .then((r) => r.body?.cancel())
    .catch(() => undefined);
}
