/**
 * Server-sent events as the WHATWG HTML standard defines the stream format: lines end in CRLF,
 * LF or CR; `data:` lines of one event are joined with LF; a blank line dispatches; lines that
 * start with `:` are comments; one space after the colon is dropped. Both providers stream this.
 */
import { say } from '../../../protocol/wording.js';
import { noteOf, ProviderError } from './types.js';

export interface SseEvent {
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let sawCr = false;
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read().catch((e: unknown) => {
        if (signal?.aborted) throw new ProviderError('cancelled', 'Stopped.');
        throw new ProviderError('network', say('reasonChatStreamBroke', { note: noteOf(e) }));
      });
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        // A CRLF pair split across reads: the LF ends no second line.
        if (c === '\n' && sawCr && i === start) {
          sawCr = false;
          start = i + 1;
          continue;
        }
        sawCr = c === '\r';
        const line = buffer.slice(start, i);
        if (c === '\r' && buffer[i + 1] === '\n') {
          i++;
          sawCr = false;
        }
        start = i + 1;
        if (line === '') {
          if (data.length) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') data.push(val);
        else if (field === 'event') event = val;
      }
      buffer = buffer.slice(start);
      if (done) {
        // The stream ended without a blank line: the standard discards the unfinished event.
        return;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Abandoned early (a break or a throw): the body is cancelled so the connection closes.
    void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
