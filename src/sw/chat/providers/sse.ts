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

/** The longest line (and event) a provider may send, in UTF-16 code units: past it the stream is refused (T3). */
export const MAX_SSE_LINE = 1024 * 1024;

function tooLong(): ProviderError {
  return new ProviderError('bad-response', say('reasonChatLineTooLong', { limit: '1 MiB' }));
}

/**
 * Cuts decoded text into lines ending in CRLF, LF or CR, holding back an unfinished line (and a
 * CR) for the next piece. Linear in its input (T3): each piece is scanned once, and an unfinished
 * line is kept as its pieces and joined only when it ends, never rescanned; past
 * {@link MAX_SSE_LINE} it throws instead of growing.
 */
export class LineSplitter {
  #pending: string[] = [];
  #pendingLength = 0;
  #sawCr = false;

  constructor(private readonly maxLine = MAX_SSE_LINE) {}

  /** The lines this piece completes. */
  push(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CRLF pair split across reads: the LF ends no second line.
      if (c === 10 && this.#sawCr && i === 0) {
        this.#sawCr = false;
        start = 1;
        continue;
      }
      lines.push(this.#take(text.slice(start, i)));
      this.#sawCr = c === 13;
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        i++;
        this.#sawCr = false;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.#sawCr = false;
      this.#pendingLength += text.length - start;
      if (this.#pendingLength > this.maxLine) throw tooLong();
      this.#pending.push(text.slice(start));
    }
    return lines;
  }

  /** The line that ends with `tail`: what was held back, joined once. */
  #take(tail: string): string {
    if (this.#pendingLength + tail.length > this.maxLine) throw tooLong();
    const line = this.#pending.length ? this.#pending.join('') + tail : tail;
    this.#pending = [];
    this.#pendingLength = 0;
    return line;
  }
}

/** Builds events from lines: `data:` lines are joined, `event:` names the event, a blank line dispatches it. */
class EventAssembler {
  #event = '';
  #data: string[] = [];
  #size = 0;

  /** The event this line completes, if it does. */
  line(line: string): SseEvent | undefined {
    if (line === '') {
      const done = this.#data.length ? { event: this.#event || 'message', data: this.#data.join('\n') } : undefined;
      this.#event = '';
      this.#data = [];
      this.#size = 0;
      return done;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      // Many short `data:` lines must not build an unbounded event either.
      this.#size += value.length + 1;
      if (this.#size > MAX_SSE_LINE) throw tooLong();
      this.#data.push(value);
    } else if (field === 'event') this.#event = value;
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
