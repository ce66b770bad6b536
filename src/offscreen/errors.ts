/**
 * Maps what the SDK and `fetch` throw to attributed wire errors (SPEC C1, N10), so the panel can
 * say what happened in plain words instead of "Streamable HTTP error: …".
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeModernError } from './modern-errors.js';
import { RemoteError, type WireError } from '../protocol/result.js';
import { say, type Said } from '../protocol/wording.js';
import { QuestionExpiredError } from './call-timers.js';
import { MalformedAnswerError } from './event-check.js';
import { describeHttpError } from './http-error.js';
import { describeMcpError } from './mcp-error.js';
import { RedirectRefusedError, ResponseLimitError } from './response-limits.js';

/**
 * The offscreen document's own refusals, as the typed error whose code and wording the
 * dispatcher carries across to the worker and the panel.
 */
export function saidError(code: 'session-lost' | 'cancelled' | 'stale-connection', said: Said): RemoteError {
  return new RemoteError({ code, ...said });
}

/**
 * What the SDK threw, described for the user (see {@link describeSdkError}). The challenge of a
 * refused request goes along to the worker's AuthManager (SPEC E3, E7).
 */
export function sdkFailure(e: unknown, url: string, challenge?: string): RemoteError {
  const w = describeSdkError(e, url);
  if ((w.httpStatus === 401 || w.httpStatus === 403) && challenge) w.wwwAuthenticate = challenge;
  return new RemoteError(w);
}

export function describeSdkError(e: unknown, url: string): WireError {
  const origin = safeOrigin(url);
  if (e instanceof StreamableHTTPError) return describeHttpError(e, origin);
  if (e instanceof QuestionExpiredError) {
    return {
      code: 'timeout',
      ...(e.limitMs >= 60_000
        ? say('reasonQuestionExpiredMin', { origin, minutes: Math.round(e.limitMs / 60_000) })
        : say('reasonQuestionExpiredSec', { origin, seconds: Math.round(e.limitMs / 1000) })),
      action: 'retry',
    };
  }
  // Our own limits already name the origin and say what happened.
  if (e instanceof ResponseLimitError || e instanceof RedirectRefusedError) return { code: e.code, message: e.message };
  if (e instanceof MalformedAnswerError) return { code: 'protocol', message: e.message };
  if (e instanceof McpError) return describeMcpError(e, origin);
  const modern = describeModernError(e, origin);
  if (modern) return modern;
  if (e instanceof TypeError && /fetch/i.test(e.message)) {
    return { code: 'network', ...say('reasonUnreachable', { origin }) };
  }
  if (e instanceof DOMException && e.name === 'TimeoutError') return { code: 'timeout', ...say('reasonNoAnswerInTime', { origin }) };
  if (e instanceof DOMException && e.name === 'AbortError') {
    return { code: 'cancelled', ...say('reasonRequestCancelled') };
  }
  if (e instanceof Error && e.name === 'ZodError') {
    return { code: 'protocol', ...say('reasonMalformedMcp', { origin }) };
  }
  if (e instanceof SyntaxError) {
    return { code: 'protocol', ...say('reasonMalformedJson', { origin }) };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'protocol', ...say('reasonServerSaid', { origin, detail: message.slice(0, 500) }) };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the server';
  }
}
