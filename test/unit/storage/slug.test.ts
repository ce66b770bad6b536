import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../../../src/storage/config-store.js';
import { SERVER_ID_PATTERN } from '../../../src/protocol/server-id.js';

test('slugs use only [a-z0-9_-] and fold accents and case', () => {
  assert.equal(slugify('My GitHub  Server!'), 'my-github-server');
  assert.equal(slugify('Café Über_tool'), 'cafe-uber_tool');
  assert.equal(slugify('  --Ünïcödé--  '), 'unicode');
});

test('a name with nothing usable falls back to "server"', () => {
  assert.equal(slugify(''), 'server');
  assert.equal(slugify('日本語'), 'server');
  assert.equal(slugify('!!!', ['server']), 'server-2');
});

test('slugs are at most 32 characters, also with a suffix', () => {
  const long = 'a'.repeat(50);
  assert.equal(slugify(long).length, 32);
  const taken = [slugify(long)];
  const second = slugify(long, taken);
  assert.equal(second.length, 32);
  assert.ok(second.endsWith('-2'));
});

test('slugs are unique: -2, -3, … in order', () => {
  const taken: string[] = [];
  for (let i = 0; i < 12; i++) taken.push(slugify('Docs', taken));
  assert.equal(new Set(taken).size, 12);
  assert.deepEqual(taken.slice(0, 3), ['docs', 'docs-2', 'docs-3']);
  assert.equal(taken[11], 'docs-12');
});

test('every slug matches the stored id pattern', () => {
  const names = ['', ' ', 'x', 'A-B_C', '-_-', 'a'.repeat(40) + '-', 'tab\tnew\nline', '../../etc', 'ÆØÅ', '😀 emoji'];
  for (const name of names) {
    const id = slugify(name, ['server', 'x']);
    assert.match(id, SERVER_ID_PATTERN, `${JSON.stringify(name)} → ${id}`);
    assert.ok(!/^[-_]|[-_]$/.test(id.replace(/-\d+$/, '')), id);
  }
});
