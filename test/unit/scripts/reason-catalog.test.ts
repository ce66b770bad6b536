import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { keepReasonKeys, unguardedReads } from '../../../scripts/reason-catalog.js';
import { en } from '../../../src/i18n/en.js';

const compile = async (path: string) =>
  ts.transpileModule(await readFile(path, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
    .outputText;

/** Evaluates a compiled catalog module and returns its `en`. */
async function load(code: string): Promise<Record<string, unknown>> {
  const mod = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { en: Record<string, unknown> };
  return mod.en;
}

test('keeps exactly the reason… messages of the real catalog, unchanged', async () => {
  const r = keepReasonKeys(await compile('src/i18n/en.ts'));
  const reasons = Object.fromEntries(Object.entries(en).filter(([key]) => key.startsWith('reason')));
  assert.ok(r.kept > 10);
  assert.equal(r.kept + r.dropped, Object.keys(en).length);
  assert.deepEqual(await load(r.code), reasons);
});

test('handles quoted keys and placeholders, and refuses a catalog it cannot read', async () => {
  const code = `export const en = {\n  a: { message: 'A' },\n  'reasonX': { message: 'X $N$', placeholders: { n: { content: '$1' } } },\n  reasonY: { message: 'Y' },\n};\nexport const other = 1;\n`;
  const r = keepReasonKeys(code);
  assert.deepEqual(await load(r.code), {
    reasonX: { message: 'X $N$', placeholders: { n: { content: '$1' } } },
    reasonY: { message: 'Y' },
  });
  assert.throws(() => keepReasonKeys('export const en = { ...more };'), /cannot read/);
  assert.throws(() => keepReasonKeys('export const fr = {};'), /no `export const en/);
});

test('wording.ts reads the catalog only through the reason-key guard; any other read is caught', async () => {
  assert.deepEqual(unguardedReads(await compile('src/protocol/wording.ts')), []);
  assert.deepEqual(unguardedReads("import { en } from './en.js';\nconst all = Object.keys(en);\n"), ['const all = Object.keys(en);']);
});
