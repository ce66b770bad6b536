/**
 * The requests of the 2026-07-28 wire that both the worker (its probes) and the offscreen document
 * (the era probe) build by hand: every request names the revision, the client and its
 * capabilities in `_meta`, and its method in the `Mcp-Method` header (SPEC R1, R2).
 */
import { EXTENSION_INFO } from './extension-info.js';

export const MODERN_VERSION = '2026-07-28';

/** Whether a revision is of the stateless era (2026-07-28 and later): dated revisions compare as text. */
export function isModernRevision(version: unknown): boolean {
  return typeof version === 'string' && version >= MODERN_VERSION;
}

/** A 2026-07-28 request body with the per-request `_meta`. */
export function modernRequest(
  method: string,
  id: number | string,
  capabilities: Record<string, unknown> = {},
  params: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientInfo': EXTENSION_INFO,
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  });
}

/** The headers every 2026-07-28 POST carries. */
export function modernHeaders(method: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
  };
}
