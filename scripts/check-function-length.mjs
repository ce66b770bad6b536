// Keeps functions short enough to hold in one's head: none in src/ over MAX lines, and at most
// LONG_ALLOWED over LONG lines. A function's length is its span in the file, from its first line
// to its last, nested functions included (what a reader has to scroll through). `--list` prints
// every function over LONG lines, longest first.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const MAX = 120;
const LONG = 50;
const LONG_ALLOWED = 15;

const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'src'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => file.endsWith('.ts'));

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

const found = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree but still in the index
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > LONG) found.push({ file, line: first + 1, name: nameOf(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

found.sort((a, b) => b.lines - a.lines);
const tooLong = found.filter((f) => f.lines > MAX);
const list = process.argv.includes('--list');
if (list || tooLong.length > 0 || found.length > LONG_ALLOWED) {
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
}
console.log(`functions over ${LONG} lines: ${found.length} (at most ${LONG_ALLOWED}); over ${MAX}: ${tooLong.length} (none allowed)`);
if (tooLong.length > 0 || found.length > LONG_ALLOWED) process.exit(1);
