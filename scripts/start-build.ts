/**
 * `npm start`'s build step: rebuilds `dist/` only when its inputs changed since the build
 * `npm start` last made (a digest of the sources, static files, manifest, lockfile and build
 * scripts, kept under node_modules/.cache), so a second start is ready in seconds. The build's
 * own output is kept back unless it fails, so the newcomer sees what matters.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const INPUTS = [
  'src',
  'static',
  'manifest.json',
  'package-lock.json',
  'rollup.config.mjs',
  'scripts/build.ts',
  'scripts/dependency-audit.ts',
  'scripts/reason-catalog.ts',
];
const STAMP = 'node_modules/.cache/remote-mcp/start-build.json';
let building: ChildProcess | undefined;

/** Ctrl+C during the build stops the build too. */
export function stopBuild(): void {
  building?.kill();
}

async function filesOf(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => undefined);
  if (!entries) return [path];
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

export async function inputsDigest(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(INPUTS.map(filesOf))).flat().sort();
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex');
}

/** Builds when needed; resolves with what it did, for the start-up summary. */
export async function buildIfChanged(outDir: string): Promise<{ built: boolean; seconds: number }> {
  const started = Date.now();
  const digest = await inputsDigest();
  const stamp = (await readFile(STAMP, 'utf8').catch(() => '')) || '{}';
  const fresh = existsSync(join(outDir, 'manifest.json')) && (JSON.parse(stamp) as { digest?: string; outDir?: string }).digest === digest;
  if (fresh && !process.argv.includes('--rebuild')) return { built: false, seconds: 0 };
  process.stdout.write('Building dist/ (first start or changed sources; about a minute on 2 cores)… ');
  await new Promise<void>((resolve, reject) => {
    building = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/build.ts'],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve();
        process.stdout.write('failed:\n');
        process.stderr.write(stdout + stderr);
        reject(new Error('The build failed', { cause: error }));
      },
    );
  });
  building = undefined;
  await mkdir('node_modules/.cache/remote-mcp', { recursive: true });
  await writeFile(STAMP, JSON.stringify({ digest, outDir }));
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`done in ${seconds} s.\n`);
  return { built: true, seconds };
}
