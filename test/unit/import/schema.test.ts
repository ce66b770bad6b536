import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportPreviewSchema, canonicalJson, digest } from '../../../src/import/import-schema.js';
import { parseImport } from '../../../src/import/parse-import.js';
import { fixture, fixtureNames } from './helpers.js';

describe('ImportPreviewSchema', () => {
  it('accepts every preview produced from the fixtures', () => {
    const names = fixtureNames();
    assert.equal(names.length, 8);
    for (const name of names) {
      const preview = parseImport(fixture(name), [{ name: 'github', url: 'https://api.githubcopilot.com/mcp' }]);
      const result = ImportPreviewSchema.safeParse(preview);
      assert.ok(result.success, `${name}: ${result.success ? '' : result.error.message}`);
      assert.equal(canonicalJson(result.data), canonicalJson(preview), name);
    }
  });

  it('accepts previews of hostile entries, which the parser bounds or skips', () => {
    const manyTokens = Array.from({ length: 300 }, (_, i) => `\${V${i}}`).join('');
    const texts = [
      JSON.stringify({ url: `https://x.example.com/${manyTokens}` }),
      JSON.stringify({ name: 'n'.repeat(5000), url: 'https://x.example.com' }),
      JSON.stringify({ mcpServers: { s: { type: 't'.repeat(5000), url: 'u'.repeat(5000) } } }),
      JSON.stringify({ url: 'https://x.example.com', headers: { ['h'.repeat(4000)]: 'v' } }),
      JSON.stringify({ mcpServers: { s: { httpUrl: 'https://x.example.com', timeout: 1e12, includeTools: ['a'], disabled: true } } }),
      JSON.stringify({
        mcpServers: {
          s: {
            command: 'npx',
            args: ['mcp-remote', 'https://x.example.com', '--ignore-tool', 'a*', '--static-oauth-client-info', '@/tmp/f'],
          },
        },
      }),
    ];
    for (const text of texts) {
      const preview = parseImport(text, []);
      const result = ImportPreviewSchema.safeParse(preview);
      assert.ok(result.success, `${text.slice(0, 60)}: ${result.success ? '' : result.error.message}`);
    }
    assert.match(parseImport(texts[0] ?? '', []).entries[0]?.reason ?? '', /more than 64 values to fill in/);
  });

  it('accepts error-only previews', () => {
    assert.ok(ImportPreviewSchema.safeParse(parseImport('nope', [])).success);
  });

  it('rejects unknown fields and bad values coming from the other context', () => {
    const preview = parseImport(fixture('cursor.json'), []);
    const extra = { ...preview, entries: [{ ...preview.entries[0], injected: true }] };
    assert.equal(ImportPreviewSchema.safeParse(extra).success, false);
    const badStatus = { ...preview, entries: [{ ...preview.entries[0], status: 'overwrite' }] };
    assert.equal(ImportPreviewSchema.safeParse(badStatus).success, false);
    const badHeader = { ...preview, entries: [{ ...preview.entries[0], headers: [{ name: 'a b', value: 'x' }] }] };
    assert.equal(ImportPreviewSchema.safeParse(badHeader).success, false);
  });
});

describe('canonicalJson', () => {
  it('does not depend on key order, at any depth', () => {
    const a = { b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } };
    const b = { a: { c: 'x', d: [1, { y: 2, z: 1 }] }, b: 1 };
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.equal(canonicalJson(a), '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order and drops undefined properties as JSON does', () => {
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
    assert.equal(canonicalJson({ a: undefined, b: null }), '{"b":null}');
  });

  it('is stable across a structured-clone round trip of a preview', () => {
    const preview = parseImport(fixture('gemini.json'), []);
    assert.equal(canonicalJson(structuredClone(preview)), canonicalJson(preview));
    assert.equal(canonicalJson(JSON.parse(JSON.stringify(preview))), canonicalJson(preview));
  });
});

describe('digest', () => {
  it('is the SHA-256 hex of the UTF-8 text', async () => {
    assert.equal(await digest('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(await digest(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('differs when one entry status differs', async () => {
    const preview = parseImport(fixture('cursor.json'), []);
    const tampered = { ...preview, entries: preview.entries.map((e, i) => (i === 0 ? { ...e, status: 'conflict' as const } : e)) };
    assert.notEqual(await digest(canonicalJson(preview)), await digest(canonicalJson(tampered)));
  });
});
