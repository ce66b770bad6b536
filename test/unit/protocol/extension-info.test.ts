import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EXTENSION_INFO } from '../../../src/protocol/extension-info.js';

const json = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as { version: string; name: string };

test('the version the extension names itself with is the manifest and package version', () => {
  assert.equal(EXTENSION_INFO.version, json('manifest.json').version);
  assert.equal(EXTENSION_INFO.version, json('package.json').version);
  assert.equal(EXTENSION_INFO.name, json('package.json').name);
});
