/**
 * Cuts long JSON string values while a tool result is read (SPEC H4, N8), so a 20 MB result
 * ends as a small, valid JSON-RPC message instead of failing the call. The worker's result
 * budget (sw/use/truncate.ts) cuts further, but it can only work on what was read; here nothing
 * longer than {@link CutBounds.longString} is ever held.
 *
 * The cutter reads JSON bytes in any chunking and hands on the same bytes, except inside a
 * string value longer than `longString`: a text-like value keeps its first `keepText` bytes and
 * ends with a visible marker; a base64 `data`/`blob` value keeps its first `keepMedia`
 * characters (valid base64, just over the media budget, which then omits it with its own
 * marker). Cuts fall between characters and escapes, never inside one, so the JSON stays valid.
 * Ids, keys, numbers and structure are kept exactly.
 */
export interface CutBounds {
  /** Raw bytes a string value may have before it is cut. */
  longString: number;
  /** Raw bytes a cut text-like value keeps (then the marker). */
  keepText: number;
  /** Characters a cut base64 value keeps (a multiple of 4, so it stays base64). */
  keepMedia: number;
}

/**
 * 1 MiB per value: a value up to the media item budget (1 MiB of base64) passes whole. A cut
 * text keeps 64 KiB, so with its marker it fits the 100 KiB text budget and the marker reaches
 * the person and the model; a cut image keeps 1 MiB + 4 characters, over the media budget.
 */
export const RESULT_CUT_BOUNDS: CutBounds = { longString: 1024 * 1024, keepText: 64 * 1024, keepMedia: 1024 * 1024 + 4 };

type Out = (bytes: Uint8Array) => void;
/** What happens to the bytes of the current run: handed on, held until the value's size is known, dropped. */
type Mode = 'emit' | 'hold' | 'drop';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_TRACKED_DEPTH = 256;
const MEDIA_KEYS = new Set(['data', 'blob']);
const enc = new TextEncoder();

/** Human size for the marker, e.g. `20.0 MiB`. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The marker, written as JSON string content (`\n` escaped). */
function markerBytes(sent: number, kept: number): Uint8Array {
  return enc.encode(`\\n[\u2026 truncated: the server sent ${sizeText(sent)} here; showing the first ${sizeText(kept)}]`);
}

export class StringCutter {
  /** The most bytes held at once (the pass's own memory, for tests and limits). */
  maxHeldBytes = 0;
  /** String values cut so far. */
  cuts = 0;

  readonly #bounds: CutBounds;
  /** Open containers ('o' object, 'a' array), tracked to a bounded depth. */
  #stack: string[] = [];
  #depth = 0;
  #expectKey = false;
  #lastKey = '';
  // The current string.
  #inString = false;
  #isKey = false;
  #media = false;
  #key = '';
  /** 0 none, 1 after a backslash, 2 inside \uXXXX. */
  #escape = 0;
  #hexLeft = 0;
  #hex = 0;
  #utf8Left = 0;
  #bytes = 0;
  #units = 0;
  #phase: Mode = 'emit';
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  // The run of bytes in the current chunk that share one mode.
  #chunk: Uint8Array = new Uint8Array(0);
  #runStart = 0;
  #runMode: Mode = 'emit';
  #out: Out = () => undefined;

  constructor(bounds: CutBounds) {
    this.#bounds = bounds;
  }

