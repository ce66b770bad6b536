/**
 * The soak (`npm run bench -- --soak`, 60 minutes; `--soak-minutes N` shortens it; the smoke run
 * ends with 2 minutes of it): what an hour of use does to the extension, as the issue's row asks —
 * calls lost, sessions opened, the offscreen document's heap growth (goals 0 / 5 / < 10 %).
 *
 * A scripted agent makes one tool call per second, round-robin over 5 demo servers that declare
 * list changes (so each holds a live session and its GET event stream). The agent lives in an
 * extension page, outside the worker, because the worker is stopped under it: every ~30 s it is
 * stopped the way Chrome's idle eviction does (a browser that never keeps DevTools on it), and the
 * agent's next call wakes it. Meanwhile a side panel is opened and closed every ~20 s, so panel
 * Ports come and go. Its own browser and server process, so nothing earlier in the bench leaks in.
 *
 * Every call is tagged (`echo` of `soak-<n>`) and followed: ended with the right result, ended with
 * an error (which), or never ended. The servers count what they ran per tag and the sessions they
 * opened: a call reported ok that a server ran twice or never, or a new session after setup (a
 * reconnect instead of an adopted session), is seen on the server's side, not inferred.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import { watchWorker, workerRunning } from '../test/support/worker-lifecycle.js';
import { addServers, offscreenHeap, offscreenPage, startRig, stopWorker, waitReady, type Rig } from './extension.js';
import { summarize, type Summary } from './stats.js';

const SERVERS = 5;
/** A call with neither a result nor an error this long after it started is lost. */
const CALL_TIMEOUT_MS = 30_000;
const CALL_EVERY_MS = 1000;
/** Worker stops every 25–35 s; a panel kept open 2–8 s, then closed for 10–20 s: one open every ~20 s. */
const STOP_EVERY_MS = [25_000, 35_000] as const;
const PANEL_EVERY_MS = [10_000, 20_000] as const;
const PANEL_OPEN_MS = [2000, 8000] as const;

const SOAK_PATH =
  'a scripted agent in an extension page (sidepanel.html, outside the worker): one `panel:call-tool` echo per second, ' +
  'round-robin over the servers, on a panel Port of its own reopened when the worker stopped (which wakes it) → worker → offscreen SDK → server';

/**
 * Page side of the agent (plain JS, installed beside BENCH_CODE, whose `call` it uses): `start`
 * sends one call and returns at once, so Node's schedule (not a page timer, which a hidden page
 * may throttle) sets the rate; each call's outcome is kept until Node reads it.
 */
const SOAK_CODE = String.raw`
globalThis.__soak = globalThis.__soak || {
  calls: [],
  start(seq, serverId) {
    const text = 'soak-' + seq;
    const c = { seq, serverId, at: Date.now(), ms: undefined, outcome: undefined, error: undefined };
    this.calls.push(c);
    const t0 = performance.now();
    globalThis.__bench.call(serverId, 'echo', { text }).then((r) => {
      c.ms = performance.now() - t0;
      const got = r && r.ok && r.value && r.value.content && r.value.content[0] && r.value.content[0].text;
      if (r && r.ok) { c.outcome = got === 'echo: ' + text ? 'ok' : 'wrong'; if (c.outcome === 'wrong') c.error = 'unexpected result: ' + JSON.stringify(r.value).slice(0, 200); }
      else { c.outcome = 'error'; c.error = r && r.error ? (r.error.code || '?') + ': ' + r.error.message : 'no envelope: ' + JSON.stringify(r); }
    }, (e) => { c.ms = performance.now() - t0; c.outcome = 'error'; c.error = String((e && e.message) || e); });
    return seq;
  },
  pending() { return this.calls.filter((c) => !c.outcome).length; },
  /** Hands the ended calls to Node and forgets them, so the records do not grow this page's heap (see sampleHeap). */
  take() { const done = this.calls.filter((c) => c.outcome); this.calls = this.calls.filter((c) => !c.outcome); return done; },
  counts() {
    const n = { ok: 0, error: 0, wrong: 0, pending: 0 };
    for (const c of this.calls) n[c.outcome || 'pending']++;
    return n;
  },
};
'installed';
`;

