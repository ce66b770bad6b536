import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../../../src/i18n/en.js';
import { zh_CN } from '../../../src/i18n/zh_CN.js';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const catalogs: Record<string, Record<string, Entry>> = { en, zh_CN };

/** The `$NAME$` references a message uses, sorted. */
function referenced(entry: Entry): string[] {
  return [...new Set([...entry.message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)].map((m) => m[1]!.toLowerCase()))].sort();
}

describe('message catalogs (SPEC K6)', () => {
  it('both catalogs have exactly the same keys', () => {
    const enKeys = Object.keys(en).sort();
    const zhKeys = Object.keys(zh_CN).sort();
    assert.deepEqual(
      enKeys.filter((k) => !zhKeys.includes(k)),
      [],
      'missing in zh_CN',
    );
    assert.deepEqual(
      zhKeys.filter((k) => !enKeys.includes(k)),
      [],
      'missing in en',
    );
  });

  for (const [locale, catalog] of Object.entries(catalogs)) {
    it(`${locale}: every message is non-empty and uses exactly the placeholders it declares`, () => {
      for (const [key, entry] of Object.entries(catalog)) {
        assert.ok(entry.message.trim().length > 0, `${locale}.${key} is empty`);
        assert.deepEqual(referenced(entry), Object.keys(entry.placeholders ?? {}).sort(), `${locale}.${key}`);
      }
    });
  }

  it('each key declares the same placeholders, bound to the same arguments, in both locales', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      const a = (en as Record<string, Entry>)[key]!.placeholders ?? {};
      const b = (zh_CN as Record<string, Entry>)[key]?.placeholders ?? {};
      const shape = (p: Record<string, { content: string }>) =>
        Object.entries(p)
          .map(([n, v]) => `${n}=${v.content}`)
          .sort();
      assert.deepEqual(shape(b), shape(a), key);
    }
  });
});
