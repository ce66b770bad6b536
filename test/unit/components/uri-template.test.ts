/** SPEC G3/R8: a resource template's variables and the URI the user's values make (RFC 6570 levels 1–3). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandTemplate, templateVariables } from '../../../src/components/uri-template.js';

test('the variables a template names, in order, without repeats or modifiers', () => {
  assert.deepEqual(templateVariables('demo://notes/{id}'), ['id']);
  assert.deepEqual(templateVariables('repo://{owner}/{repo}/blob{/path*}{?ref,lang}{#frag}'), [
    'owner',
    'repo',
    'path',
    'ref',
    'lang',
    'frag',
  ]);
  assert.deepEqual(templateVariables('x://{a}/{a}/{b:3}'), ['a', 'b']);
  assert.deepEqual(templateVariables('no variables'), []);
  // N: a hostile template yields bounded, plain names.
  assert.deepEqual(templateVariables('{<script>}{a b}'), []);
  assert.equal(templateVariables(Array.from({ length: 100 }, (_, i) => `{v${i}}`).join('')).length, 16);
});

test('values are encoded by operator; empty named parts are left out', () => {
  assert.equal(expandTemplate('demo://notes/{id}', { id: 'a b/c' }), 'demo://notes/a%20b%2Fc');
  assert.equal(expandTemplate('file://{+path}', { path: 'src/a b.ts' }), 'file://src/a%20b.ts');
  assert.equal(expandTemplate('x://s{?q,lang}', { q: 'hi there', lang: '' }), 'x://s?q=hi%20there');
  assert.equal(expandTemplate('x://s{?q,lang}', {}), 'x://s');
  assert.equal(expandTemplate('x://{a}{/b}{.c}{#d}', { a: '1', b: '2', c: 'json', d: 'top' }), 'x://1/2.json#top');
});
