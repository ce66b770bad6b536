/**
 * Maps what the SDK and `fetch` throw to attributed wire errors (SPEC C1, N10), so the panel can
 * say what happened in plain words instead of "Streamable HTTP error: …".
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { WireError } from '../protocol/result.js';
import { QuestionExpiredError } from './call-timers.js';
import { MalformedAnswerError } from './event-check.js';
import { localFailureOf } from './jsonrpc-guard.js';
import { RedirectRefusedError, ResponseLimitError } from './response-limits.js';

/** The SDK's McpError puts "MCP error <code>: " before the server's message; say it once. */
function withoutSdkPrefix(message: string): string {
  let text = message;
  for (let i = 0; i < 5 && /^MCP error -?\d+: /.test(text); i++) text = text.replace(/^MCP error -?\d+: /, '');
  return text;
}

export function describeSdkError(e: unknown, url: string): WireError {
  const origin = safeOrigin(url);
  if (e instanceof StreamableHTTPError) {
    const status = e.code ?? -1;
    if (status === 401 || status === 403) {
      return {
        code: 'auth',
        message: `${origin} refused the request (HTTP ${status}): the token was rejected or is missing — update it.`,
        httpStatus: status,
      };
    }
    if (status === -1) {
      const type = /Unexpected content type: (.*)$/.exec(e.message)?.[1] ?? 'unknown';
      return {
        code: 'protocol',
        message: `${origin} answered with content type "${type.slice(0, 100)}", not MCP (JSON or an event stream). Is this the MCP endpoint, or a login page or portal?`,
        action: 'edit',
      };
    }
    if (status === 404) {
      return { code: 'http-status', message: `${origin} answered 404 Not Found: check the server URL path.`, httpStatus: 404 };
    }
    return { code: 'http-status', message: `${origin} answered HTTP ${status}: ${e.message.slice(0, 300)}`, httpStatus: status };
  }
  if (e instanceof QuestionExpiredError) {
    const limit = e.limitMs >= 60_000 ? `${Math.round(e.limitMs / 60_000)} min` : `${Math.round(e.limitMs / 1000)} s`;
    return {
      code: 'timeout',
      message: `The question from ${origin} expired: it was not answered within ${limit}, so the tool call was stopped. Run it again to answer anew.`,
      action: 'retry',
    };
  }
  // Our own limits already name the origin and say what happened.
  if (e instanceof ResponseLimitError || e instanceof RedirectRefusedError) return { code: e.code, message: e.message };
  if (e instanceof MalformedAnswerError) return { code: 'protocol', message: e.message };
  if (e instanceof McpError) {
    const local = localFailureOf(e.data);
    if (local) return { ...local };
    // McpError.code is a plain number (servers send any code); ErrorCode's members are numbers too.
    if (e.code === Number(ErrorCode.RequestTimeout)) return { code: 'timeout', message: `${origin} did not answer in time.` };
    if (e.code === Number(ErrorCode.ConnectionClosed)) return { code: 'network', message: `The connection to ${origin} was closed.` };
    return { code: 'protocol', message: `${origin} returned an MCP error ${e.code}: ${withoutSdkPrefix(e.message).slice(0, 500)}` };
  }
  if (e instanceof TypeError && /fetch/i.test(e.message)) {
    return { code: 'network', message: `Could not reach ${origin}: the server is down, the address is wrong, or the network blocked it.` };
  }
  if (e instanceof DOMException && e.name === 'AbortError') {
    return { code: 'cancelled', message: 'The request was cancelled.' };
  }
  if (e instanceof Error && e.name === 'ZodError') {
    return { code: 'protocol', message: `${origin} sent a malformed answer (not a valid MCP message).` };
  }
  if (e instanceof SyntaxError) {
    return { code: 'protocol', message: `${origin} sent a malformed answer (not valid JSON).` };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'protocol', message: `${origin}: ${message.slice(0, 500)}` };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}
