// Runs node:test files under the given folders (or the files given). Node 20's `--test` does not expand globs, so
// the files are collected here and passed explicitly (TypeScript through the tsx loader).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const roots = args.filter((a) => !a.startsWith('--'));
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
for (const r of roots) {
  if (statSync(r).isDirectory()) walk(r);
  else files.push(r);
}
if (files.length === 0) {
  console.error(`No test files under ${roots.join(', ')}`);
  process.exit(1);
}
// --test-force-exit: a test that fails before closing a MessagePort, socket or timer would otherwise keep its
// file's process, and so the whole run, alive until CI's limit; its failure is reported either way.
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-force-exit', ...flags, ...files], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
