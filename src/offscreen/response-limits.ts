/**
 * Bounds on what an MCP server can make the offscreen document read (SPEC N1, N2, N8). The SDK
 * transport reads JSON bodies whole and event streams without limit; a hostile or broken server
 * could exhaust memory with one reply. Every response passes through {@link limitResponse}:
 * - a redirect is refused (it would carry our headers to another address);
 * - an oversized `Mcp-Session-Id` is refused;
 * - a JSON (or other) body is cut off at {@link MAX_BODY_BYTES};
 * - an event stream may run forever, but no single event may exceed {@link MAX_EVENT_BYTES}.
 * Going over a bound errors the body stream with a {@link ResponseLimitError} naming the origin.
 * A tool result is read through the cutting pass instead (result-cut.ts, H4): its long strings
 * are cut while read, so a 20 MB result resolves cut; the same bounds apply to what is handed on.
 */
import type { WireErrorCode } from '../protocol/error-codes.js';
import { cutBody, cutEvents, MAX_CUT_READ_BYTES, type CutStats } from './result-cut.js';

/** One JSON-RPC answer (a tool result with images can be large; 10 MB costs ~20 MB of heap). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** One server-sent event, i.e. one JSON-RPC message on a stream. */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;
const MAX_SESSION_ID_LENGTH = 256;

export class ResponseLimitError extends Error {
  readonly code: WireErrorCode = 'response-too-large';
  constructor(message: string) {
    super(message);
    this.name = 'ResponseLimitError';
  }
}

export class RedirectRefusedError extends Error {
  readonly code: WireErrorCode = 'protocol';
  constructor(message: string) {
    super(message);
    this.name = 'RedirectRefusedError';
  }
}

export interface Limits {
  maxBodyBytes?: number;
  maxEventBytes?: number;
  /** Told when reading goes over a bound, so the request waiting for this answer fails at once. */
  onLimit?: (error: ResponseLimitError) => void;
  /**
   * Reads an event stream's chunks in the same stage as the bound (event-check.ts), one stage per
   * answer instead of two; an error it returns stops the stream. Not used for other bodies.
   */
  eventReader?: (chunk: Uint8Array) => Error | undefined;
  /** A tool result: long strings are cut while read instead of failing the answer (H4). */
  cutLongStrings?: boolean;
  /** Told when a cut body or stream ends how much the cutting pass held (tests measure it). */
  onCutStats?: (stats: CutStats) => void;
}

/** "16 MiB" for whole mebibytes, else the bytes (small limits in tests). */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function tooLarge(origin: string, max: number, rest: string): ResponseLimitError {
  return new ResponseLimitError(`${origin}: the server's answer was larger than ${sizeText(max)}; ${rest}`);
}

/** Request options every MCP request uses: redirects are reported, never followed. */
export function withManualRedirect(init: RequestInit | undefined): RequestInit {
  return { ...init, redirect: 'manual' };
}

export function limitResponse(response: Response, origin: string, limits: Limits = {}): Response {
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    throw new RedirectRefusedError(
      `${origin} answered with a redirect. Redirects are not followed for MCP requests (they would carry your credentials elsewhere); enter the final URL of the MCP endpoint.`,
    );
  }
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId !== null && sessionId.length > MAX_SESSION_ID_LENGTH) {
    throw new ResponseLimitError(`${origin} sent a session id of ${sessionId.length} characters (at most ${MAX_SESSION_ID_LENGTH}).`);
  }
  if (!response.body) return response;
  const isStream = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
  const declared = Number(response.headers.get('content-length'));
  const maxBody = limits.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxRead = limits.cutLongStrings ? MAX_CUT_READ_BYTES : maxBody;
  if (!isStream && Number.isFinite(declared) && declared > maxRead) {
    void response.body.cancel().catch(() => undefined);
    throw tooLarge(origin, maxRead, `it announced ${declared} bytes and was not read.`);
  }
  const onLimit = limits.onLimit ?? (() => undefined);
  const counter = limits.cutLongStrings
    ? cutter(origin, isStream, limits, onLimit)
    : isStream
      ? eventCounter(origin, limits.maxEventBytes ?? MAX_EVENT_BYTES, onLimit, limits.eventReader)
      : bodyCounter(origin, maxBody, onLimit);
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: limits.cutLongStrings ? withoutLength(response.headers) : response.headers,
  });
}

/** A cut body is shorter than the server announced: its length is left out rather than wrong. */
function withoutLength(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete('content-length');
  return copy;
}

/** The cutting pass for a tool result: its bounds are those of a body or an event, counted after cutting. */
function cutter(origin: string, isStream: boolean, limits: Limits, onLimit: (e: ResponseLimitError) => void) {
  const options = {
    maxOut: isStream ? (limits.maxEventBytes ?? MAX_EVENT_BYTES) : (limits.maxBodyBytes ?? MAX_BODY_BYTES),
    maxRead: MAX_CUT_READ_BYTES,
    tooLarge: (max: number) => {
      const error = tooLarge(origin, max, isStream ? 'the stream was stopped.' : 'the rest was not read.');
      onLimit(error);
      return error;
    },
    ...(isStream && limits.eventReader ? { read: limits.eventReader } : {}),
    ...(limits.onCutStats ? { onStats: limits.onCutStats } : {}),
  };
  return isStream ? cutEvents(options) : cutBody(options);
}

function bodyCounter(origin: string, max: number, onLimit: (e: ResponseLimitError) => void): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > max) {
        const error = tooLarge(origin, max, 'the rest was not read.');
        onLimit(error);
        controller.error(error);
      } else controller.enqueue(chunk);
    },
  });
}

/** Counts bytes since the last event boundary (a blank line: LF LF, or CR LF CR LF); then `read`s the chunk. */
function eventCounter(
  origin: string,
  max: number,
  onLimit: (e: ResponseLimitError) => void,
  read?: (chunk: Uint8Array) => Error | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  let sinceBoundary = 0;
  let previous = -1;
  let beforePrevious = -1;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        sinceBoundary++;
        if (byte === 0x0a && (previous === 0x0a || (previous === 0x0d && beforePrevious === 0x0a))) sinceBoundary = 0;
        else if (sinceBoundary > max) {
          const error = tooLarge(origin, max, 'the stream was stopped.');
          onLimit(error);
          controller.error(error);
          return;
        }
        beforePrevious = previous;
        previous = byte;
      }
      const error = read?.(chunk);
      if (error) controller.error(error);
      else controller.enqueue(chunk);
    },
  });
}
