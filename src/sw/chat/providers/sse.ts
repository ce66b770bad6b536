/**
 * Server-sent events as the WHATWG HTML standard defines the stream format: lines end in CRLF,
 * LF or CR; `data:` lines of one event are joined with LF; a blank line dispatches; lines that
 * start with `:` are comments; one space after the colon is dropped. Both providers stream this.
 */
import { say } from '../../../protocol/wording.js';
import { cancelledError, noteOf, ProviderError } from './types.js';

export interface SseEvent {
  event: string;
  data: string;
}

/** Cuts decoded text into lines ending in CRLF, LF or CR, holding back an unfinished line (and a CR) for the next piece. */
export class LineSplitter {
  #buffer = '';
  #sawCr = false;

  /** The lines this piece completes. */
  push(text: string): string[] {
    const lines: string[] = [];
    const buffer = this.#buffer + text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CRLF pair split across reads: the LF ends no second line.
      if (c === '\n' && this.#sawCr && i === start) {
        this.#sawCr = false;
        start = i + 1;
        continue;
      }
      this.#sawCr = c === '\r';
      lines.push(buffer.slice(start, i));
      if (c === '\r' && buffer[i + 1] === '\n') {
        i++;
        this.#sawCr = false;
      }
      start = i + 1;
    }
    this.#buffer = buffer.slice(start);
    return lines;
  }
}

/** Builds events from lines: `data:` lines are joined, `event:` names the event, a blank line dispatches it. */
class EventAssembler {
  #event = '';
  #data: string[] = [];

  /** The event this line completes, if it does. */
  line(line: string): SseEvent | undefined {
    if (line === '') {
      const done = this.#data.length ? { event: this.#event || 'message', data: this.#data.join('\n') } : undefined;
      this.#event = '';
      this.#data = [];
      return done;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    return undefined;
  }
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = new LineSplitter();
  const events = new EventAssembler();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read().catch((e: unknown) => {
        if (signal?.aborted) throw cancelledError();
        throw new ProviderError('network', say('reasonChatStreamBroke', { note: noteOf(e) }));
      });
      for (const line of lines.push(done ? decoder.decode() : decoder.decode(value, { stream: true }))) {
        const event = events.line(line);
        if (event) yield event;
      }
      // The stream ended without a blank line: the standard discards the unfinished event.
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Abandoned early (a break or a throw): the body is cancelled so the connection closes.
    void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
