/**
 * Size budget for tool results handed to the panel and the agent (SPEC H4).
 *
 * The budget (all sizes in bytes; base64 payloads measured as the length of the string):
 * - Text: at most {@link TEXT_BUDGET_BYTES} (100 KiB) of UTF-8 over the whole result, shared
 *   by `text` parts, text `resource` parts, and the JSON of `resource_link` and unknown parts.
 *   The part that crosses the limit is cut on a character boundary and ends with a marker;
 *   later parts are omitted.
 * - Media: each `image` / `audio` / blob `resource` payload at most {@link MEDIA_ITEM_MAX_BYTES}
 *   (1 MiB of base64), and at most {@link MEDIA_TOTAL_MAX_BYTES} (4 MiB) for all of them.
 *   Media over either limit is omitted whole (a cut image is not an image).
 * - At most {@link MAX_CONTENT_PARTS} content parts.
 * - `structuredContent`: JSON at most {@link STRUCTURED_MAX_BYTES} (100 KiB); over it, the
 *   field is removed whole (cut JSON is not JSON) and a marker part says so.
 *
 * Omitted parts are replaced in place by one text marker per run of omitted parts, so what
 * the reader sees always says that something was cut, where, and how much. Markers are a
 * few dozen bytes each and are not charged to the budget. Other fields of
 * the result (`isError`, `_meta`) are kept as they are.
 */

export const TEXT_BUDGET_BYTES = 100 * 1024;
export const MEDIA_ITEM_MAX_BYTES = 1024 * 1024;
export const MEDIA_TOTAL_MAX_BYTES = 4 * 1024 * 1024;
export const STRUCTURED_MAX_BYTES = 100 * 1024;
export const MAX_CONTENT_PARTS = 500;

/** The shape of an MCP `CallToolResult` as far as the budget is concerned. */
export interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

export interface TruncationReport {
  /** Bytes removed in total (UTF-8 for text, base64 characters for media). */
  cutBytes: number;
  /** One plain-words line per cut, e.g. `content[3] text: cut 2.0 KiB`. */
  parts: string[];
}

export interface TruncatedResult<R extends ToolResultLike = ToolResultLike> {
  result: R;
  truncated: TruncationReport | null;
}

/** Number of UTF-8 bytes `text` encodes to (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; cutBytes: number } {
  const total = utf8Length(text);
  if (total <= maxBytes) return { text, cutBytes: 0 };
  const buffer = new Uint8Array(Math.max(0, maxBytes));
  const { read, written } = new TextEncoder().encodeInto(text, buffer);
  return { text: text.slice(0, read ?? 0), cutBytes: total - (written ?? 0) };
}

/** Human size for markers, e.g. `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

type Part = Record<string, unknown>;

interface Omission {
  count: number;
  bytes: number;
}

/** Applies the budget; the input is not modified. */
export function truncateToolResult<R extends ToolResultLike>(input: R): TruncatedResult<R> {
  const report: TruncationReport = { cutBytes: 0, parts: [] };
  const out: Part[] = [];
  let textLeft = TEXT_BUDGET_BYTES;
  let mediaLeft = MEDIA_TOTAL_MAX_BYTES;
  let omitted: Omission | null = null;

  const omit = (index: number, what: string, bytes: number, why: string) => {
    report.cutBytes += bytes;
    report.parts.push(`content[${index}] ${what}: omitted ${formatBytes(bytes)} (${why})`);
    omitted = omitted ? { count: omitted.count + 1, bytes: omitted.bytes + bytes } : { count: 1, bytes };
  };
  const flush = () => {
    if (!omitted) return;
    const noun = omitted.count === 1 ? 'content part' : 'content parts';
    out.push(textPart(`[\u2026 ${omitted.count} ${noun} omitted (${formatBytes(omitted.bytes)}) to fit the result size budget]`));
    omitted = null;
  };

  const content = Array.isArray(input.content) ? (input.content as unknown[]) : [];
  content.forEach((raw, index) => {
    const part: Part = isRecord(raw) ? raw : { type: 'unknown', value: raw };
    const type = typeof part.type === 'string' ? part.type : 'unknown';
    if (index >= MAX_CONTENT_PARTS) {
      omit(index, type, jsonBytes(part), `more than ${MAX_CONTENT_PARTS} parts`);
      return;
    }
    const media = mediaPayload(part);
    if (media !== null) {
      const size = media.length;
      if (size > MEDIA_ITEM_MAX_BYTES) return omit(index, type, size, `over ${formatBytes(MEDIA_ITEM_MAX_BYTES)} per item`);
      if (size > mediaLeft) return omit(index, type, size, `over ${formatBytes(MEDIA_TOTAL_MAX_BYTES)} of media in total`);
      mediaLeft -= size;
      flush();
      out.push(part);
      return;
    }
    const text = textPayload(part);
    if (text !== null) {
      const size = utf8Length(text);
      if (size <= textLeft) {
        textLeft -= size;
        flush();
        out.push(part);
        return;
      }
      if (textLeft === 0) return omit(index, type, size, `text budget of ${formatBytes(TEXT_BUDGET_BYTES)} used up`);
      const cut = truncateUtf8(text, textLeft);
      textLeft = 0;
      report.cutBytes += cut.cutBytes;
      report.parts.push(`content[${index}] ${type}: cut ${formatBytes(cut.cutBytes)} (text budget of ${formatBytes(TEXT_BUDGET_BYTES)})`);
      flush();
      out.push(withText(part, `${cut.text}\n[\u2026 truncated: ${formatBytes(cut.cutBytes)} cut to fit the result size budget]`));
      return;
    }
    const size = jsonBytes(part);
    if (size > textLeft) return omit(index, type, size, `text budget of ${formatBytes(TEXT_BUDGET_BYTES)}`);
    textLeft -= size;
    flush();
    out.push(part);
  });
  flush();

  const result: ToolResultLike = { ...input };
  if (Array.isArray(input.content)) result.content = out;
  if (input.structuredContent !== undefined) {
    const size = jsonBytes(input.structuredContent);
    if (size > STRUCTURED_MAX_BYTES) {
      delete result.structuredContent;
      report.cutBytes += size;
      report.parts.push(`structuredContent: omitted ${formatBytes(size)} (over ${formatBytes(STRUCTURED_MAX_BYTES)})`);
      const marker = textPart(
        `[\u2026 structured result omitted (${formatBytes(size)}), over the ${formatBytes(STRUCTURED_MAX_BYTES)} budget]`,
      );
      result.content = [...(Array.isArray(result.content) ? (result.content as unknown[]) : []), marker];
    }
  }

  return { result: result as R, truncated: report.parts.length > 0 ? report : null };
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

function textPart(text: string): Part {
  return { type: 'text', text };
}

function jsonBytes(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? '');
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
