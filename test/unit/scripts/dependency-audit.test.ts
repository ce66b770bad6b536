/**
 * The build's dependency audit (scripts/dependency-audit.ts): packages are attributed from
 * rollup module ids, the allowlist follows the real dependency tree, and a package outside it or
 * under a non-permissive license is an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, sep } from 'node:path';
import {
  auditBundles,
  auditMarkdown,
  licenseAllowed,
  ownFolderOf,
  packageDirOf,
  runtimeAllowlist,
} from '../../../scripts/dependency-audit.js';

const root = process.cwd();
const mod = (...parts: string[]) => join(root, 'node_modules', ...parts);

test('a module id is attributed to its package root, scoped or not, and virtual modules to nobody', () => {
  assert.equal(packageDirOf(mod('@modelcontextprotocol', 'sdk', 'dist', 'esm', 'client', 'index.js')), mod('@modelcontextprotocol', 'sdk'));
  assert.equal(packageDirOf(`\0${mod('zod', 'v4', 'core', 'core.js')}?commonjs-proxy`), mod('zod'));
  assert.equal(packageDirOf(join(root, 'src', 'sw', 'main.ts')), undefined);
  assert.equal(packageDirOf('\0ajv-provider-stub'), undefined);
  assert.ok(!packageDirOf(`x${sep}node_modules${sep}`));
});

test('the allowlist is the runtime dependencies and what they need, not dev tools', () => {
  const list = runtimeAllowlist(root);
  for (const name of [
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/client',
    '@modelcontextprotocol/core',
    'zod',
    '@cfworker/json-schema',
    'pkce-challenge',
    'eventsource-parser',
  ])
    assert.ok(list.includes(name), name);
  for (const name of ['rollup', 'puppeteer-core', 'typescript', 'oidc-provider']) assert.ok(!list.includes(name), name);
});

test('a package outside the allowlist fails the audit, and is reported with its version', () => {
  const bundle = {
    file: 'x.js',
    bytes: 100,
    modules: [
      { id: mod('zod', 'v4', 'mini', 'index.js'), renderedLength: 200 },
      { id: join(root, 'src', 'a.ts'), renderedLength: 50 },
    ],
  };
  const withoutZod = auditBundles([bundle], runtimeAllowlist(root, ['@cfworker/json-schema']));
  assert.equal(withoutZod.errors.length, 1);
  assert.match(withoutZod.errors[0]!, /x\.js contains zod@\d+\.\d+\.\d+, which is not a runtime dependency/);
  const ok = auditBundles([bundle], runtimeAllowlist(root));
  assert.deepEqual(ok.errors, []);
  assert.equal(ok.bundles[0]!.ownRenderedBytes, 50);
  assert.equal(ok.bundles[0]!.packages[0]!.minifiedBytesEstimate, 80);
});

test('licenses: permissive ones pass, copyleft and unknown ones fail, SPDX OR/AND are honoured', () => {
  for (const l of ['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', '(MIT OR GPL-3.0)', 'MIT AND ISC'])
    assert.ok(licenseAllowed(l), l);
  for (const l of ['GPL-3.0', 'UNKNOWN', 'MIT AND GPL-2.0', 'SEE LICENSE IN LICENSE']) assert.ok(!licenseAllowed(l), l);
});

test('our own code is reported by source folder, largest first, in the report too', () => {
  assert.equal(ownFolderOf(join(root, 'src', 'sw', 'manager', 'mcp-manager.ts')), 'src/sw/manager');
  assert.equal(ownFolderOf(join(root, 'src', 'sw', 'main.ts')), 'src/sw');
  assert.equal(ownFolderOf(join(root, 'src', 'protocol', 'offscreen.ts')), 'src/protocol');
  assert.equal(ownFolderOf('\0rollup-virtual'), '(other)');
  const audit = auditBundles(
    [
      {
        file: 'sw.js',
        bytes: 100,
        modules: [
          { id: join(root, 'src', 'sw', 'main.ts'), renderedLength: 20 },
          { id: join(root, 'src', 'sw', 'manager', 'a.ts'), renderedLength: 50 },
          { id: join(root, 'src', 'sw', 'manager', 'b.ts'), renderedLength: 30 },
        ],
      },
    ],
    runtimeAllowlist(root),
  );
  assert.deepEqual(
    audit.bundles[0]!.ownByFolder.map((f) => [f.folder, f.renderedBytes, f.minifiedBytesEstimate]),
    [
      ['src/sw/manager', 80, 80],
      ['src/sw', 20, 20],
    ],
  );
  assert.match(auditMarkdown(audit), /\| src\/sw\/manager \| 0\.1 \| 0\.1 \|/);
});