  /** Reads one chunk; what is handed on goes to `out`, in order. */
  push(chunk: Uint8Array, out: Out): void {
    this.#chunk = chunk;
    this.#out = out;
    this.#runStart = 0;
    this.#runMode = this.#inString ? this.#phase : 'emit';
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (!this.#inString) this.#outside(b, i);
      else if (b === QUOTE && this.#escape === 0 && this.#utf8Left === 0) this.#closeString(i);
      else this.#stringByte(b, i);
    }
    this.#closeRun(chunk.length);
  }

  /** Forgets everything (a new message: the next event of a stream). */
  reset(): void {
    this.#stack = [];
    this.#depth = 0;
    this.#expectKey = false;
    this.#lastKey = '';
    this.#inString = false;
    this.#phase = 'emit';
    this.#runMode = 'emit';
    this.#dropHeld();
  }

  #outside(b: number, i: number): void {
    this.#switch(i, 'emit');
    if (b === QUOTE) return this.#openString();
    if (b === 0x7b || b === 0x5b) {
      if (this.#depth++ < MAX_TRACKED_DEPTH) this.#stack.push(b === 0x7b ? 'o' : 'a');
      this.#expectKey = b === 0x7b;
    } else if (b === 0x7d || b === 0x5d) {
      if (this.#depth > 0 && this.#depth-- <= MAX_TRACKED_DEPTH) this.#stack.pop();
      this.#expectKey = false;
    } else if (b === 0x2c) this.#expectKey = this.#top() === 'o';
    else if (b === 0x3a) this.#expectKey = false;
  }

  #top(): string | undefined {
    return this.#depth > MAX_TRACKED_DEPTH ? undefined : this.#stack[this.#stack.length - 1];
  }

  #openString(): void {
    const inObject = this.#top() === 'o';
    this.#inString = true;
    this.#isKey = inObject && this.#expectKey;
    this.#media = !this.#isKey && inObject && MEDIA_KEYS.has(this.#lastKey);
    this.#key = '';
    this.#escape = 0;
    this.#utf8Left = 0;
    this.#bytes = 0;
    this.#units = 0;
    this.#phase = 'emit';
  }

  #closeString(i: number): void {
    if (this.#phase === 'hold') {
      this.#closeRun(i);
      for (const piece of this.#held) this.#out(piece);
      this.#dropHeld();
    } else if (this.#phase === 'drop') {
      this.#closeRun(i);
      this.cuts++;
      if (!this.#media) this.#out(markerBytes(this.#bytes, this.#bounds.keepText));
    }
    this.#phase = 'emit';
    this.#switch(i, 'emit');
    this.#inString = false;
    if (this.#isKey) {
      this.#lastKey = this.#key;
      this.#expectKey = false;
    }
  }

  #stringByte(b: number, i: number): void {
    this.#switch(i, this.#phase);
    this.#bytes++;
    if (this.#isKey && this.#key.length < 8) this.#key += String.fromCharCode(b);
    if (this.#escape === 1) {
      if (b === 0x75) {
        this.#escape = 2;
        this.#hexLeft = 4;
        this.#hex = 0;
      } else this.#unitDone(false);
    } else if (this.#escape === 2) {
      this.#hex = this.#hex * 16 + (parseInt(String.fromCharCode(b), 16) || 0);
      if (--this.#hexLeft === 0) this.#unitDone(this.#hex >= 0xd800 && this.#hex <= 0xdbff);
    } else if (this.#utf8Left > 0) {
      if (--this.#utf8Left === 0) this.#unitDone(false);
    } else if (b === BACKSLASH) this.#escape = 1;
    else if (b >= 0xc0) this.#utf8Left = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
    else this.#unitDone(false);
    if (this.#phase === 'hold' && this.#bytes > this.#bounds.longString) {
      this.#closeRun(i + 1);
      this.#dropHeld();
      this.#phase = 'drop';
      this.#runMode = 'drop';
    }
  }

  /** A character or escape ended: past the keep, later bytes are held (never after half a surrogate pair). */
  #unitDone(highSurrogate: boolean): void {
    this.#escape = 0;
    this.#units++;
    if (this.#phase !== 'emit' || highSurrogate) return;
    const kept = this.#media ? this.#units >= this.#bounds.keepMedia : this.#bytes >= this.#bounds.keepText;
    if (kept) this.#phase = 'hold';
  }

  /** Starts a new run at `i` when the mode changes. */
  #switch(i: number, mode: Mode): void {
    if (mode === this.#runMode) return;
    this.#closeRun(i);
    this.#runMode = mode;
  }

  #closeRun(end: number): void {
    if (end > this.#runStart) {
      const piece = this.#chunk.subarray(this.#runStart, end);
      if (this.#runMode === 'emit') this.#out(piece);
      else if (this.#runMode === 'hold') {
        this.#held.push(piece.slice());
        this.#heldBytes += piece.length;
        this.maxHeldBytes = Math.max(this.maxHeldBytes, this.#heldBytes);
      }
    }
    this.#runStart = end;
  }

  #dropHeld(): void {
    this.#held = [];
    this.#heldBytes = 0;
  }
}
