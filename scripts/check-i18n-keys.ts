/**
 * `npm run check:i18n`: every key of the English catalog is used by some code, and the Chinese
 * catalog has exactly the English keys (K6). A key counts as used when it stands as a whole
 * string literal in src/ (outside the catalogs: `t('key')`, `say('reasonKey')`, a table of
 * `MessageKey`s) or as `__MSG_key__` in manifest.json or static/; and, for keys the code builds,
 * when it starts with the fixed head of a template literal that builds one at run time
 * (`` `chatError${…}` ``: the family derived from the error-code table), not a type such as
 * `` `reason${string}` ``.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The keys of a catalog module (`  key: { message: … }` at the object's top level). */
export function catalogKeys(source: string): string[] {
  return [...source.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_]*): \{/gm)].map((m) => m[1]!);
}

/** Every whole string literal of a source, and the heads of its run-time template literals. */
export function literalsOf(source: string): { literals: Set<string>; heads: Set<string> } {
  const literals = new Set<string>();
  for (const m of source.matchAll(/(['"`])([A-Za-z_][A-Za-z0-9_]*)\1/g)) literals.add(m[2]!);
  for (const m of source.matchAll(/__MSG_([A-Za-z0-9_]+)__/g)) literals.add(m[1]!);
  const heads = new Set<string>();
  // A type-level template (`${string}`, `${number}`) builds no key.
  for (const m of source.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)\$\{(?!string\}|number\})/g)) heads.add(m[1]!);
  return { literals, heads };
}

export interface KeyProblems {
  unused: string[];
  missingInZh: string[];
  extraInZh: string[];
}

export function keyProblems(enKeys: readonly string[], zhKeys: readonly string[], sources: readonly string[]): KeyProblems {
  const literals = new Set<string>();
  const heads = new Set<string>();
  for (const source of sources) {
    const found = literalsOf(source);
    found.literals.forEach((l) => literals.add(l));
    found.heads.forEach((h) => heads.add(h));
  }
  const used = (key: string) => literals.has(key) || [...heads].some((head) => key.startsWith(head) && key !== head);
  const zh = new Set(zhKeys);
  const en = new Set(enKeys);
  return {
    unused: enKeys.filter((key) => !used(key)),
    missingInZh: enKeys.filter((key) => !zh.has(key)),
    extraInZh: zhKeys.filter((key) => !en.has(key)),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const catalogs = new Set([join(root, 'src/i18n/en.ts'), join(root, 'src/i18n/zh_CN.ts')]);
  const code = [...filesUnder(join(root, 'src')), ...filesUnder(join(root, 'static')), join(root, 'manifest.json')]
    .filter((path) => !catalogs.has(path) && /\.(ts|html|json|css)$/.test(path))
    .map((path) => readFileSync(path, 'utf8'));
  const problems = keyProblems(
    catalogKeys(readFileSync(join(root, 'src/i18n/en.ts'), 'utf8')),
    catalogKeys(readFileSync(join(root, 'src/i18n/zh_CN.ts'), 'utf8')),
    code,
  );
  const lines = [
    ...problems.unused.map((key) => `en.ts: "${key}" is used by no code (src/, static/, manifest.json)`),
    ...problems.missingInZh.map((key) => `zh_CN.ts: "${key}" is missing`),
    ...problems.extraInZh.map((key) => `zh_CN.ts: "${key}" is not in en.ts`),
  ];
  if (lines.length > 0) {
    console.error(lines.join('\n'));
    process.exit(1);
  }
  console.log('i18n keys: every catalog key is used and zh_CN has exactly the English keys.');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
