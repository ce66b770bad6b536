/**
 * Maps what the SDK and `fetch` throw to attributed wire errors (SPEC C1, N10), so the panel can
 * say what happened in plain words instead of "Streamable HTTP error: …".
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { WireError } from '../protocol/result.js';
import { say } from '../protocol/wording.js';
import { QuestionExpiredError } from './call-timers.js';
import { MalformedAnswerError } from './event-check.js';
import { describeHttpError } from './http-error.js';
import { describeMcpError } from './mcp-error.js';
import { RedirectRefusedError, ResponseLimitError } from './response-limits.js';

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
  if (e instanceof TypeError && /fetch/i.test(e.message)) {
    return { code: 'network', ...say('reasonUnreachable', { origin }) };
  }
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
