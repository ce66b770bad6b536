/**
 * What an HTTP answer the SDK's transport refused means to the user (SPEC C1, N10): a refused
 * token, a page that is not an MCP endpoint, a missing path or another status, each naming the
 * server's origin.
 */
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';

export function describeHttpError(e: StreamableHTTPError, origin: string): WireError {
  // The SDK gives no status (-1) when the answer was not JSON or an event stream.
  const status = e.code ?? -1;
  if (status === 401 || status === 403) {
    return { code: 'auth', ...say('reasonTokenRefused', { origin, status }), httpStatus: status };
  }
  if (status === -1) {
    const type = /Unexpected content type: (.*)$/.exec(e.message)?.[1] ?? 'unknown';
    return { code: 'protocol', ...say('reasonNotMcpContentType', { origin, type: type.slice(0, 100) }), action: 'edit' };
  }
  if (status === 404) {
    return { code: 'http-status', ...say('reasonNotFound', { origin }), httpStatus: 404 };
  }
  return { code: 'http-status', ...say('reasonHttpStatus', { origin, status, detail: e.message.slice(0, 300) }), httpStatus: status };
}
