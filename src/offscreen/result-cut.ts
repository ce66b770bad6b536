/**
 * The read of a tool result (SPEC H4, N8): a JSON body, or each event of a stream, passes
 * through a {@link StringCutter}, so a huge result arrives cut, as a small valid JSON-RPC message,
 * and the call resolves. Two bounds stay hard: what is read (one body or one event, at most
 * {@link MAX_CUT_READ_BYTES}) and what is handed on after cutting (the limits of
 * response-limits.ts); past either, the stream errors as before.
 */
import { RESULT_CUT_BOUNDS, StringCutter } from './string-cutter.js';

/** Raw bytes of one cut body or event: reading costs time, not memory, but not without end. */
export const MAX_CUT_READ_BYTES = 64 * 1024 * 1024;

export interface CutStats {
  maxHeldBytes: number;
  cuts: number;
}

export interface CutOptions {
  /** Bytes handed on (after cutting) per body or event. */
  maxOut: number;
  /** Raw bytes read per body or event. */
  maxRead: number;
  /** The error to end the stream with when a bound is passed (`max` names the bound). */
  tooLarge: (max: number) => Error;
  /** Reads the chunks handed on (event-check.ts); an error it returns stops the stream. */
  read?: (chunk: Uint8Array) => Error | undefined;
  onStats?: (stats: CutStats) => void;
}

/** Counts one message's bytes read and handed on; a count over its bound is the error. */
class MessageBudget {
  read = 0;
  out = 0;
  constructor(private readonly options: CutOptions) {}
  over(): Error | undefined {
    if (this.read > this.options.maxRead) return this.options.tooLarge(this.options.maxRead);
    if (this.out > this.options.maxOut) return this.options.tooLarge(this.options.maxOut);
    return undefined;
  }
}

/** Hands on the pieces of one input chunk as one output chunk, then lets `read` see it. */
function flushPieces(
  pieces: Uint8Array[],
  controller: TransformStreamDefaultController<Uint8Array>,
  read?: CutOptions['read'],
): Error | undefined {
  if (pieces.length === 0) return undefined;
  const total = pieces.reduce((n, p) => n + p.length, 0);
  const chunk = new Uint8Array(total);
  let at = 0;
  for (const p of pieces) {
    chunk.set(p, at);
    at += p.length;
  }
  pieces.length = 0;
  const error = read?.(chunk);
  if (!error) controller.enqueue(chunk);
  return error;
}

/** A JSON body, cut while read. */
export function cutBody(options: CutOptions): TransformStream<Uint8Array, Uint8Array> {
  const cutter = new StringCutter(RESULT_CUT_BOUNDS);
  const budget = new MessageBudget(options);
  const pieces: Uint8Array[] = [];
  const out = (p: Uint8Array) => {
    budget.out += p.length;
    pieces.push(p);
  };
  return new TransformStream({
    transform(chunk, controller) {
      budget.read += chunk.length;
      cutter.push(chunk, out);
      const error = budget.over() ?? flushPieces(pieces, controller, options.read);
      if (error) controller.error(error);
    },
    flush() {
      options.onStats?.({ maxHeldBytes: cutter.maxHeldBytes, cuts: cutter.cuts });
    },
  });
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

/** The index of the first CR or LF at or after `from`, or the chunk's length. */
function lineEnd(chunk: Uint8Array, from: number): number {
  const lf = chunk.indexOf(LF, from);
  const cr = chunk.indexOf(CR, from);
  const end = Math.min(lf === -1 ? chunk.length : lf, cr === -1 ? chunk.length : cr);
  return end;
}

/**
 * Splits an event stream into lines as it passes: the value of a `data` line goes through the
 * cutter, every other byte is handed on as it is; a blank line ends the event (and its message).
 */
class EventLines {
  #state: 'field' | 'space' | 'data' | 'other' = 'field';
  #field = '';
  #afterCr = false;

  constructor(
    private readonly cutter: StringCutter,
    private readonly out: (piece: Uint8Array) => void,
    private readonly onRead: (bytes: number) => void,
    private readonly onEventEnd: () => void,
  ) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i]!;
      if (b === LF || b === CR) {
        // LF right after CR is the same line end.
        if (!(b === LF && this.#afterCr)) this.#endLine();
        this.#afterCr = b === CR;
        i = this.#pass(chunk, i, i + 1);
        continue;
      }
      this.#afterCr = false;
      if (this.#state === 'data' || this.#state === 'other') {
        const end = lineEnd(chunk, i);
        if (this.#state === 'data') {
          this.onRead(end - i);
          this.cutter.push(chunk.subarray(i, end), this.out);
          i = end;
        } else i = this.#pass(chunk, i, end);
      } else if (this.#state === 'space') {
        this.#state = 'data';
        if (b === SPACE) i = this.#pass(chunk, i, i + 1);
      } else {
        if (b === COLON) this.#state = this.#field === 'data' ? 'space' : 'other';
        else if (this.#field.length < 8) this.#field += String.fromCharCode(b);
        else this.#state = 'other';
        i = this.#pass(chunk, i, i + 1);
      }
    }
  }

  /** Hands on `chunk[from, to)` unchanged; returns `to`. */
  #pass(chunk: Uint8Array, from: number, to: number): number {
    this.onRead(to - from);
    this.out(chunk.subarray(from, to));
    return to;
  }

  #endLine(): void {
    if (this.#state === 'field' && this.#field === '') {
      this.cutter.reset();
      this.onEventEnd();
    }
    this.#state = 'field';
    this.#field = '';
  }
}

/** An event stream, each event's message cut while read; the bounds apply per event. */
export function cutEvents(options: CutOptions): TransformStream<Uint8Array, Uint8Array> {
  const cutter = new StringCutter(RESULT_CUT_BOUNDS);
  let budget = new MessageBudget(options);
  let error: Error | undefined;
  const pieces: Uint8Array[] = [];
  const lines = new EventLines(
    cutter,
    (p) => {
      budget.out += p.length;
      pieces.push(p);
    },
    (n) => (budget.read += n),
    () => {
      error ??= budget.over();
      budget = new MessageBudget(options);
    },
  );
  return new TransformStream({
    transform(chunk, controller) {
      lines.push(chunk);
      error ??= budget.over() ?? flushPieces(pieces, controller, options.read);
      if (error) controller.error(error);
    },
    flush() {
      options.onStats?.({ maxHeldBytes: cutter.maxHeldBytes, cuts: cutter.cuts });
    },
  });
}
