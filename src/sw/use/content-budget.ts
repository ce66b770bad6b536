/**
 * The running budget over a tool result's content parts (SPEC H4; the rules are in truncate.ts):
 * text shared by all text-like parts and cut on a character boundary at the part that crosses
 * it, media kept or omitted whole, a cap on the number of parts. Each run of omitted parts is
 * replaced in place by one marker part, so the reader sees where something was cut and how much.
 */
import { formatBytes, jsonBytes, truncateUtf8, utf8Length } from './utf8.js';

export type Part = Record<string, unknown>;

export interface ContentLimits {
  /** UTF-8 bytes of text over all parts. */
  textBytes: number;
  /** Base64 characters of one media payload. */
  mediaItemBytes: number;
  /** Base64 characters of all media payloads. */
  mediaTotalBytes: number;
  maxParts: number;
}

/** What was cut (the budget's TruncationReport). */
export interface CutReport {
  /** Bytes removed in total (UTF-8 for text, base64 characters for media). */
  cutBytes: number;
  /** One plain-words line per cut, e.g. `content[3] text: cut 2.0 KiB`. */
  parts: string[];
}

export class ContentBudget {
  readonly #out: Part[] = [];
  #textLeft: number;
  #mediaLeft: number;
  #omitted: { count: number; bytes: number } | null = null;

  constructor(
    private readonly limits: ContentLimits,
    private readonly report: CutReport,
  ) {
    this.#textLeft = limits.textBytes;
    this.#mediaLeft = limits.mediaTotalBytes;
  }

  /** Takes the part at `index` (in order), kept, cut or omitted. */
  add(raw: unknown, index: number): void {
    const part: Part = isRecord(raw) ? raw : { type: 'unknown', value: raw };
    const type = typeof part.type === 'string' ? part.type : 'unknown';
    if (index >= this.limits.maxParts) return this.#omit(index, type, jsonBytes(part), `more than ${this.limits.maxParts} parts`);
    const media = mediaPayload(part);
    if (media !== null) return this.#addMedia(part, index, type, media.length);
    const text = textPayload(part);
    if (text !== null) return this.#addText(part, index, type, text);
    const size = jsonBytes(part);
    if (size > this.#textLeft) return this.#omit(index, type, size, `text budget of ${formatBytes(this.limits.textBytes)}`);
    this.#textLeft -= size;
    this.#keep(part);
  }

  /** The parts as they fit, ending with the marker of a last run of omitted parts. */
  parts(): Part[] {
    this.#flush();
    return this.#out;
  }

  #addMedia(part: Part, index: number, type: string, size: number): void {
    const { mediaItemBytes, mediaTotalBytes } = this.limits;
    if (size > mediaItemBytes) return this.#omit(index, type, size, `over ${formatBytes(mediaItemBytes)} per item`);
    if (size > this.#mediaLeft) return this.#omit(index, type, size, `over ${formatBytes(mediaTotalBytes)} of media in total`);
    this.#mediaLeft -= size;
    this.#keep(part);
  }

  #addText(part: Part, index: number, type: string, text: string): void {
    const size = utf8Length(text);
    if (size <= this.#textLeft) {
      this.#textLeft -= size;
      return this.#keep(part);
    }
    const budget = formatBytes(this.limits.textBytes);
    if (this.#textLeft === 0) return this.#omit(index, type, size, `text budget of ${budget} used up`);
    const cut = truncateUtf8(text, this.#textLeft);
    this.#textLeft = 0;
    this.report.cutBytes += cut.cutBytes;
    this.report.parts.push(`content[${index}] ${type}: cut ${formatBytes(cut.cutBytes)} (text budget of ${budget})`);
    this.#keep(withText(part, `${cut.text}\n[\u2026 truncated: ${formatBytes(cut.cutBytes)} cut to fit the result size budget]`));
  }

  #keep(part: Part): void {
    this.#flush();
    this.#out.push(part);
  }

  #omit(index: number, what: string, bytes: number, why: string): void {
    this.report.cutBytes += bytes;
    this.report.parts.push(`content[${index}] ${what}: omitted ${formatBytes(bytes)} (${why})`);
    const before = this.#omitted;
    this.#omitted = before ? { count: before.count + 1, bytes: before.bytes + bytes } : { count: 1, bytes };
  }

  #flush(): void {
    const omitted = this.#omitted;
    if (!omitted) return;
    const noun = omitted.count === 1 ? 'content part' : 'content parts';
    this.#out.push(textPart(`[\u2026 ${omitted.count} ${noun} omitted (${formatBytes(omitted.bytes)}) to fit the result size budget]`));
    this.#omitted = null;
  }
}

export function textPart(text: string): Part {
  return { type: 'text', text };
}

function mediaPayload(part: Part): string | null {
  if ((part.type === 'image' || part.type === 'audio') && typeof part.data === 'string') return part.data;
  if (part.type === 'resource' && isRecord(part.resource) && typeof part.resource.blob === 'string') return part.resource.blob;
  return null;
}

function textPayload(part: Part): string | null {
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'resource' && isRecord(part.resource) && typeof part.resource.text === 'string') return part.resource.text;
  return null;
}

function withText(part: Part, text: string): Part {
  if (part.type === 'resource' && isRecord(part.resource)) return { ...part, resource: { ...part.resource, text } };
  return { ...part, text };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
