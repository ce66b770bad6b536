/**
 * Tool search (T2): for a catalog larger than a request may carry, the model is offered one small
 * tool, `search_tools`, over the chat's selected tools, and what it finds is offered in the turn's
 * next requests. The ranking is simple and deterministic: the query's words (lower case, letters
 * and digits, snake_case and camelCase split, a few English filler words dropped) are matched
 * against each tool's name, title and description, a word scoring its best field's weight (a
 * prefix of at least three letters half of it); ties go to the name, in code-point order.
 *
 * Names, titles and descriptions are server-written: the result the model reads fences them as
 * untrusted data (T4, N9), with only our own sentence outside the fence.
 */
import { MAX_QUERY } from '../../protocol/panel-chat.js';
import { fenceServerText, type BlockOptions } from '../use/context-blocks.js';
import type { AgentTool } from '../use/tool-registry.js';
import type { ToolSpec } from './providers/types.js';

export const SEARCH_TOOL_NAME = 'search_tools';
/** Hits per search. */
export const SEARCH_RESULTS = 10;
const WEIGHTS = { name: 3, title: 2, description: 1 } as const;
const MIN_PREFIX = 3;
const MAX_DESCRIPTION_SHOWN = 300;
const FILLER = new Set(['a', 'an', 'and', 'the', 'in', 'on', 'of', 'for', 'to', 'with', 'by', 'at', 'from', 'is', 'me', 'my', 'or']);

/** The search tool's definition; `size` is how many tools it searches. */
export function searchToolSpec(size: number): ToolSpec {
  return {
    name: SEARCH_TOOL_NAME,
    description:
      `Searches the user's ${size} MCP tools by what they do (names, titles, descriptions) and returns up to ${SEARCH_RESULTS} matches. ` +
      'The tools found become callable from your next step; search again with other words if none fits.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'A few words for the task, e.g. "weather forecast".', maxLength: MAX_QUERY } },
      required: ['query'],
    },
  };
}

/** The words of `text` for matching: lower case, split at anything not a letter or digit and at camelCase humps. */
export function wordsOf(text: string): string[] {
  const spaced = text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  return (spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FILLER.has(w));
}

/** How well one field's words match one query word: 1 exact, ½ prefix, 0 none. */
function matchOf(word: string, fieldWords: ReadonlySet<string>): number {
  if (fieldWords.has(word)) return 1;
  if (word.length < MIN_PREFIX) return 0;
  for (const w of fieldWords) if (w.startsWith(word) || (w.length >= MIN_PREFIX && word.startsWith(w))) return 0.5;
  return 0;
}

function scoreOf(tool: AgentTool, query: readonly string[]): number {
  const fields = [
    [WEIGHTS.name, new Set(wordsOf(tool.toolName))],
    [WEIGHTS.title, new Set(wordsOf(tool.title ?? ''))],
    [WEIGHTS.description, new Set(wordsOf(tool.description))],
  ] as const;
  let score = 0;
  for (const word of query) score += Math.max(...fields.map(([weight, words]) => weight * matchOf(word, words)));
  return score;
}

/** The best `max` tools for the query, best first; none when no word matches. */
export function rankTools(tools: readonly AgentTool[], query: string, max = SEARCH_RESULTS): AgentTool[] {
  const words = [...new Set(wordsOf(query.slice(0, MAX_QUERY)))];
  if (!words.length) return [];
  return tools
    .map((tool) => ({ tool, score: scoreOf(tool, words) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0))
    .slice(0, max)
    .map((r) => r.tool);
}

/** The query the model sent, or undefined when its arguments name none. */
export function queryOf(args: string): string | undefined {
  try {
    const value = JSON.parse(args) as { query?: unknown };
    return typeof value.query === 'string' && value.query.trim() ? value.query.trim().slice(0, MAX_QUERY) : undefined;
  } catch {
    return undefined;
  }
}

/** One hit as the model reads it (inside the fence): the name to call, then the server's words. */
function hitLine(tool: AgentTool): string {
  const description =
    tool.description.length > MAX_DESCRIPTION_SHOWN ? `${tool.description.slice(0, MAX_DESCRIPTION_SHOWN)}…` : tool.description;
  return `- ${tool.name}${tool.title ? ` (${tool.title})` : ''} on server ${tool.serverName}: ${description}`;
}

/** What the search tool answers: our sentence, then the hits fenced as untrusted server text. */
export function searchResultText(query: string, found: readonly AgentTool[], options?: BlockOptions): string {
  if (!found.length) return `No tools matched ${JSON.stringify(query)}. Try other words.`;
  const head = `Found ${found.length} tools for ${JSON.stringify(query)}; they are callable from your next step.`;
  const label = 'Tool names and descriptions written by the MCP servers';
  return `${head}\n${fenceServerText(label, found.map(hitLine).join('\n'), options)}`;
}
