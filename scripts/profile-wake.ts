/**
 * `npm run profile:wake`: what evaluating the service worker's script costs, the part of a cold
 * wake spent before the worker can read its configuration (docs/architecture.md "Cold wake").
 *
 * 1. Times `import('dist/sw.js')` (run `npm run build` first) in fresh Node processes under
 *    minimal `chrome` stubs, and prints the median.
 * 2. Profiles the same import of the sources, transpiled module by module (esbuild, unbundled) so
 *    each module's top-level work is its own frame, and prints the modules and functions that cost
 *    the most. Sources differ from the bundle a little (zod's Node build, the full English catalog,
 *    not minified), so the profile ranks costs; the timing is the number to compare.
 *
 * `--runs N` (default 15 timings, 5 profiles).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = process.cwd();
const outDir = resolve(root, 'test-output/profile-wake');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;

/**
 * The child: a `chrome` whose every member is a callable stub (calls resolve to `{}`), plus the few
 * values the worker reads synchronously; then the timed import. Start-up work after evaluation
 * (storage reads, the document claim) runs against the stubs and is not measured.
 */
const child = (entry: string) => `
const stub = (path) => new Proxy(function () {}, {
  get(_t, key) {
    if (key === 'then') return undefined;
    if (key === 'id') return 'profile';
    if (key === 'getManifest') return () => ({});
    if (key === 'getURL' || key === 'getRedirectURL') return (p = '') => 'chrome-extension://profile/' + p;
    return stub(path + '.' + String(key));
  },
  apply() { return Promise.resolve({}); },
});
globalThis.chrome = stub('chrome');
globalThis.indexedDB = stub('indexedDB');
// The worker's global scope: its top level adds a \`message\` listener (the offscreen data channel).
globalThis.self = globalThis;
globalThis.addEventListener = () => {};
process.on('unhandledRejection', () => {});
// Node loads its Web Crypto on first touch; a worker has it at once.
crypto.randomUUID();
const t0 = performance.now();
await import(${JSON.stringify(pathToFileURL(entry).href)});
process.stdout.write(String(performance.now() - t0));
setTimeout(() => process.exit(0), 50);
`;

function runChild(entry: string, extra: string[] = []): number {
  const r = spawnSync(process.execPath, [...extra, '--input-type=module', '-e', child(entry)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`evaluating ${entry} failed:\n${r.stderr}`);
  return Number(r.stdout);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timeBundle() {
  const bundle = resolve(root, 'dist/sw.js');
  const ms = Array.from({ length: runs }, () => runChild(bundle));
  const { size } = await import('node:fs').then((fs) => fs.statSync(bundle));
  console.log(
    `dist/sw.js (${(size / 1024).toFixed(1)} KiB): import p50 ${median(ms).toFixed(1)} ms, min ${Math.min(...ms).toFixed(1)} ms over ${runs} fresh processes`,
  );
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a source file, or a package under node_modules. */
function placeOf(url: string): string {
  if (!url.startsWith('file://')) return url || '(native)';
  const path = relative(outDir, new URL(url).pathname);
  const nm = path.lastIndexOf('node_modules/');
  return nm >= 0 ? path.slice(nm + 'node_modules/'.length) : path.replace(/\.js$/, '.ts');
}

async function profileSources() {
  await rm(outDir, { recursive: true, force: true });
  const sources = (await readdir(join(root, 'src'), { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => join(root, 'src', f));
  // Unbundled, so bare imports resolve from the worktree's node_modules beside test-output/.
  await build({
    entryPoints: sources,
    outdir: join(outDir, 'src'),
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'warning',
  });
  const profileRuns = Math.max(3, Math.round(runs / 3));
  const selfMs = new Map<string, number>();
  const moduleMs = new Map<string, number>();
  let totalMs = 0;
  for (let i = 0; i < profileRuns; i++) {
    const dir = join(outDir, `prof-${i}`);
    await mkdir(dir, { recursive: true });
    totalMs += runChild(join(outDir, 'src/sw/main.js'), ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', dir]);
    const [file] = await readdir(dir);
    const profile = JSON.parse(await readFile(join(dir, file!), 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    // Sample time per node, from the sample deltas (hitCount × interval is coarser).
    const nodeMs = new Map<number, number>();
    profile.samples.forEach((id, k) => nodeMs.set(id, (nodeMs.get(id) ?? 0) + (profile.timeDeltas[k + 1] ?? 0) / 1000));
    const subtree = (n: ProfileNode): number => (nodeMs.get(n.id) ?? 0) + (n.children ?? []).reduce((s, c) => s + subtree(byId.get(c)!), 0);
    for (const n of profile.nodes) {
      const f = n.callFrame;
      const place = placeOf(f.url);
      const key = `${f.functionName || '(top level)'}  ${place}${f.url.startsWith('file://') ? `:${f.lineNumber + 1}` : ''}`;
      // Node's own module loading (resolve, read, compile) is not what the worker pays for its code.
      if (!f.url.startsWith('node:')) selfMs.set(key, (selfMs.get(key) ?? 0) + (nodeMs.get(n.id) ?? 0));
      // A module's evaluation: its anonymous top-level frame (line 0); ESM evaluates modules as siblings.
      if (!f.functionName && f.lineNumber === 0 && f.url.includes('/src/')) moduleMs.set(place, (moduleMs.get(place) ?? 0) + subtree(n));
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / profileRuns).toFixed(2).padStart(7)} ms  ${k}`)
      .join('\n');
  const modulesTotal = [...moduleMs.values()].reduce((a, b) => a + b, 0) / profileRuns;
  console.log(
    `\nsources, profiled (${profileRuns} runs, per run): import ${(totalMs / profileRuns).toFixed(1)} ms, of which module top levels ${modulesTotal.toFixed(1)} ms`,
  );
  console.log(`modules by top-level cost (self + what they call while evaluating):\n${top(moduleMs, 20)}`);
  console.log(`functions by self time (Node's module loader left out):\n${top(selfMs, 20)}`);
}

await timeBundle();
await profileSources();