interface PageCall {
  seq: number;
  serverId: string;
  /** Epoch ms when the call was sent. */
  at: number;
  ms?: number;
  outcome?: 'ok' | 'wrong' | 'error';
  error?: string;
}

interface HeapSample {
  atSec: number;
  usedBytes: number;
  totalBytes: number;
  /** performance.timeOrigin of the offscreen document: another value means it was replaced. */
  document: number;
}

export interface SoakResult {
  path: string;
  minutes: number;
  /** Seconds of calls, and the wait after them for the last ones to end. */
  durationSeconds: number;
  drainSeconds: number;
  servers: number;
  calls: {
    made: number;
    ok: number;
    errors: number;
    /** Every kind of loss below, added up (goal 0). */
    lost: number;
    neverEnded: number;
    /** Ended, but after the timeout. */
    late: number;
    /** Reported ok with another result than its own echo. */
    wrongResult: number;
    /** Run more than once by the servers (any outcome). */
    ranTwice: number;
    /** Reported ok, but no server ran it. */
    okButNotRun: number;
    /** Run by a server other than the one it was sent to. */
    wrongServer: number;
    /** Errors whose call the server did run (the outcome was lost to the caller, not the work). */
    errorsServerRan: number;
    timeoutMs: number;
  };
  errorsByMessage: Record<string, number>;
  /** Every call that did not end ok (first 50), with the worker stop nearest to it. */
  problems: { seq: number; serverId: string; atSec: number; ms?: number; outcome: string; error?: string; nearestStopSec?: number }[];
  /** Round trip of the calls that ended ok. */
  okMs: Summary;
  sessions: {
    /** Sessions the servers opened over their whole life: setup's plus any during the soak (goal: one per server). */
    opened: number;
    atSetup: number;
    duringSoak: number;
    initializeRequests: number;
    perServer: number[];
    /** GET event streams the servers saw opened (a new worker's adopted session may reopen its stream). */
    eventStreams: number;
  };
  worker: {
    stopsDone: number;
    stopFailures: string[];
    stopMs: Summary;
    /** When each stop began (seconds into the soak), how long it took, and how many calls were out meanwhile (sent, not ended). */
    stops: { atSec: number; ms: number; inFlight: number }[];
    /** Worker starts and stops seen from target events during the soak (attaching to nothing). */
    startsSeen: number;
    stopsSeen: number;
  };
  panel: { opens: number; failures: string[] };
  heap: { samples: HeapSample[]; startBytes: number; endBytes: number; growth: number; sameDocument: boolean };
  goals: { lost: boolean; sessions: boolean; heap: boolean };
  extensionErrors: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = ([lo, hi]: readonly [number, number]) => lo + Math.random() * (hi - lo);

/** `--soak-minutes N` (or `=N`); else 60 for `--soak` and 2 for `--smoke`; undefined: no soak. */
export function soakMinutes(argv: string[], smoke: boolean): number | undefined {
  const arg = argv.find((a, i, all) => a.startsWith('--soak-minutes=') || all[i - 1] === '--soak-minutes');
  if (arg !== undefined) {
    const n = Number(arg.replace(/^--soak-minutes=/, ''));
    if (!(n > 0)) throw new Error(`--soak-minutes: expected a positive number of minutes, got "${arg}"`);
    return n;
  }
  return argv.includes('--soak') ? 60 : smoke ? 2 : undefined;
}

/** The soak's 5 servers in a child process of their own (bench/server-child.ts), and its stats lines. */
async function soakServers() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/server-child.ts', JSON.stringify([{ jsonResponse: false, count: SERVERS }])],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async <T>(line?: string): Promise<T> => {
    if (line) child.stdin.write(`${line}\n`);
    return JSON.parse((await lines.next()).value as string) as T;
  };
  const { urls } = await ask<{ urls: string[][] }>();
  type Stats = { toolCalls: number[]; sessionsOpened: number[]; initializeRequests: number[]; eventStreams: number[] };
  return {
    urls: urls[0]!,
    stats: () => ask<Stats>('stats'),
    echoes: async () => (await ask<{ echoes: string[][] }>('echoes')).echoes,
    close() {
      child.stdin.end();
      child.kill('SIGTERM');
    },
  };
}

