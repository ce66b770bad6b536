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

import { ContentBudget, textPart, type ContentLimits, type CutReport } from './content-budget.js';
import { formatBytes, jsonBytes } from './utf8.js';

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

export type TruncationReport = CutReport;

export interface TruncatedResult<R extends ToolResultLike = ToolResultLike> {
  result: R;
  truncated: TruncationReport | null;
}

/** Applies the budget; the input is not modified. */
export function truncateToolResult<R extends ToolResultLike>(input: R): TruncatedResult<R> {
  const report: TruncationReport = { cutBytes: 0, parts: [] };
  const result: ToolResultLike = { ...input };
  if (Array.isArray(input.content)) {
    const budget = new ContentBudget(CONTENT_LIMITS, report);
    (input.content as unknown[]).forEach((part, index) => budget.add(part, index));
    result.content = budget.parts();
  }
  if (input.structuredContent !== undefined) fitStructured(result, report);
  return { result: result as R, truncated: report.parts.length > 0 ? report : null };
}

const CONTENT_LIMITS: ContentLimits = {
  textBytes: TEXT_BUDGET_BYTES,
  mediaItemBytes: MEDIA_ITEM_MAX_BYTES,
  mediaTotalBytes: MEDIA_TOTAL_MAX_BYTES,
  maxParts: MAX_CONTENT_PARTS,
};

/** Over its budget, `structuredContent` is removed whole (cut JSON is not JSON) and a marker part says so. */
function fitStructured(result: ToolResultLike, report: TruncationReport): void {
  const size = jsonBytes(result.structuredContent);
  if (size <= STRUCTURED_MAX_BYTES) return;
  delete result.structuredContent;
  report.cutBytes += size;
  report.parts.push(`structuredContent: omitted ${formatBytes(size)} (over ${formatBytes(STRUCTURED_MAX_BYTES)})`);
  const marker = textPart(
    `[\u2026 structured result omitted (${formatBytes(size)}), over the ${formatBytes(STRUCTURED_MAX_BYTES)} budget]`,
  );
  result.content = [...(Array.isArray(result.content) ? (result.content as unknown[]) : []), marker];
}
