/**
 * Turns pasted text into a JSON value without trusting its size or shape. VS Code's `mcp.json`
 * and Gemini's `settings.json` are JSONC (comments, trailing commas), and people often paste a
 * fragment such as `"github": {…}`; all three are accepted. Depth is measured by a linear scan
 * *before* `JSON.parse`, so a deeply nested paste is refused without recursing into it.
 */
import { MAX_DEPTH, MAX_INPUT_BYTES } from './limits.js';

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJsonText(text: string): JsonTextResult {
  if (typeof text !== 'string') return { ok: false, error: 'Nothing to import: the input is not text.' };
  if (utf8Length(text) > MAX_INPUT_BYTES) {
    return { ok: false, error: `The pasted text is larger than ${MAX_INPUT_BYTES / 1024} KiB; paste only the MCP server configuration.` };
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') return { ok: false, error: 'Nothing to import: the pasted text is empty.' };

  const scanned = stripJsonc(source);
  if (scanned.maxDepth > MAX_DEPTH) {
    return { ok: false, error: `The pasted JSON is nested more than ${MAX_DEPTH} levels deep; this is not an MCP configuration.` };
  }
  const first = tryParse(scanned.text);
  if (first.ok) return first;
  if (/^\s*"/.test(scanned.text)) {
    const wrapped = tryParse(`{${scanned.text}}`);
    if (wrapped.ok) return wrapped;
  }
  return { ok: false, error: `The pasted text is not valid JSON${describePosition(first.message, scanned.text)}.` };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : '' };
  }
}

/** Line and column only: the engine's message may quote the input, which can hold a secret. */
function describePosition(message: string, text: string): string {
  const match = /position (\d+)/.exec(message);
  if (!match) return '';
  const position = Math.min(Number(match[1]), text.length);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return ` (near line ${line}, column ${column})`;
}

function utf8Length(text: string): number {
  if (text.length > MAX_INPUT_BYTES) return text.length;
  if (text.length * 3 <= MAX_INPUT_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

interface Scanned {
  text: string;
  maxDepth: number;
}

/**
 * Blanks comments and trailing commas with spaces (newlines kept), so parser positions still
 * point into the user's text, and records the deepest bracket nesting seen outside strings.
 */
function stripJsonc(text: string): Scanned {
  const out: string[] = [];
  let copiedTo = 0;
  let depth = 0;
  let maxDepth = 0;
  const blank = (from: number, to: number) => {
    out.push(text.slice(copiedTo, from), text.slice(from, to).replace(/[^\n]/g, ' '));
    copiedTo = to;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i);
      continue;
    }
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = commentEnd(text, i);
      blank(i, end);
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      depth += 1;
      if (depth > maxDepth) maxDepth = depth;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',') {
      const next = text[skipTrivia(text, i + 1)];
      if (next === '}' || next === ']') blank(i, i + 1);
    }
    i += 1;
  }
  out.push(text.slice(copiedTo));
  return { text: out.join(''), maxDepth };
}

/** Index just past the closing quote (or the end of text when unterminated). */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i += 1;
  }
  return text.length;
}

function commentEnd(text: string, start: number): number {
  if (text[start + 1] === '/') {
    const newline = text.indexOf('\n', start);
    return newline === -1 ? text.length : newline;
  }
  const close = text.indexOf('*/', start + 2);
  return close === -1 ? text.length : close + 2;
}

function skipTrivia(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i += 1;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) i = commentEnd(text, i);
    else break;
  }
  return i;
}