/** Runs the soak for `minutes` and returns what it saw. Throws when the harness itself broke (no call ended ok, no stop, no panel). */
export async function runSoak(minutes: number, log: (m: string) => void): Promise<SoakResult> {
  const servers = await soakServers();
  let rig: Rig | undefined;
  try {
    rig = await startRig({ workerDevTools: false });
    const ids = servers.urls.map((_, i) => `s${i}`);
    await addServers(
      rig,
      ids.map((id, i) => ({ id, url: servers.urls[i]! })),
    );
    await waitReady(rig, ids);
    const setup = await servers.stats();
    const agent = rig.panel;
    await agent.evaluate(SOAK_CODE);
    // Warm-up, kept out of the counts: calls on every server, one stop and wake, calls again, so the
    // heap's first sample is taken after the adopt path and every lazy part of the call path ran once.
    const warm = async (list: string[]) => {
      for (const id of list) {
        const r = (await agent.evaluate(`globalThis.__bench.call(${JSON.stringify(id)}, 'echo', { text: 'warm' })`)) as { ok?: boolean };
        if (!r?.ok) throw new Error(`soak: a warm-up call on ${id} failed: ${JSON.stringify(r)}`);
      }
    };
    await warm([...ids, ...ids]);
    await stopWorker(rig);
    await warm(ids);
    log(`soak: ${minutes} min, ${SERVERS} servers, a call per second, worker stopped every ~30 s, panel opened every ~20 s`);
    return await soakLoop(rig, agent, ids, minutes, setup, servers, log);
  } finally {
    await rig?.close();
    servers.close();
  }
}

type Servers = Awaited<ReturnType<typeof soakServers>>;

