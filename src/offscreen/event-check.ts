/**
 * Fails a request at once when its event stream carries a malformed message (SPEC N6). The SDK
 * skips an event it cannot parse and keeps waiting, so the request would only end at its
 * timeout, reported as "did not answer in time". This check reads the same events alongside the
 * SDK: the first `message` event that is not a JSON-RPC 2.0 message reports why and stops the
 * stream.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export class MalformedAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAnswerError';
  }
}

/** Why `data` is not one JSON-RPC message, or undefined when it is. */
export function malformation(data: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return 'an event that is not JSON';
  }
  return JSONRPCMessageSchema.safeParse(parsed).success ? undefined : 'a message that is not JSON-RPC 2.0';
}

/** Passes an event stream through unchanged, calling `onMalformed` and erroring at the first bad message. */
export function checkEventMessages(response: Response, origin: string, onMalformed: (message: string) => void): Response {
  if (!response.body) return response;
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
      return message !== '' && (type === '' || type === 'message') ? malformation(message) : undefined;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };
  const check = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      if (text === '') return void controller.enqueue(chunk);
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
          controller.error(new MalformedAnswerError(message));
          return;
        }
      }
      if (start < text.length) partial.push(text.slice(start));
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(check), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
