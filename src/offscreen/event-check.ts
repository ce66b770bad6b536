/**
 * Fails a request at once when its event stream carries a malformed message (SPEC N6). The SDK
 * skips an event it cannot parse and keeps waiting, so the request would only end at its
 * timeout, reported as "did not answer in time". This check reads the same events alongside the
 * SDK: the first `message` event that is not a JSON-RPC 2.0 message reports why and stops the
 * stream. It runs inside the size guard's stage (response-limits.ts), not as a stage of its own.
 *
 * An answer whose id no request can have (`null`, as JSON-RPC 2.0 §5 allows for an error whose
 * request id could not be read, or an object) is not malformed: it is unmatched. It is reported
 * through `onUnmatched` (logged as dropped, N6) and the stream goes on, so the real answer that
 * follows is delivered; the SDK skips it as it skips any message its schema refuses.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export class MalformedAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAnswerError';
  }
}

/**
 * Why `data` is not one JSON-RPC message, or undefined when it is (an unmatched answer included).
 * @internal The unit test's view of the stream check.
 */
export function malformation(data: string): string | undefined {
  const v = verdict(data);
  return 'malformed' in v ? v.malformed : undefined;
}

type Verdict = { ok: true } | { malformed: string } | { unmatchedId: unknown };

function verdict(data: string): Verdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { malformed: 'an event that is not JSON' };
  }
  if (plainResult(parsed) || JSONRPCMessageSchema.safeParse(parsed).success) return { ok: true };
  if (isUnmatchableAnswer(parsed)) return { unmatchedId: parsed.id };
  return { malformed: 'a message that is not JSON-RPC 2.0' };
}

/** A JSON-RPC 2.0 answer (result or error, no method) whose id no request of ours can carry. */
export function isUnmatchableAnswer(m: unknown): m is { id: unknown } {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const r = m as Record<string, unknown>;
  return (
    r.jsonrpc === '2.0' &&
    !('method' in r) &&
    ('result' in r || 'error' in r) &&
    'id' in r &&
    typeof r.id !== 'string' &&
    typeof r.id !== 'number'
  );
}

/**
 * The usual answer, `{"jsonrpc":"2.0","id":…,"result":{…}}` with no `_meta`, which the SDK's
 * JSON-RPC schema accepts as it is: told without running that schema, which the SDK runs on the
 * same message anyway. Anything else (an error, a request, `_meta`, an extra key) goes to the schema.
 */
function plainResult(m: unknown): boolean {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const keys = Object.keys(m);
  if (keys.length !== 3) return false;
  const { jsonrpc, id, result } = m as Record<string, unknown>;
  return (
    jsonrpc === '2.0' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    !Object.hasOwn(result, '_meta')
  );
}

/** Why one `message` event is malformed, or undefined; an unmatched answer is told to `onUnmatched`. */
function eventVerdict(message: string, onUnmatched?: (id: unknown) => void): string | undefined {
  const v = verdict(message);
  if ('unmatchedId' in v) onUnmatched?.(v.unmatchedId);
  return 'malformed' in v ? v.malformed : undefined;
}

/**
 * Reads an event stream's bytes, chunk by chunk, as they pass (response-limits.ts runs it in its
 * own stage, so the stream has one guard stage, not two). Returns the error that must stop the
 * stream at the first bad message, after telling `onMalformed`; undefined otherwise. An
 * unmatched answer is told to `onUnmatched` and does not stop the stream.
 */
export type ChunkReader = (chunk: Uint8Array) => Error | undefined;

export function eventMessageReader(
  origin: string,
  onMalformed: (message: string) => void,
  onUnmatched?: (id: unknown) => void,
): ChunkReader {
  const decoder = new TextDecoder();
  /** Pieces of the line not ended yet: joined once at its end, so a long line costs linear time. */
  let partial: string[] = [];
  /** The previous chunk ended with CR: a LF starting this one belongs to it. */
  let afterCr = false;
  let data: string[] = [];
  let event = '';
  /** Handles one line; at a blank line, the verdict on the event it ends. */
  const endLine = (line: string): string | undefined => {
    if (line === '') {
      const message = data.join('\n');
      const type = event;
      data = [];
      event = '';
      return message === '' || (type !== '' && type !== 'message') ? undefined : eventVerdict(message, onUnmatched);
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };
  return (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text === '') return undefined;
    const eol = /\r\n|\r|\n/g;
    let start = afterCr && text.startsWith('\n') ? 1 : 0;
    afterCr = false;
    eol.lastIndex = start;
    for (let m = eol.exec(text); m; m = eol.exec(text)) {
      partial.push(text.slice(start, m.index));
      const line = partial.join('');
      partial = [];
      start = eol.lastIndex;
      afterCr = m[0] === '\r' && start === text.length;
      const why = endLine(line);
      if (why !== undefined) {
        const message = `${origin} sent a malformed answer (${why}).`;
        onMalformed(message);
        return new MalformedAnswerError(message);
      }
    }
    if (start < text.length) partial.push(text.slice(start));
    return undefined;
  };
}
