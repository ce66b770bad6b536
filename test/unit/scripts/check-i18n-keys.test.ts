/**
 * The unused-catalog-key check (scripts/check-i18n-keys.ts): literal uses, `__MSG_` uses and
 * run-time template families count; a type-level template and a key nobody names do not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogKeys, keyProblems, literalsOf } from '../../../scripts/check-i18n-keys.js';

const catalog = `export const en = {
  used: { message: 'x' },
  // a comment
  multi: {
    message: 'y',
    placeholders: { name: { content: '$1' } },
  },
  chatErrorRateLimit: { message: 'z' },
  reasonNobody: { message: 'w' },
} as const;`;

test('catalog keys are the top-level entries, nested objects and comments aside', () => {
  assert.deepEqual(catalogKeys(catalog), ['used', 'multi', 'chatErrorRateLimit', 'reasonNobody']);
});

test('whole literals, __MSG_ names and run-time template heads are collected; type templates are not', () => {
  const found = literalsOf(
    "t('used'); x = \"multi\"; y = `tpl`; '__MSG_extName__'; k = `chatError${pascal(code)}`; type R = `reason${string}`; 'not a key'",
  );
  assert.deepEqual([...found.literals].sort(), ['__MSG_extName__', 'extName', 'multi', 'tpl', 'used']);
  assert.deepEqual([...found.heads], ['chatError']);
});

test('a key no code names is reported; a key of a derived family is not', () => {
  const problems = keyProblems(
    catalogKeys(catalog),
    ['used', 'multi', 'chatErrorRateLimit', 'reasonNobody'],
    ['t(\'used\'); t("multi")', 'const key = `chatError${pascal(code)}`; type R = `reason${string}`;'],
  );
  assert.deepEqual(problems, { unused: ['reasonNobody'], missingInZh: [], extraInZh: [] });
});

test('a prefix alone does not use a key: a substring or a longer literal is not a use', () => {
  const problems = keyProblems(['used', 'usedMore'], ['used', 'usedMore'], ["t('usedMoreThan'); t('use'); // used"]);
  assert.deepEqual(problems.unused, ['used', 'usedMore']);
});

test('keys missing from zh_CN and keys only zh_CN has are reported', () => {
  const problems = keyProblems(['a', 'b'], ['a', 'c'], ["'a' 'b'"]);
  assert.deepEqual(problems, { unused: [], missingInZh: ['b'], extraInZh: ['c'] });
});