async function soakLoop(
  rig: Rig,
  agent: Page,
  ids: string[],
  minutes: number,
  setup: Awaited<ReturnType<Servers['stats']>>,
  servers: Servers,
  log: (m: string) => void,
): Promise<SoakResult> {
  const watch = await watchWorker(rig.ext);
  const startsBefore = watch.starts;
  const stopsBefore = watch.stops;
  const t0 = Date.now();
  const end = t0 + minutes * 60_000;
  const sec = (epoch: number) => (epoch - t0) / 1000;
  // The side loops wait at most until the end, so the soak ends with its calls.
  const pause = (ms: number) => sleep(Math.max(0, Math.min(ms, end - Date.now())));
  const heap: HeapSample[] = [];
  // The offscreen document shares its renderer's V8 heap with the extension's other pages (the
  // agent's page, an open panel): CDP's heap usage counts the whole isolate. So a sample waits
  // until no extra panel is open (and the last one has had 3 s to go), the agent's page hands its
  // ended records to Node as it goes, and what remains beside the document is that one page.
  const panelState = { open: false, closedAt: 0, sampling: false };
  const ended: PageCall[] = [];
  const takeEnded = async () => ended.push(...((await agent.evaluate('globalThis.__soak.take()')) as PageCall[]));
  const sampleHeap = async () => {
    panelState.sampling = true;
    let h: { usedBytes: number; totalBytes: number };
    try {
      while (panelState.open || Date.now() - panelState.closedAt < 3000) await sleep(100);
      await takeEnded();
      h = await offscreenHeap(rig);
    } finally {
      panelState.sampling = false;
    }
    const document = (await (await offscreenPage(rig)).evaluate('performance.timeOrigin')) as number;
    heap.push({ atSec: sec(Date.now()), ...h, document });
  };
  await sampleHeap();
  const worker = { stops: [] as { atSec: number; ms: number }[], stopMs: [] as number[], failures: [] as string[] };
  const panel = { opens: 0, failures: [] as string[] };

  // The agent: call n is sent at t0 + n s whatever the previous ones are doing (an agent does not
  // wait for a stopped worker to answer before its next step), round-robin over the servers.
  const agentLoop = async () => {
    for (let seq = 0; t0 + seq * CALL_EVERY_MS < end; seq++) {
      const wait = t0 + seq * CALL_EVERY_MS - Date.now();
      if (wait > 0) await sleep(wait);
      await agent.evaluate(`globalThis.__soak.start(${seq}, ${JSON.stringify(ids[seq % ids.length])})`);
      if (seq > 0 && seq % 60 === 0) {
        await takeEnded();
        const n = (await agent.evaluate('globalThis.__soak.counts()')) as Record<string, number>;
        for (const c of ended) n[c.outcome!]!++;
        log(
          `soak +${(seq / 60).toFixed(0)} min: ${seq + 1} calls, ${n.ok} ok, ${n.error} errors, ${n.pending} pending; ` +
            `${worker.stops.length} worker stops, ${panel.opens} panel opens`,
        );
      }
    }
  };
  // Chrome's eviction, every ~30 s: wait until the worker is gone; the agent's next call wakes it.
  const stopLoop = async () => {
    for (;;) {
      await pause(between(STOP_EVERY_MS));
      // Stopped already (the call that wakes it is at most a second away): stop the next one.
      while (Date.now() < end && !(await workerRunning(rig.ext))) await pause(200);
      if (Date.now() >= end) return;
      try {
        const at = Date.now();
        const ms = await stopWorker(rig).then(() => Date.now() - at);
        worker.stopMs.push(ms);
        worker.stops.push({ atSec: sec(at), ms });
      } catch (e) {
        worker.failures.push(`${sec(Date.now()).toFixed(0)} s: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  // A side panel opened and closed again: its Port comes (waking the worker if stopped) and goes.
  const panelLoop = async () => {
    for (;;) {
      await pause(between(PANEL_EVERY_MS));
      if (Date.now() >= end) return;
      while (panelState.sampling) await sleep(100);
      if (Date.now() >= end) return;
      panelState.open = true;
      try {
        const page = await rig.ext.openPanel();
        panel.opens++;
        await pause(between(PANEL_OPEN_MS));
        await page.close();
      } catch (e) {
        panel.failures.push(`${sec(Date.now()).toFixed(0)} s: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        panelState.open = false;
        panelState.closedAt = Date.now();
      }
    }
  };
  const heapEvery = minutes >= 10 ? 300_000 : 30_000;
  const heapLoop = async () => {
    for (let next = t0 + heapEvery; next < end; next += heapEvery) {
      await sleep(next - Date.now());
      await sampleHeap();
    }
  };
  await Promise.all([agentLoop(), stopLoop(), panelLoop(), heapLoop()]);
  // The last calls get their whole timeout before anything still open counts as lost.
  const drainUntil = Date.now() + CALL_TIMEOUT_MS + 1000;
  while (Date.now() < drainUntil && ((await agent.evaluate('globalThis.__soak.pending()')) as number) > 0) await sleep(250);
  const durationSeconds = sec(Math.min(Date.now(), end));
  const drainSeconds = sec(Date.now()) - durationSeconds;
  const startsSeen = watch.starts - startsBefore;
  const stopsSeen = watch.stops - stopsBefore;
  await watch.close();
  await sampleHeap();
  const calls = [...ended, ...((await agent.evaluate('globalThis.__soak.calls')) as PageCall[])].sort((a, b) => a.seq - b.seq);
  const [after, echoes] = [await servers.stats(), await servers.echoes()];
  const result = judge({
    calls,
    echoes,
    ids,
    t0,
    setup,
    after,
    heap,
    worker,
    panel,
    minutes,
    durationSeconds,
    drainSeconds,
    startsSeen,
    stopsSeen,
    errors: rig.ext.errors,
  });
  if (result.calls.ok === 0)
    throw new Error(`soak: no call ended ok (${result.calls.made} made): ${JSON.stringify(result.errorsByMessage)}`);
  if (result.worker.stopsDone === 0) throw new Error(`soak: the worker was never stopped (${worker.failures.join('; ')})`);
  if (result.panel.opens === 0) throw new Error(`soak: the panel never opened (${panel.failures.join('; ')})`);
  return result;
}

/** From the agent's records and the servers' own counts to the soak's figures. */
function judge(x: {
  calls: PageCall[];
  echoes: string[][];
  ids: string[];
  t0: number;
  setup: { sessionsOpened: number[]; initializeRequests: number[]; eventStreams: number[] };
  after: { sessionsOpened: number[]; initializeRequests: number[]; eventStreams: number[] };
  heap: HeapSample[];
  worker: { stops: { atSec: number; ms: number }[]; stopMs: number[]; failures: string[] };
  panel: { opens: number; failures: string[] };
  minutes: number;
  durationSeconds: number;
  drainSeconds: number;
  startsSeen: number;
  stopsSeen: number;
  errors: string[];
}): SoakResult {
  // Which server ran each tag, how often.
  const ran = new Map<string, string[]>();
  x.echoes.forEach((texts, i) => {
    for (const t of texts) if (t.startsWith('soak-')) ran.set(t, [...(ran.get(t) ?? []), x.ids[i]!]);
  });
  const c = { neverEnded: 0, late: 0, wrongResult: 0, ranTwice: 0, okButNotRun: 0, wrongServer: 0, errorsServerRan: 0 };
  const errorsByMessage: Record<string, number> = {};
  const problems: SoakResult['problems'] = [];
  const nearestStop = (atSec: number) =>
    x.worker.stops.reduce<number | undefined>(
      (best, s) => (best === undefined || Math.abs(s.atSec - atSec) < Math.abs(best - atSec) ? s.atSec : best),
      undefined,
    );
  let lostCalls = 0;
  for (const call of x.calls) {
    const by = ran.get(`soak-${call.seq}`) ?? [];
    const late = call.outcome !== undefined && call.ms! > CALL_TIMEOUT_MS;
    const kinds: [boolean, keyof typeof c, string][] = [
      [!call.outcome, 'neverEnded', 'never ended'],
      [late, 'late', 'late'],
      [call.outcome === 'wrong', 'wrongResult', 'wrong result'],
      [by.length > 1, 'ranTwice', `ran ${by.length} times`],
      [call.outcome === 'ok' && by.length === 0, 'okButNotRun', 'ok but never run'],
      [by.some((s) => s !== call.serverId), 'wrongServer', `run by ${by.join(', ')}`],
    ];
    const lost = kinds.filter(([hit]) => hit);
    for (const [, key] of lost) c[key]++;
    if (lost.length) lostCalls++;
    if (call.outcome === 'error') {
      errorsByMessage[call.error ?? '?'] = (errorsByMessage[call.error ?? '?'] ?? 0) + 1;
      if (by.length > 0) c.errorsServerRan++;
    }
    if ((call.outcome !== 'ok' || lost.length) && problems.length < 50) {
      const atSec = (call.at - x.t0) / 1000;
      const stop = nearestStop(atSec);
      problems.push({
        seq: call.seq,
        serverId: call.serverId,
        atSec,
        ...(call.ms !== undefined ? { ms: call.ms } : {}),
        outcome: [call.outcome ?? 'pending', ...lost.map(([, , what]) => what)].join(', '),
        ...(call.error ? { error: call.error } : {}),
        ...(stop !== undefined ? { nearestStopSec: stop } : {}),
      });
    }
  }
  const sum = (a: number[]) => a.reduce((p, q) => p + q, 0);
  const opened = sum(x.after.sessionsOpened);
  const start = x.heap[0]!;
  const last = x.heap[x.heap.length - 1]!;
  const growth = (last.usedBytes - start.usedBytes) / start.usedBytes;
  const ok = x.calls.filter((call) => call.outcome === 'ok');
  return {
    path: SOAK_PATH,
    minutes: x.minutes,
    durationSeconds: x.durationSeconds,
    drainSeconds: x.drainSeconds,
    servers: x.ids.length,
    calls: {
      made: x.calls.length,
      ok: ok.length,
      errors: x.calls.filter((call) => call.outcome === 'error').length,
      lost: lostCalls,
      ...c,
      timeoutMs: CALL_TIMEOUT_MS,
    },
    errorsByMessage,
    problems,
    okMs: summarize(ok.map((call) => call.ms!)),
    sessions: {
      opened,
      atSetup: sum(x.setup.sessionsOpened),
      duringSoak: opened - sum(x.setup.sessionsOpened),
      initializeRequests: sum(x.after.initializeRequests),
      perServer: x.after.sessionsOpened,
      eventStreams: sum(x.after.eventStreams) - sum(x.setup.eventStreams),
    },
    worker: {
      stopsDone: x.worker.stops.length,
      stopFailures: x.worker.failures,
      stopMs: summarize(x.worker.stopMs),
      stops: x.worker.stops.map((st) => ({
        ...st,
        inFlight: x.calls.filter((call) => {
          const from = (call.at - x.t0) / 1000;
          return from <= st.atSec + st.ms / 1000 && (call.ms === undefined || from + call.ms / 1000 >= st.atSec);
        }).length,
      })),
      startsSeen: x.startsSeen,
      stopsSeen: x.stopsSeen,
    },
    panel: x.panel,
    heap: {
      samples: x.heap,
      startBytes: start.usedBytes,
      endBytes: last.usedBytes,
      growth,
      sameDocument: x.heap.every((h) => h.document === start.document),
    },
    goals: { lost: lostCalls === 0, sessions: opened === x.ids.length, heap: growth < 0.1 },
    extensionErrors: x.errors.slice(0, 10),
  };
}

const mib = (n: number) => (n / 1048576).toFixed(2);
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

/** The report's "Soak" section (bench/report.ts). */
export function soakMarkdown(s: SoakResult): string[] {
  const k = s.calls;
  const errors = Object.entries(s.errorsByMessage)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${n} × ${m}`);
  const lostKinds = (
    [
      ['never ended', k.neverEnded],
      [`ended after ${k.timeoutMs / 1000} s`, k.late],
      ['wrong result', k.wrongResult],
      ['run twice by a server', k.ranTwice],
      ['reported ok, never run', k.okButNotRun],
      ['run by another server', k.wrongServer],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([m, n]) => `${n} ${m}`);
  return [
    `## Soak: ${s.minutes} min, ${s.servers} servers, a call per second, the worker stopped every ~30 s, a panel opened every ~20 s`,
    '',
    `Path: ${s.path}. Calls for ${(s.durationSeconds / 60).toFixed(1)} min, then ${s.drainSeconds.toFixed(1)} s until the last ended (at most ${k.timeoutMs / 1000} s).`,
    '',
    '| Measure | value | goal | met |',
    '|---|---:|---|---|',
    `| calls made | ${k.made} | | |`,
    `| … ended ok | ${k.ok} (p50 ${s.okMs.p50.toFixed(1)} ms, p95 ${s.okMs.p95.toFixed(1)} ms) | | |`,
    `| … ended with an error (the call reported failed, not lost) | ${k.errors}${k.errors ? ` (${k.errorsServerRan} of them run by the server)` : ''} | | |`,
    `| calls lost (no result or error within ${k.timeoutMs / 1000} s, or run twice / never / elsewhere against the servers' own counts) | ${k.lost}${lostKinds.length ? ` (${lostKinds.join(', ')})` : ''} | 0 | ${met(s.goals.lost)} |`,
    `| sessions opened by the servers (${s.sessions.atSetup} at setup, ${s.sessions.duringSoak} during the soak; ${s.sessions.initializeRequests} \`initialize\` requests) | ${s.sessions.opened} | ${s.servers} | ${met(s.goals.sessions)} |`,
    `| worker stops done (${s.worker.stops.filter((x) => x.inFlight > 0).length} with a call in flight, ${s.worker.stopFailures.length} failed; ${s.worker.stopsSeen} stops and ${s.worker.startsSeen} starts seen; stop took p50 ${s.worker.stopMs.p50.toFixed(0)} ms) | ${s.worker.stopsDone} | | |`,
    `| panel opens (and closes)${s.panel.failures.length ? `, ${s.panel.failures.length} failed` : ''} | ${s.panel.opens} | | |`,
    `| GET event streams opened during the soak | ${s.sessions.eventStreams} | | |`,
    `| offscreen document's JS heap after a forced GC, no panel open (its renderer's isolate: the agent's page too): start → end (${s.heap.samples.length} samples${s.heap.sameDocument ? '' : '; **the document was replaced**'}) | ${mib(s.heap.startBytes)} → ${mib(s.heap.endBytes)} MiB (${(s.heap.growth * 100).toFixed(1)} %) | < 10 % | ${met(s.goals.heap)} |`,
    ...(errors.length ? ['', `Errors: ${errors.join('; ')}.`] : []),
    ...(s.problems.length
      ? [
          '',
          `Calls that did not end ok (first ${Math.min(10, s.problems.length)} of ${s.problems.length}${s.problems.length === 50 ? '+' : ''}, the JSON keeps 50): ` +
            s.problems
              .slice(0, 10)
              .map(
                (p) =>
                  `#${p.seq} to ${p.serverId} at ${p.atSec.toFixed(1)} s: ${p.outcome}${p.ms !== undefined ? ` after ${p.ms.toFixed(0)} ms` : ''}` +
                  `${p.error ? ` (${p.error})` : ''}${p.nearestStopSec !== undefined ? `, nearest worker stop at ${p.nearestStopSec.toFixed(1)} s` : ''}`,
              )
              .join('; ') +
            '.',
        ]
      : []),
    ...(s.worker.stopFailures.length ? ['', `Worker stops that failed: ${s.worker.stopFailures.join('; ')}.`] : []),
    ...(s.panel.failures.length ? ['', `Panel opens that failed: ${s.panel.failures.join('; ')}.`] : []),
    ...(s.extensionErrors.length ? ['', `Errors logged by extension pages during the soak: ${s.extensionErrors.join(' | ')}`] : []),
  ];
}

/**
 * `--soak` alone: the soak's own files, bench/results/soak.{json,md} for the full hour (the
 * committed result), test-output/bench/soak.* for a shortened trial.
 */
export async function soakAlone(minutes: number, log: (m: string) => void): Promise<void> {
  const startedAt = new Date().toISOString();
  const soak = await runSoak(minutes, log);
  const dir = minutes >= 60 ? 'bench/results' : 'test-output/bench';
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/soak.json`, JSON.stringify({ startedAt, soak }, null, 2));
  const md = [`# Bench soak`, '', `${startedAt}.`, '', ...soakMarkdown(soak)].join('\n') + '\n';
  await writeFile(`${dir}/soak.md`, md);
  console.log(`\n${md}`);
  log(`done; wrote ${dir}/soak.json and .md`);
}
