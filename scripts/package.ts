/**
 * `npm run package`: the release a user or the Chrome Web Store takes (V1). Builds `dist/` (skip
 * with `--no-build` when it is fresh), then writes to `release/`:
 * - `remote-mcp-for-chrome-<version>.zip`: `dist/` with the store's manifest — the pinned `key`
 *   removed, since the store assigns the extension its own id and refuses a `key` in uploads;
 * - `store/<locale>/listing.md` for every shipped language (name, summary, description, single
 *   purpose, a justification for each permission, privacy statement), from scripts/store/listing.ts;
 * - with `--screenshots`, the 1280×800 store screenshots (scripts/store-screenshots.ts);
 * - `SHA256SUMS` over everything above, in `sha256sum -c` format.
 * It also rewrites PRIVACY.md from the same statement. The zip is deterministic: the same `dist/`
 * gives the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { STORE_LISTINGS } from './store/listing.js';
import { renderListing, renderPrivacyFile } from './store/render.js';
import { zip, type ZipFile } from './zip-writer.js';

const dist = process.env.OUT_DIR || 'dist';
const release = process.env.RELEASE_DIR || 'release';
/** The test points this elsewhere to compare the rendered statement with the committed file. */
const privacyFile = process.env.PRIVACY_FILE || 'PRIVACY.md';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The manifest as the store takes it: everything but the development `key`. */
export function storeManifest(text: string): string {
  const { key: _key, ...manifest } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(manifest, null, 2);
}

async function packageFiles(): Promise<ZipFile[]> {
  const files: ZipFile[] = [];
  for (const file of await filesUnder(dist)) {
    const path = relative(dist, file).split(sep).join('/');
    const data = await readFile(file);
    files.push({ path, data: path === 'manifest.json' ? Buffer.from(storeManifest(data.toString('utf8'))) : data });
  }
  return files;
}

async function writeStoreTexts(): Promise<string[]> {
  const written: string[] = [];
  for (const [locale, listing] of Object.entries(STORE_LISTINGS)) {
    const path = join(release, 'store', locale, 'listing.md');
    await mkdir(join(release, 'store', locale), { recursive: true });
    await writeFile(path, renderListing(listing));
    written.push(path);
  }
  await writeFile(privacyFile, renderPrivacyFile(Object.values(STORE_LISTINGS)));
  return written;
}

async function writeSums(paths: string[]) {
  const lines: string[] = [];
  for (const path of paths.sort()) {
    const digest = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    lines.push(`${digest}  ${relative(release, path).split(sep).join('/')}`);
  }
  await writeFile(join(release, 'SHA256SUMS'), `${lines.join('\n')}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  if (!args.includes('--no-build')) execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
  const { version } = JSON.parse(await readFile(join(dist, 'manifest.json'), 'utf8')) as { version: string };
  await rm(release, { recursive: true, force: true });
  await mkdir(release, { recursive: true });
  const zipPath = join(release, `remote-mcp-for-chrome-${version}.zip`);
  await writeFile(zipPath, zip(await packageFiles()));
  const outputs = [zipPath, ...(await writeStoreTexts())];
  if (args.includes('--screenshots')) {
    const { storeScreenshots } = await import('./store-screenshots.js');
    outputs.push(...(await storeScreenshots(join(release, 'store', 'screenshots'))));
  }
  await writeSums(outputs);
  console.log(`Wrote ${release}/: ${outputs.map((p) => relative(release, p)).join(', ')}, SHA256SUMS`);
}

await main();
