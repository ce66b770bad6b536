/**
 * The non-DOM logic of the tool list (SPEC K2): which tools a search matches, what a bulk
 * toggle does to `disabledTools`, and which annotation hints to show. Kept apart from the
 * element so it can be tested in Node and stays fast for catalogs of a thousand tools.
 */
import type { Tool } from '../protocol/mcp-shapes.js';

/** Lower-cased words of the query; an empty query matches everything. */
export function queryTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, 16);
}

/** The text a search looks at, lower-cased once per tool rather than once per keystroke. */
export function searchText(tool: Pick<Tool, 'name' | 'title' | 'description'>): string {
  return `${tool.name}\n${tool.title ?? ''}\n${tool.description ?? ''}`.toLowerCase();
}

/** Every word must appear somewhere in the tool's name, title or description. */
export function matches(text: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!text.includes(term)) return false;
  return true;
}

/**
 * The `disabledTools` after enabling or disabling `scope` (every tool, or only the filtered
 * ones). Names that are disabled but not in the current catalog are kept: a tool that is
 * temporarily missing must not come back enabled. Order is stable and duplicates are removed.
 */
export function bulkDisabled(current: readonly string[], scope: readonly string[], enable: boolean): string[] {
  const inScope = new Set(scope);
  const kept = [...new Set(current)].filter((name) => !inScope.has(name));
  return enable ? kept : [...kept, ...scope.filter((name, i) => scope.indexOf(name) === i)];
}

export type HintKey = 'hintReadOnly' | 'hintDestructive' | 'hintIdempotent' | 'hintOpenWorld';

/**
 * The annotation hints to show as chips. They are what the server claims, shown for the user's
 * information and never trusted for any decision (MCP: annotations are untrusted).
 */
export function annotationHints(annotations: Tool['annotations']): HintKey[] {
  if (!annotations) return [];
  const hints: HintKey[] = [];
  if (annotations.readOnlyHint === true) hints.push('hintReadOnly');
  if (annotations.destructiveHint === true) hints.push('hintDestructive');
  if (annotations.idempotentHint === true) hints.push('hintIdempotent');
  if (annotations.openWorldHint === true) hints.push('hintOpenWorld');
  return hints;
}
