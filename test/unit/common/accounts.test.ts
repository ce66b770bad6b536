import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anotherAccountName, duplicateOf, otherAccountsOf, sameName } from '../../../src/common/accounts.js';

const saved = [
  { id: 'github', name: 'GitHub', url: 'https://gh.example/mcp' },
  { id: 'github-2', name: 'GitHub (2)', url: 'HTTPS://GH.example/mcp/' },
  { id: 'docs', name: 'Docs', url: 'https://docs.example/mcp' },
];

test('the same canonical URL under the same name (case and spaces aside) is a duplicate; another name is another account (S3)', () => {
  assert.equal(duplicateOf(saved, { name: ' github ', url: 'https://gh.example/mcp' })?.id, 'github');
  assert.equal(duplicateOf(saved, { name: 'GitHub work', url: 'https://gh.example/mcp' }), undefined);
  assert.equal(duplicateOf(saved, { name: 'GitHub', url: 'https://other.example/mcp' }), undefined, 'a name alone is no duplicate');
  assert.ok(sameName('Ä b', ' ä B '));
});

test('an entry is not its own duplicate or its own other account (an edit keeps its name)', () => {
  assert.equal(duplicateOf(saved, { id: 'github', name: 'GitHub', url: 'https://gh.example/mcp' }), undefined);
  assert.equal(
    duplicateOf(saved, { id: 'github-2', name: 'github', url: 'https://gh.example/mcp' })?.id,
    'github',
    'renaming onto a sibling is refused',
  );
  assert.deepEqual(
    otherAccountsOf(saved, { id: 'github', name: 'GitHub', url: 'https://gh.example/mcp' }).map((s) => s.id),
    ['github-2'],
  );
  assert.deepEqual(
    otherAccountsOf(saved, { name: 'new', url: 'https://gh.example/mcp' }).map((s) => s.id),
    ['github', 'github-2'],
  );
  assert.deepEqual(otherAccountsOf(saved, { id: 'docs', name: 'Docs', url: 'https://docs.example/mcp' }), []);
});

test('the proposed name for another account is the first numbered one not taken', () => {
  assert.equal(anotherAccountName('GitHub', saved), 'GitHub (3)');
  assert.equal(anotherAccountName('GitHub (2)', saved), 'GitHub (3)', 'a numbered name is not numbered twice');
  assert.equal(anotherAccountName('Docs', saved), 'Docs (2)');
  assert.equal(anotherAccountName('  Docs  ', []), 'Docs (2)');
});
