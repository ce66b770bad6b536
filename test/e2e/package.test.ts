/**
 * V1: `npm run package` (with the `dist/` this run built) writes a store-ready zip and the store
 * texts in both languages; the zip loads in Chromium as an unpacked extension with no pinned
 * `key` (so it gets an id of its own, as a store install does) and opens its side panel; the
 * store texts justify every permission the manifest asks for; SHA256SUMS matches the files;
 * PRIVACY.md is the rendered privacy statement.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import puppeteer, { TargetType, type Browser } from 'puppeteer-core';
import { chromiumPath, waitFor } from '../support/browser.js';
import { unzip } from '../support/unzip.js';

interface Manifest {
  version: string;
  key?: string;
  permissions: string[];
  optional_host_permissions: string[];
  default_locale: string;
}

let work: string;
let release: string;
let files: Map<string, Buffer>;
let browser: Browser | undefined;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'remote-mcp-package-'));
  release = join(work, 'release');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/package.ts', '--no-build'], {
    env: { ...process.env, RELEASE_DIR: release, PRIVACY_FILE: join(work, 'PRIVACY.md') },
    stdio: 'pipe',
  });
  const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
  files = unzip(await readFile(join(release, `remote-mcp-for-chrome-${version}.zip`)));
});

after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

function manifestOf(): Manifest {
  const text = files.get('manifest.json');
  assert.ok(text, 'the zip has a manifest.json at its root');
  return JSON.parse(text.toString('utf8')) as Manifest;
}

describe('npm run package (V1)', () => {
  it('zips dist/ with the store manifest: same version as package.json, no pinned key, both locales', async () => {
    const manifest = manifestOf();
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    assert.equal(manifest.version, version);
    assert.equal(manifest.key, undefined, 'the store assigns the id: no key in the upload');
    const dev = JSON.parse(await readFile('dist/manifest.json', 'utf8')) as Manifest;
    assert.ok(dev.key, 'the development build keeps its key');
    for (const file of [
      'sw.js',
      'offscreen.js',
      'sidepanel.html',
      'app-sandbox.html',
      '_locales/en/messages.json',
      '_locales/zh_CN/messages.json',
    ])
      assert.ok(files.has(file), `${file} is packaged`);
    for (const name of files.keys()) assert.ok(!name.endsWith('.map') && !name.includes('..'), `${name} belongs in the package`);
  });

  it('writes the store texts in en and zh_CN, each justifying every permission and carrying the privacy statement', async () => {
    const manifest = manifestOf();
    for (const [locale, privacy, purpose] of [
      ['en', '## Privacy', '## Single purpose'],
      ['zh_CN', '## 隐私', '## Single purpose'],
    ] as const) {
      const text = await readFile(join(release, 'store', locale, 'listing.md'), 'utf8');
      const messages = JSON.parse(files.get(`_locales/${locale}/messages.json`)!.toString('utf8')) as Record<string, { message: string }>;
      assert.ok(text.startsWith(`# ${messages.extName!.message}\n`), `${locale}: the name is the extension's own`);
      assert.ok(text.includes(`Summary: ${messages.extDescription!.message}`), `${locale}: the summary is the manifest's description`);
      assert.ok(messages.extDescription!.message.length <= 132, 'the store caps the summary at 132 characters');
      assert.ok(text.includes(purpose) && text.includes(privacy), `${locale}: single purpose and privacy sections`);
      for (const permission of [...manifest.permissions, ...manifest.optional_host_permissions])
        assert.match(
          text,
          new RegExp(`- \`${permission.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`: \\S`),
          `${locale}: ${permission} is justified`,
        );
    }
  });

  it('SHA256SUMS lists every release file with its digest', async () => {
    const sums = (await readFile(join(release, 'SHA256SUMS'), 'utf8')).trim().split('\n');
    const listed = new Set<string>();
    for (const line of sums) {
      const [digest, name] = line.split('  ');
      assert.ok(digest && name, line);
      const actual = createHash('sha256')
        .update(await readFile(join(release, name)))
        .digest('hex');
      assert.equal(digest, actual, name);
      listed.add(name);
    }
    const all = (await readdir(release, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name !== 'SHA256SUMS')
      .map((e) => join(e.parentPath, e.name).slice(release.length + 1));
    assert.deepEqual([...listed].sort(), all.sort());
  });

  it('PRIVACY.md is the rendered privacy statement (edit scripts/store/listing.ts, then npm run package)', async () => {
    assert.equal(await readFile('PRIVACY.md', 'utf8'), await readFile(join(work, 'PRIVACY.md'), 'utf8'));
  });

  it('the unpacked zip loads in Chromium under an id of its own and opens its side panel', async () => {
    const ext = join(work, 'unpacked');
    for (const [name, data] of files) {
      await mkdir(dirname(join(ext, name)), { recursive: true });
      await writeFile(join(ext, name), data);
    }
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      pipe: true,
      userDataDir: join(work, 'profile'),
      ignoreDefaultArgs: ['--disable-extensions'],
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
    });
    const worker = await browser.waitForTarget((t) => t.type() === TargetType.SERVICE_WORKER && t.url().endsWith('/sw.js'), {
      timeout: 20_000,
    });
    const id = new URL(worker.url()).host;
    assert.match(id, /^[a-p]{32}$/);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`chrome-extension://${id}/sidepanel.html`);
    await waitFor(page, 'mcp-add-server');
    assert.equal(await page.evaluate(() => chrome.runtime.getManifest().key), undefined);
    assert.deepEqual(errors, []);
  });
});
