/**
 * A compact line diff of two bounded texts (SPEC S2: the old and new definition of a tool, as
 * text). Longest common subsequence over lines, then only the changed lines with one line of
 * context around them; everything is bounded — lines compared, lines shown and each line's
 * length — so a hostile server's huge description or schema cannot make the diff huge or slow.
 */

export interface DiffLine {
  /** '=' context, '-' only in the old text, '+' only in the new one, '…' lines left out. */
  op: '=' | '-' | '+' | '…';
  text: string;
}

/** Lines compared per side: the LCS table is their product. */
const MAX_COMPARED_LINES = 400;
/** Lines the diff shows. */
export const MAX_DIFF_LINES = 120;
/** Characters shown of one line. */
export const MAX_DIFF_LINE_LENGTH = 240;

const cut = (line: string) => (line.length <= MAX_DIFF_LINE_LENGTH ? line : `${line.slice(0, MAX_DIFF_LINE_LENGTH - 1)}…`);

function linesOf(text: string): string[] {
  const lines = text.split('\n');
  return lines.length <= MAX_COMPARED_LINES
    ? lines
    : [...lines.slice(0, MAX_COMPARED_LINES), `[… ${lines.length - MAX_COMPARED_LINES} more lines]`];
}

/** Every line of both texts, in order, marked kept, removed or added. */
function fullDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], one flat row-major array.
  const lcs = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] =
        a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: '=', text: a[i++]! });
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  return out;
}

/** The changed lines with `context` kept lines around each run; the rest folded into '…' lines. */
export function lineDiff(oldText: string, newText: string, context = 1): DiffLine[] {
  const all = fullDiff(linesOf(oldText), linesOf(newText));
  const near = all.map((_, k) => all.slice(Math.max(0, k - context), k + context + 1).some((l) => l.op !== '='));
  const out: DiffLine[] = [];
  let folded = 0;
  const flush = () => {
    if (folded > 0) out.push({ op: '…', text: String(folded) });
    folded = 0;
  };
  all.forEach((line, k) => {
    if (!near[k]) {
      folded++;
      return;
    }
    flush();
    out.push({ op: line.op, text: cut(line.text) });
  });
  flush();
  if (out.length <= MAX_DIFF_LINES) return out;
  return [...out.slice(0, MAX_DIFF_LINES - 1), { op: '…', text: String(out.length - MAX_DIFF_LINES + 1) }];
}
