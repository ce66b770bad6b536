import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanName, clientIdOf, nameFromUrl, readTimeout, scopeList, toolList } from '../../../src/import/entry-fields.js';
import { MAX_NAME_LENGTH, MAX_TIMEOUT_MS, MAX_TOOLS, MIN_TIMEOUT_MS } from '../../../src/import/limits.js';

test('a name loses its control characters and extra spaces and is bounded; a URL lends its host', () => {
  assert.equal(cleanName('  my\u0000\u001b server\t\n '), 'my server');
  assert.equal(cleanName('x'.repeat(MAX_NAME_LENGTH + 5)).length, MAX_NAME_LENGTH);
  assert.equal(nameFromUrl('https://Mcp.Example.com:8443/path'), 'mcp.example.com');
  assert.equal(nameFromUrl('not a url'), '');
  assert.equal(nameFromUrl(undefined), '');
});

test('a tool list is deduplicated; a malformed one is a reason to skip that names the field', () => {
  assert.equal(toolList(undefined, 'disabledTools'), undefined);
  assert.equal(toolList(null, 'disabledTools'), undefined);
  assert.deepEqual(toolList(['a', 'b', 'a'], 'disabledTools'), ['a', 'b']);
  const notList = toolList('a', 'includeTools');
  assert.ok(notList && !Array.isArray(notList));
  assert.match(notList.message, /includeTools/);
  const tooMany = toolList(
    Array.from({ length: MAX_TOOLS + 1 }, (_, i) => `t${i}`),
    'disabledTools',
  );
  assert.ok(tooMany && !Array.isArray(tooMany));
  const notText = toolList(['a', 3], 'disabledTools');
  assert.ok(notText && !Array.isArray(notText));
  assert.match(notText.message, /tool names must be text/);
});

test('scopes come from a space-separated string or a list, empty and odd items dropped', () => {
  assert.deepEqual(scopeList('read  write'), ['read', 'write']);
  assert.deepEqual(scopeList(['a', 3, '', 'b']), ['a', 'b']);
  assert.equal(scopeList(''), undefined);
  assert.equal(scopeList(42), undefined);
  assert.equal(scopeList(Array.from({ length: 100 }, (_, i) => `s${i}`))?.length, 64);
});

test('a client id is trimmed and bounded; blank or non-text is none', () => {
  assert.equal(clientIdOf('  abc '), 'abc');
  assert.equal(clientIdOf('x'.repeat(600))?.length, 512);
  assert.equal(clientIdOf('   '), undefined);
  assert.equal(clientIdOf(7), undefined);
});

test('a timeout is clamped to the stored bounds with a note; a non-number is ignored with a note', () => {
  const notes: string[] = [];
  assert.equal(readTimeout(undefined, notes), undefined);
  assert.equal(readTimeout(30_000, notes), 30_000);
  assert.deepEqual(notes, []);
  assert.equal(readTimeout(5, notes), MIN_TIMEOUT_MS);
  assert.equal(readTimeout(1e12, notes), MAX_TIMEOUT_MS);
  assert.equal(readTimeout('60s', notes), undefined);
  assert.equal(notes.length, 3);
  assert.match(notes[0]!, /timeout 5 ms changed to 1000 ms/);
  assert.match(notes[2]!, /timeout ignored/);
});
