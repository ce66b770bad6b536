/**
 * `npm run bench` (performance: docs/architecture.md): what the extension's path costs compared with the SDK used directly
 * from Node, measured in one run, interleaved (A B A B) after a warm-up, so every ratio compares
 * numbers taken under the same machine load. `--smoke` runs every phase briefly (goals are
 * reported, never asserted) so the bench cannot rot. Needs a built extension in OUT_DIR (default
 * dist); builds it when missing. Writes bench/results/latest.{json,md}.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { availableParallelism, loadavg } from 'node:os';
import { median, ratioOf, summarize } from './stats.js';
import { h2Fetch, nodeFetchBatch, nodeSdkBatch, sdkClient, sdkColdCall, sdkConcurrent } from './node-clients.js';
import {
  addServers,
  contextSessions,
  offscreenHeap,
  offscreenPage,
  startRig,
  stopWorker,
  waitReady,
  workerMarks,
  workerWithBench,
  type Rig,
} from './extension.js';
import { benchChat, REMOTE_FIRST_BYTE_MS } from './chat.js';
import { markdown, type Results } from './report.js';
import { throwawayCert } from './tls.js';
import { profileAround, profiling, withProfiler } from './profile.js';
import { sdkFloorBatch, sdkFloorConcurrent, withSdkFloor } from './sdk-floor.js';
import { runSoak, soakAlone, soakMinutes } from './soak.js';

const smoke = process.argv.includes('--smoke');
/** The soak (bench/soak.ts): `--soak` runs it alone, 60 minutes; the smoke run ends with 2; `--soak-minutes N`. */
const soak = soakMinutes(process.argv, smoke);
/**
 * `--only agent,cold` runs just those phases (a focused measurement while working on one cost):
 * `latency` (every echo variant), `agent` (the agent path beside the bare offscreen fetch and the
 * panel path), `chat` (first token and tool steps of the chat), `cold`, `concurrency`, `panel`. A partial run writes test-output/bench/only.{json,md}.
 */
const onlyArg = process.argv.find((a, i, all) => a.startsWith('--only=') || all[i - 1] === '--only');
const only = onlyArg ? onlyArg.replace(/^--only=/, '').split(',') : undefined;
const PHASES = ['latency', 'agent', 'chat', 'cold', 'concurrency', 'panel'];
for (const p of only ?? []) if (!PHASES.includes(p)) throw new Error(`--only: unknown phase "${p}" (one of ${PHASES.join(', ')})`);
const want = (phase: string) => !only || only.includes(phase);
/** The variants the `agent` phase keeps when `latency` is not wanted too. */
const AGENT_KEYS = new Set([
  'agent/sse',
  'offscreen-fetch/sse',
  'offscreen-sdk/sse',
  'extension/sse',
  'worker-relay/sse',
  'worker-relay-sdk/sse',
  'panel-message',
]);
const P = smoke
  ? {
      warm: 20,
      rounds: 3,
      batch: 10,
      cold: 2,
      conc: 20,
      perServer: 10,
      slowMs: 20,
      render: 2,
      keys: 10,
      pushes: 3,
      streamSeconds: 2,
      rttMs: 40,
      rttBatch: 3,
      // 20 × 50: the Tools view's many-server path runs, without 10,000 tools' minute of connecting and filling.
      bigServers: 20,
      bigTools: 50,
    }
  : {
      warm: 300,
      rounds: 10,
      batch: 50,
      cold: 7,
      conc: 20,
      perServer: 50,
      slowMs: 50,
      render: 7,
      keys: 50,
      pushes: 10,
      streamSeconds: 10,
      rttMs: 40,
      rttBatch: 10,
      bigServers: 20,
      bigTools: 500,
    };
/** Chat: first-token rounds (each one send and one direct fetch), tool steps per run, runs. */
const C = smoke ? { rounds: 3, steps: 3, stepRuns: 1 } : { rounds: 15, steps: 8, stepRuns: 3 };
const started = Date.now();
const log = (m: string) => console.log(`[bench +${((Date.now() - started) / 1000).toFixed(1)} s] ${m}`);

const outDir = process.env.OUT_DIR || 'dist';
if (!existsSync(`${outDir}/manifest.json`)) {
  log(`no build in ${outDir}/, building it`);
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
}

if (process.argv.includes('--soak') && !smoke) {
  await soakAlone(soak!, log);
  process.exit(0);
}

const tls = await throwawayCert();
const cert = 'reason' in tls ? undefined : tls;
const h2 = cert ? await h2Fetch(cert.cert) : undefined;
const nodeH2 = h2 && 'fetch' in h2 ? h2 : undefined;

/**
 * The demo servers in a child process: [sse], [json], [20 × sse for concurrency], [1,000 tools],
 * [sse over HTTPS + h2], [20 × the same], [sse, 40 ms added per request], [sse declaring no list changes],
 * [20 × 500 tools for the Tools view].
 */
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'bench/server-child.ts',
    JSON.stringify([
      { jsonResponse: false, count: 1 },
      { jsonResponse: true, count: 1 },
      { jsonResponse: false, count: P.conc },
      { jsonResponse: true, count: 1, extraTools: 997 },
      { jsonResponse: false, count: cert ? 1 : 0, tls: true },
      { jsonResponse: false, count: cert ? P.conc : 0, tls: true },
      { jsonResponse: false, count: 1, delayMs: P.rttMs },
      // The demo server's own 3 tools plus the extras make bigTools each.
      { jsonResponse: true, count: want('panel') ? P.bigServers : 0, extraTools: P.bigTools - 3 },
    ]),
  ],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...(cert ? { BENCH_TLS: JSON.stringify({ key: cert.key, cert: cert.cert }) } : {}) },
  },
);
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const nextLine = async (): Promise<unknown> => JSON.parse((await lines.next()).value as string) as unknown;
const { urls } = (await nextLine()) as { urls: string[][] };
const [[sseUrl], [jsonUrl], concUrls, [manyUrl], [h2Url], h2ConcUrls, [rttUrl], bigUrls] = urls as [
  [string],
  [string],
  string[],
  [string],
  [string?],
  string[],
  [string],
  string[],
];
const serverCalls = async (): Promise<number> => {
  child.stdin.write('stats\n');
  return ((await nextLine()) as { toolCalls: number[] }).toolCalls.reduce((a, b) => a + b, 0);
};

/** The bench's Chromium and its server child: the processes whose CPU a profile counts. */
const benchPids = (rig: Rig) => [rig.ext.browser.process()?.pid, child.pid].filter((p): p is number => p !== undefined);
const results: Results = { smoke, startedAt: new Date().toISOString(), params: P, latency: [], ratios: [], notes: [] };
if (!cert) results.notes.push(`HTTPS + HTTP/2 rows skipped: ${'reason' in tls ? tls.reason : ''}.`);
if (h2 && 'reason' in h2) results.notes.push(`Node SDK over h2 skipped: ${h2.reason}.`);
if (nodeH2)
  results.notes.push(
    `Node SDK over h2: undici ${nodeH2.version} fetch with Agent({ allowH2: true }), trusting only the bench certificate.`,
  );
let rig: Rig | undefined;
try {
  rig = await startRig(cert ? { spki: cert.spki } : {});
  const panel = rig.panel;
  type B = { __bench: Record<string, (...a: never[]) => Promise<unknown>> };
  const inPage = <T>(page: typeof panel, method: string, ...args: unknown[]) =>
    page.evaluate((m: string, a: unknown[]) => (globalThis as unknown as B).__bench[m]!(...(a as never[])), method, args) as Promise<T>;

  // 1. Latency, both server flavours, eight variants interleaved round by round.
  const firstIds = ['sse', 'json', 'rtt', ...(h2Url ? ['h2'] : [])];
  await addServers(rig, [
    { id: 'sse', url: sseUrl },
    { id: 'json', url: jsonUrl },
    { id: 'rtt', url: rttUrl },
    ...(h2Url ? [{ id: 'h2', url: h2Url }] : []),
  ]);
  await waitReady(rig, firstIds);
  const off = await withSdkFloor(await offscreenPage(rig));
  const worker = await workerWithBench(rig);
  const sdk = {
    sse: await sdkClient(sseUrl),
    json: await sdkClient(jsonUrl),
    rtt: await sdkClient(rttUrl),
    ...(h2Url && nodeH2 ? { h2: await sdkClient(h2Url, nodeH2.fetch) } : {}),
  };
  const url = { sse: sseUrl, json: jsonUrl };
  type Run = (n: number) => Promise<{ ms: number[]; cpuMs?: number }>;
  const variants: { key: string; what: string; run: Run; batch?: number }[] = [];
  // The agent's path needs a standing "always" grant for the echo tool, given once as a user would.
  await Promise.all([
    worker.evaluate(`globalThis.remoteMcp.agentTools.call('mcp__sse__echo', { text: 'x' }).then(() => true)`),
    inPage(panel, 'grantAlwaysNext'),
  ]);
  variants.push({
    key: 'agent/sse',
    what: 'Extension, agent path: AgentTool.call in the worker ("always" approval) → offscreen SDK → server → back (sse server)',
    run: async (n) => ({ ms: (await worker.evaluate(`globalThis.__bench.agentBatch('mcp__sse__echo', ${n})`)) as number[] }),
  });
  if (h2Url) {
    variants.push(
      {
        key: 'offscreen-fetch/h2',
        what: 'Offscreen document: the same bare fetch (sse server, HTTPS + HTTP/2)',
        run: async (n) => ({ ms: await inPage<number[]>(off, 'fetchBatch', h2Url, n) }),
      },
      {
        key: 'extension/h2',
        what: 'Extension: panel Port request → worker → offscreen SDK → server → back (sse server, HTTPS + HTTP/2)',
        run: async (n) => ({ ms: await inPage<number[]>(panel, 'panelBatch', 'h2', n) }),
      },
    );
    if (sdk.h2) {
      const h2Client = sdk.h2;
      variants.push({
        key: 'node-sdk/h2',
        what: 'Node: SDK Client.callTool over undici h2 (sse server, HTTPS + HTTP/2)',
        run: (n) => nodeSdkBatch(h2Client, n),
      });
    }
  }
  variants.push(
    {
      key: 'node-sdk/rtt40',
      what: `Node: SDK Client.callTool (sse server, ${P.rttMs} ms added per request)`,
      run: (n) => nodeSdkBatch(sdk.rtt, n),
      batch: P.rttBatch,
    },
    {
      key: 'offscreen-fetch/rtt40',
      what: `Offscreen document: the same bare fetch (sse server, ${P.rttMs} ms added per request)`,
      run: async (n) => ({ ms: await inPage<number[]>(off, 'fetchBatch', rttUrl, n) }),
      batch: P.rttBatch,
    },
    {
      key: 'extension/rtt40',
      what: `Extension: panel → worker → offscreen SDK → server → back (sse server, ${P.rttMs} ms added per request)`,
      run: async (n) => ({ ms: await inPage<number[]>(panel, 'panelBatch', 'rtt', n) }),
      batch: P.rttBatch,
    },
  );
  for (const f of ['sse', 'json'] as const) {
    variants.push(
      { key: `node-fetch/${f}`, what: `Node: bare fetch POST tools/call (${f} server)`, run: (n) => nodeFetchBatch(url[f], n) },
      { key: `node-sdk/${f}`, what: `Node: SDK Client.callTool (${f} server)`, run: (n) => nodeSdkBatch(sdk[f], n) },
      ...(f === 'sse'
        ? [
            {
              key: 'offscreen-sdk/sse',
              what: "Offscreen document: the SDK's own Client.callTool alone, no extension code (sse server)",
              run: async (n: number) => ({ ms: await sdkFloorBatch(off, url[f], n) }),
            },
          ]
        : []),
      {
        key: `offscreen-fetch/${f}`,
        what: `Offscreen document: the same bare fetch (${f} server)`,
        run: async (n) => ({ ms: await inPage<number[]>(off, 'fetchBatch', url[f], n) }),
      },
      {
        key: `extension/${f}`,
        what: `Extension: panel Port request → worker → offscreen SDK → server → back (${f} server)`,
        run: async (n) => ({ ms: await inPage<number[]>(panel, 'panelBatch', f, n) }),
      },
    );
  }
  await inPage(off, 'serveRelay');
  variants.push({
    key: 'worker-relay/sse',
    what: "The agent path's shape with no extension code: the worker asks the document on a MessageChannel of the bench, the document makes the same bare fetch (sse server)",
    run: async (n) => ({ ms: (await worker.evaluate(`globalThis.__bench.relayBatch(${JSON.stringify(sseUrl)}, ${n})`)) as number[] }),
  });
  variants.push({
    key: 'worker-relay-sdk/sse',
    what: "The agent path's floor with no extension code: as worker-relay, the document calling the SDK's own Client.callTool (sse server)",
    run: async (n) => ({ ms: (await worker.evaluate(`globalThis.__bench.relayBatch(${JSON.stringify(sseUrl)}, ${n}, true)`)) as number[] }),
  });
  variants.push({
    key: 'panel-message',
    what: 'Extension: panel ↔ worker message only (a request the worker refuses at once; no offscreen, no network)',
    run: async (n) => ({ ms: await inPage<number[]>(panel, 'msgBatch', n) }),
  });
  const active = variants.filter((v) => want('latency') || (want('agent') && AGENT_KEYS.has(v.key)));
  if (active.length) log(`warm-up: ${P.warm} calls per variant`);
  for (const v of active) await v.run(v.batch ?? P.warm);
  const samples = new Map<string, { ms: number[]; cpu: number[]; roundMedians: number[] }>(
    active.map((v) => [v.key, { ms: [], cpu: [], roundMedians: [] }]),
  );
  for (let r = 0; active.length && r < P.rounds; r++) {
    const order = r % 2 === 0 ? active : [...active].reverse();
    for (const v of order) {
      const b = await v.run(v.batch ?? P.batch);
      const s = samples.get(v.key)!;
      s.ms.push(...b.ms);
      if (b.cpuMs !== undefined) s.cpu.push(b.cpuMs);
      s.roundMedians.push(median(b.ms));
    }
  }
  if (active.length) log('latency rounds done');
  // BENCH_PROFILE=1: where one sequential agent call's time goes, per context, beside the bare fetch's.
  if (profiling)
    for (const key of ['agent/sse', 'offscreen-sdk/sse', 'offscreen-fetch/sse']) {
      const v = active.find((a) => a.key === key);
      if (!v) continue;
      const stop = await profileAround(
        `sequential-${key.replace('/', '-')}`,
        withProfiler ? await contextSessions(rig, panel) : {},
        benchPids(rig),
      );
      await v.run(P.batch * 5);
      for (const line of await stop()) log(line);
    }
  for (const v of active) {
    const s = samples.get(v.key)!;
    results.latency.push({ key: v.key, what: v.what, ...summarize(s.ms), cpuMsPerCall: s.cpu.length ? median(s.cpu) : undefined });
  }
  const rounds = (k: string) => samples.get(k)?.roundMedians ?? [];
  const has = (...keys: string[]) => keys.every((k) => samples.has(k));
  for (const f of ['sse', 'json']) {
    if (!has(`extension/${f}`, `node-sdk/${f}`, `offscreen-fetch/${f}`, `node-fetch/${f}`)) continue;
    results.ratios.push({
      name: `extension ÷ Node SDK (${f}), p50`,
      ...ratioOf(rounds(`extension/${f}`), rounds(`node-sdk/${f}`)),
      goal: '≤ 1.25',
      limit: 1.25,
    });
    results.ratios.push({
      name: `offscreen fetch ÷ Node fetch (${f}), p50`,
      ...ratioOf(rounds(`offscreen-fetch/${f}`), rounds(`node-fetch/${f}`)),
    });
    results.ratios.push({ name: `Node SDK ÷ Node fetch (${f}), p50`, ...ratioOf(rounds(`node-sdk/${f}`), rounds(`node-fetch/${f}`)) });
    results.ratios.push({
      name: `extension ÷ offscreen fetch (${f}), p50`,
      ...ratioOf(rounds(`extension/${f}`), rounds(`offscreen-fetch/${f}`)),
    });
  }
  const p50 = (k: string) => results.latency.find((l) => l.key === k)?.p50 ?? NaN;
  if (has('agent/sse', 'offscreen-fetch/sse', 'extension/sse'))
    results.agentPath = {
      addedMsP50: median(rounds('agent/sse').map((a, i) => a - rounds('offscreen-fetch/sse')[i]!)),
      panelAddedMsP50: median(rounds('extension/sse').map((a, i) => a - rounds('offscreen-fetch/sse')[i]!)),
      agentP50: p50('agent/sse'),
      ...(has('offscreen-sdk/sse')
        ? {
            sdkP50: p50('offscreen-sdk/sse'),
            sdkAddedMsP50: median(rounds('offscreen-sdk/sse').map((a, i) => a - rounds('offscreen-fetch/sse')[i]!)),
            agentOverSdkMsP50: median(rounds('agent/sse').map((a, i) => a - rounds('offscreen-sdk/sse')[i]!)),
            ...(has('worker-relay/sse')
              ? {
                  relayP50: p50('worker-relay/sse'),
                  relayAddedMsP50: median(rounds('worker-relay/sse').map((a, i) => a - rounds('offscreen-fetch/sse')[i]!)),
                }
              : {}),
            ...(has('worker-relay-sdk/sse')
              ? {
                  floorP50: p50('worker-relay-sdk/sse'),
                  floorAddedMsP50: median(rounds('worker-relay-sdk/sse').map((a, i) => a - rounds('offscreen-fetch/sse')[i]!)),
                  agentOverFloorMsP50: median(rounds('agent/sse').map((a, i) => a - rounds('worker-relay-sdk/sse')[i]!)),
                }
              : {}),
          }
        : {}),
      fetchP50: p50('offscreen-fetch/sse'),
      goal: '≤ +0.5 ms at p50',
      maxMs: 0.5,
      panelGoal: '≤ +1.0 ms at p50',
      panelMaxMs: 1,
    };
  if (has('extension/rtt40', 'node-sdk/rtt40'))
    results.ratios.push({
      name: `extension ÷ Node SDK, ${P.rttMs} ms added per request, p50`,
      ...ratioOf(rounds('extension/rtt40'), rounds('node-sdk/rtt40')),
      goal: '≤ 1.05',
      limit: 1.05,
    });
  // Chromium's own share at 40 ms: a bare fetch from the offscreen document runs no extension code.
  if (has('offscreen-fetch/rtt40', 'node-sdk/rtt40'))
    results.ratios.push({
      name: `offscreen fetch ÷ Node SDK, ${P.rttMs} ms added per request, p50`,
      ...ratioOf(rounds('offscreen-fetch/rtt40'), rounds('node-sdk/rtt40')),
    });
  if (has('extension/rtt40', 'offscreen-fetch/rtt40'))
    results.ratios.push({
      name: `extension ÷ offscreen fetch, ${P.rttMs} ms added per request, p50`,
      ...ratioOf(rounds('extension/rtt40'), rounds('offscreen-fetch/rtt40')),
    });
  if (has('extension/h2', 'node-sdk/h2'))
    results.ratios.push({ name: 'extension ÷ Node SDK (HTTPS + h2), p50', ...ratioOf(rounds('extension/h2'), rounds('node-sdk/h2')) });
  if (has('extension/h2', 'offscreen-fetch/h2'))
    results.ratios.push({
      name: 'extension ÷ offscreen fetch (HTTPS + h2), p50',
      ...ratioOf(rounds('extension/h2'), rounds('offscreen-fetch/h2')),
    });
  const heap2 = await offscreenHeap(rig);

  if (want('chat')) {
    // 1b. The chat, before the phases that connect many servers (every visible tool goes to the model).
    log(`chat: ${C.rounds} first-token rounds, ${C.stepRuns} × ${C.steps} tool steps`);
    results.chat = await benchChat(panel, 'mcp__sse__echo', C);
    results.ratios.push({
      name: 'chat first token: extension ÷ direct fetch from the panel, p50',
      ...results.chat.ratio,
      goal: '≤ 1.1',
      limit: 1.1,
    });
    results.ratios.push({
      name: `chat first token, provider ${REMOTE_FIRST_BYTE_MS} ms away (40 ms RTT + 200 ms to first token): extension ÷ direct fetch, p50`,
      ...results.chat.remote.ratio,
      goal: '≤ 1.03',
      limit: 1.03,
    });
  }

  if (want('cold')) {
    // 2. Cold wake: the worker is gone; the offscreen document (and its sessions) outlive it and are
    // adopted. For comparison, the reconnect path: the document is closed too, so the new worker
    // opens the document, initializes a new session and lists the catalog before the call.
    log('cold wake');
    // Its own browser, which never keeps DevTools on the worker, as users run it. With Puppeteer
    // attached to every worker target, each new worker waited for the attach before its script
    // ran (worker start → script runs: 32–34 ms attached, 16–22 ms not), and its stop needed
    // retries. The worker is reached only in brief attaches: to stop it, and after each call to
    // read its marks.
    const split = () => ({
      workerStart: [] as number[],
      startup: [] as number[],
      firstResult: [] as number[],
      scriptStart: [] as number[],
      evaluated: [] as number[],
      config: [] as number[],
      claimed: [] as number[],
    });
    const paths = { adopt: split(), reconnect: split() };
    const coldSdk: number[] = [];
    // The browser's floor beside the adopted call (floorStep below): one bare fetch from the
    // offscreen document after the same idle, the same fetch again at once, and per iteration what
    // is left of the adopted first result without Chromium's wake and that fetch.
    const floor = { isolated: [] as number[], backToBack: [] as number[], ourShare: [] as number[] };
    const coldRig = await startRig({ workerDevTools: false });
    const coldPanel = coldRig.panel;
    try {
      await addServers(coldRig, [{ id: 'sse', url: sseUrl }]);
      await waitReady(coldRig, ['sse']);
      // The panel re-opens its Port on focus, a key or a pointer, and when a new worker asks, which
      // could wake the worker before the call does; the bench swaps the page's connect for a dead
      // port so the measured call (on the bench's own Port, through the real connect) is what wakes it.
      await coldPanel.evaluate(() => {
        const dead = { onMessage: { addListener() {} }, onDisconnect: { addListener() {} }, postMessage() {}, disconnect() {} };
        const rt = chrome.runtime as unknown as { connect: () => unknown; benchConnect?: () => unknown };
        rt.benchConnect = rt.connect;
        rt.connect = () => dead;
      });
      // The document the next adopted call goes through (the set-up's, then the one each reconnect
      // opened), with a session of the bench's own on the same server (BENCH_CODE `session`, as the
      // offscreen-fetch rows use), initialized there and then: the floor's fetch must find it ready and idle.
      const bareSession = async () => {
        const page = await offscreenPage(coldRig);
        await inPage(page, 'session', sseUrl);
        return page;
      };
      let coldOff = await bareSession();
      // The floor, a step of its own between the adopted call and the reconnect rather than just
      // before the adopted call. It follows what precedes the adopted call (a call, its marks read,
      // the worker stopped the same way), so its bare fetch (the same tools/call echo, from the same
      // document, to the same server, after the same idle) is what Chromium alone takes for the
      // call's own fetch. Stop → bare fetch → cold call would warm the measured call: the worker
      // being stopped already, a second stop does nothing and the call would follow the fetch at
      // once. Here the worker is woken again by a panel request that touches no network (refused,
      // answered once start-up is done), so the reconnect finds a worker to close the document in
      // and to stop, as always; the adopted call still follows the reconnect, its marks and the Node SDK call.
      const floorStep = async () => {
        await stopWorker(coldRig);
        const [isolated, again] = await inPage<[number, number]>(coldOff, 'fetchBatch', sseUrl, 2);
        await inPage(coldPanel, 'msgBatch', 1);
        floor.isolated.push(isolated);
        floor.backToBack.push(again);
        floor.ourShare.push(paths.adopt.firstResult.at(-1)! - paths.adopt.workerStart.at(-1)! - isolated);
      };
      for (let i = 0; i < P.cold; i++) {
        for (const path of ['adopt', 'reconnect'] as const) {
          if (path === 'reconnect') await floorStep();
          await stopWorker(coldRig, { closeDocument: path === 'reconnect' });
          const call = await coldPanel.evaluate(async () => {
            const wall = Date.now();
            const t0 = performance.now();
            // The panel's path: a request on a panel Port (BENCH_CODE `request`), which wakes the worker.
            const bench = (
              globalThis as unknown as { __bench: { call(...a: unknown[]): Promise<{ ok?: boolean; error?: unknown } | undefined> } }
            ).__bench;
            const r = await bench.call('sse', 'echo', { text: 'x' });
            if (!r?.ok) throw new Error(`cold call failed: ${JSON.stringify(r?.error)}`);
            return { wall, ms: performance.now() - t0 };
          });
          const marks = await workerMarks(coldRig);
          paths[path].workerStart.push(marks.origin - call.wall);
          if (marks.readyMs !== undefined) paths[path].startup.push(marks.readyMs);
          if (marks.scriptStartMs !== undefined) paths[path].scriptStart.push(marks.scriptStartMs);
          if (marks.evaluatedMs !== undefined) paths[path].evaluated.push(marks.evaluatedMs);
          if (marks.configMs !== undefined) paths[path].config.push(marks.configMs);
          if (marks.claimedMs !== undefined) paths[path].claimed.push(marks.claimedMs);
          paths[path].firstResult.push(call.ms);
          if (path === 'reconnect') coldOff = await bareSession();
        }
        coldSdk.push(await sdkColdCall(sseUrl));
      }
    } finally {
      await coldRig.close();
    }
    const summarizeSplit = (s: ReturnType<typeof split>) => ({
      workerStart: summarize(s.workerStart),
      startup: summarize(s.startup),
      scriptStart: summarize(s.scriptStart),
      evaluated: summarize(s.evaluated),
      config: summarize(s.config),
      claimed: summarize(s.claimed),
      firstResult: summarize(s.firstResult),
    });
    results.cold = {
      extension: summarize(paths.adopt.firstResult),
      nodeSdk: summarize(coldSdk),
      goal: 'adopted session, first tool result p50 ≤ 30 ms',
      limitMs: 30,
      scriptGoal: 'worker script loaded + compiled p50 ≤ 10 ms',
      scriptLimitMs: 10,
      adopt: summarizeSplit(paths.adopt),
      reconnect: summarizeSplit(paths.reconnect),
      isolatedFetch: summarize(floor.isolated),
      backToBackFetch: summarize(floor.backToBack),
      ourShare: summarize(floor.ourShare),
    };
  }
  if (want('concurrency')) {
    // 3. Concurrency: 20 servers × perServer calls in flight, extension vs direct SDK, interleaved.
    log(`concurrency: ${P.conc} servers × ${P.perServer} calls of slow(1 × ${P.slowMs} ms)`);
    const concIds = concUrls.map((_, i) => `c${String(i).padStart(2, '0')}`);
    await addServers(
      rig,
      concIds.map((id, i) => ({ id, url: concUrls[i]! })),
    );
    await waitReady(rig, concIds);
    const concClients = await Promise.all(concUrls.map((u) => sdkClient(u)));
    const args = { steps: 1, ms: P.slowMs };
    const callsBefore = await serverCalls();
    const concRuns: Record<string, { wallMs: number; ok: number; latencies: number[]; errors?: string[] }[]> = {
      extension: [],
      nodeSdk: [],
    };
    for (let r = 0; r < (smoke ? 1 : 3); r++) {
      concRuns.extension!.push(await inPage(panel, 'panelConcurrent', concIds, P.perServer, args));
      concRuns.nodeSdk!.push(await sdkConcurrent(concClients, P.perServer, args));
    }
    const sent = (concRuns.extension!.length + concRuns.nodeSdk!.length) * concIds.length * P.perServer;
    const ran = (await serverCalls()) - callsBefore;
    const total = concIds.length * P.perServer;
    const tput = (runs: { wallMs: number }[]) => (total / median(runs.map((x) => x.wallMs))) * 1000;
    results.concurrency = {
      servers: concIds.length,
      perServer: P.perServer,
      slowMs: P.slowMs,
      extension: {
        callsPerSecond: tput(concRuns.extension!),
        wallMs: concRuns.extension!.map((x) => x.wallMs),
        ok: concRuns.extension!.map((x) => x.ok),
        p50: median(concRuns.extension!.flatMap((x) => x.latencies)),
        max: Math.max(...concRuns.extension!.flatMap((x) => x.latencies)),
        errors: concRuns.extension!.flatMap((x) => x.errors ?? []),
      },
      nodeSdk: {
        callsPerSecond: tput(concRuns.nodeSdk!),
        wallMs: concRuns.nodeSdk!.map((x) => x.wallMs),
        ok: concRuns.nodeSdk!.map((x) => x.ok),
        p50: median(concRuns.nodeSdk!.flatMap((x) => x.latencies)),
        max: Math.max(...concRuns.nodeSdk!.flatMap((x) => x.latencies)),
      },
      sent,
      serverRan: ran,
      noneLost: ran === sent && [...concRuns.extension!, ...concRuns.nodeSdk!].every((x) => x.ok === total),
      // With one socket per session held by the SDK's GET event stream, 5 carry calls: waves of 5.
      idealCappedMs: Math.ceil(P.perServer / 5) * P.slowMs,
    };
    for (const c of concClients) await c.close();

    // 3b. The socket cap alone: one server, 50 calls in flight, slow enough that the server's CPU
    // is not the limit (with 20 servers in one child process, the servers' CPU dominates).
    const capRuns: { ext: number[]; node: number[]; ok: number[] } = { ext: [], node: [], ok: [] };
    const capClient = await sdkClient(concUrls[0]!);
    for (let r = 0; r < (smoke ? 1 : 3); r++) {
      const e = await inPage<{ wallMs: number; ok: number }>(panel, 'panelConcurrent', [concIds[0]], 50, { steps: 1, ms: 100 });
      const n = await sdkConcurrent([capClient], 50, { steps: 1, ms: 100 });
      capRuns.ext.push(e.wallMs);
      capRuns.node.push(n.wallMs);
      capRuns.ok.push(e.ok, n.ok);
    }
    await capClient.close();
    results.socketCap = {
      calls: 50,
      slowMs: 100,
      extensionWallMs: median(capRuns.ext),
      nodeSdkWallMs: median(capRuns.node),
      predictedCappedMs: Math.ceil(50 / 5) * 100,
      allCompleted: capRuns.ok.every((k) => k === 50),
    };

    // 3c. The same 20 × perServer over HTTPS + HTTP/2: one connection per server multiplexes every call.
    if (h2ConcUrls.length) {
      log(`h2 concurrency: ${P.conc} servers × ${P.perServer}`);
      const h2Ids = h2ConcUrls.map((_, i) => `h${String(i).padStart(2, '0')}`);
      await addServers(
        rig,
        h2Ids.map((id, i) => ({ id, url: h2ConcUrls[i]! })),
      );
      await waitReady(rig, h2Ids);
      const h2Clients = nodeH2 ? await Promise.all(h2ConcUrls.map((u) => sdkClient(u, nodeH2.fetch))) : [];
      // The agent's calls need a standing "always" grant for `slow` on each server (grants are kept
      // per server and tool), given one server at a time as a user answering each first card would.
      // The cold phase may have stopped the worker: its bench code is installed again.
      const agentWorker = await workerWithBench(rig);
      const agentNames = h2Ids.map((id) => `mcp__${id}__slow`);
      for (const name of agentNames)
        await Promise.all([
          agentWorker.evaluate(`globalThis.remoteMcp.agentTools.call(${JSON.stringify(name)}, ${JSON.stringify(args)}).then(() => true)`),
          inPage(panel, 'grantAlwaysNext'),
        ]);
      const before = await serverCalls();
      const runs: Record<
        'extension' | 'agent' | 'nodeSdk' | 'offscreenFetch' | 'offscreenSdk',
        { wallMs: number; ok: number; latencies: number[]; errors?: string[] }[]
      > = {
        extension: [],
        agent: [],
        nodeSdk: [],
        offscreenFetch: [],
        offscreenSdk: [],
      };
      // The browser's floor at this concurrency: the same calls as bare fetches from the offscreen
      // document (the cold phase may have replaced it, so it is found again).
      const offNow = await withSdkFloor(await offscreenPage(rig));
      for (let r = 0; r < (smoke ? 1 : 3); r++) {
        // BENCH_PROFILE=1: where the extension's time goes in its first h2 run, per context.
        const stop =
          profiling && r === 0
            ? await profileAround('h2-concurrency', withProfiler ? await contextSessions(rig, panel) : {}, benchPids(rig))
            : undefined;
        runs.extension.push(await inPage(panel, 'panelConcurrent', h2Ids, P.perServer, args));
        if (stop) for (const line of await stop()) log(line);
        // The same calls from the worker, as an agent makes them: no panel, two fewer IPC messages per call.
        const stopAgent =
          profiling && r === 0
            ? await profileAround('h2-concurrency-agent', withProfiler ? await contextSessions(rig, panel) : {}, benchPids(rig))
            : undefined;
        runs.agent.push(
          (await agentWorker.evaluate(
            `globalThis.__bench.agentConcurrent(${JSON.stringify(agentNames)}, ${P.perServer}, ${JSON.stringify(args)})`,
          )) as (typeof runs.agent)[number],
        );
        if (stopAgent) for (const line of await stopAgent()) log(line);
        const stopNode =
          profiling && r === 0 ? await profileAround('h2-concurrency-node', {}, [process.pid, ...benchPids(rig).slice(1)]) : undefined;
        if (h2Clients.length) runs.nodeSdk.push(await sdkConcurrent(h2Clients, P.perServer, args));
        if (stopNode) for (const line of await stopNode()) log(line);
        // The floor's own CPU by process, to set beside the extension's: what of a call's CPU is ours.
        const stopFloor =
          profiling && r === 0
            ? await profileAround('h2-concurrency-floor', withProfiler ? await contextSessions(rig, panel) : {}, benchPids(rig))
            : undefined;
        runs.offscreenFetch.push(await inPage(offNow, 'fetchConcurrent', h2ConcUrls, P.perServer, args));
        if (stopFloor) for (const line of await stopFloor()) log(line);
        // The SDK's own Client alone in the same document: what of the gap is the SDK's read path.
        const stopSdk =
          profiling && r === 0
            ? await profileAround('h2-concurrency-sdk', withProfiler ? await contextSessions(rig, panel) : {}, benchPids(rig))
            : undefined;
        runs.offscreenSdk.push(await sdkFloorConcurrent(offNow, h2ConcUrls, P.perServer, args));
        if (stopSdk) for (const line of await stopSdk()) log(line);
      }
      const h2Sent =
        (runs.extension.length + runs.agent.length + runs.nodeSdk.length + runs.offscreenFetch.length + runs.offscreenSdk.length) *
        h2Ids.length *
        P.perServer;
      const h2Ran = (await serverCalls()) - before;
      const side = (x: typeof runs.extension) => ({
        callsPerSecond: x.length ? tput(x) : NaN,
        wallMs: x.map((y) => y.wallMs),
        ok: x.map((y) => y.ok),
        p50: x.length ? median(x.flatMap((y) => y.latencies)) : NaN,
        max: x.length ? Math.max(...x.flatMap((y) => y.latencies)) : NaN,
        errors: x.flatMap((y) => y.errors ?? []),
      });
      results.concurrencyH2 = {
        servers: h2Ids.length,
        perServer: P.perServer,
        slowMs: P.slowMs,
        extension: side(runs.extension),
        agent: side(runs.agent),
        nodeSdk: side(runs.nodeSdk),
        offscreenFetch: side(runs.offscreenFetch),
        offscreenSdk: side(runs.offscreenSdk),
        sent: h2Sent,
        serverRan: h2Ran,
        noneLost:
          h2Ran === h2Sent &&
          [...runs.extension, ...runs.agent, ...runs.nodeSdk, ...runs.offscreenFetch, ...runs.offscreenSdk].every((x) => x.ok === total),
        idealCappedMs: P.slowMs,
      };
      for (const c of h2Clients) await c.close();
    }

    // 4. Memory with all those sessions open.
    const heapN = await offscreenHeap(rig);
    const connected = firstIds.length + 1 + concIds.length + h2ConcUrls.length;
    results.memory = {
      servers2: heap2,
      [`servers${connected}`]: heapN,
      connected,
      baseConnected: firstIds.length,
      perServerBytes: (heapN.usedBytes - heap2.usedBytes) / (connected - firstIds.length),
    };
  }
  if (want('panel')) {
    // 5. Panel with 1,000 tools.
    log('panel with 1,000 tools');
    await addServers(rig, [{ id: 'many', url: manyUrl }]);
    await waitReady(rig, ['many'], 1000, 90_000);
    type Render = { frameMs: number[]; completeMs: number[]; longTasks: number[]; tools: number; servers: number; rows: number };
    type Keys = { ms: number[]; frameMs: number[]; changed: boolean[]; longTasks: number[]; rowsMin: number; rowsMax: number };
    const lists: NonNullable<Results['panel']>['lists'] = [];
    // The Tools view handed 20 real servers × 500 tools (connected through the extension, as a user
    // with many servers has them), after the 1,000-tool rows so those are measured as before. The
    // filter types "tool_04": 97 of each server's 500 tools match ("tool_09" would match none).
    const bigIds = bigUrls.map((_, i) => `t${String(i).padStart(2, '0')}`);
    const runs: { kind: 'detail' | 'tools' | 'tools10k'; ids: string[]; word: string }[] = [
      { kind: 'detail', ids: ['many'], word: 'tool_09' },
      { kind: 'tools', ids: ['many'], word: 'tool_09' },
      ...(bigIds.length ? [{ kind: 'tools10k' as const, ids: bigIds, word: 'tool_04' }] : []),
    ];
    for (const { kind, ids, word } of runs) {
      if (kind === 'tools10k') {
        log(`Tools view with ${bigIds.length} servers × ${P.bigTools} tools`);
        await addServers(
          rig,
          bigIds.map((id, i) => ({ id, url: bigUrls[i]! })),
        );
        await waitReady(rig, bigIds, P.bigTools, 120_000);
        await inPage(panel, 'showOnly', kind);
      }
      const render = await inPage<Render>(panel, 'firstRender', kind, ids, P.render);
      const keys = await inPage<Keys | null>(panel, 'filterKeys', kind, P.keys, word);
      const push = await inPage<{ ms: number[]; replaced: number; rows: number }>(panel, 'samePush', kind, ids, P.pushes);
      lists.push({
        kind,
        servers: render.servers,
        tools: render.tools,
        word,
        rowsAtFirstFrame: render.rows,
        firstRender: summarize(render.frameMs),
        complete: summarize(render.completeMs),
        renderLongTasks: render.longTasks,
        filter: keys
          ? {
              ...summarize(keys.ms),
              toFrame: summarize(keys.frameMs),
              rowsChanged: summarize(keys.ms.filter((_, i) => keys.changed[i])),
              longTasks: keys.longTasks,
              rowsMin: keys.rowsMin,
              rowsMax: keys.rowsMax,
            }
          : undefined,
        samePush: { ...summarize(push.ms), replaced: push.replaced, rows: push.rows },
      });
    }
    const stream = await inPage<Omit<NonNullable<Results['panel']>['chat'], 'rate' | 'load'>>(panel, 'chatStream', P.streamSeconds, 100);
    results.panel = { lists, chat: { ...stream, rate: 100, load: { avg1: loadavg()[0]!, cores: availableParallelism() } } };
  }
  results.extensionErrors = rig.ext.errors.slice(0, 10);
  for (const c of Object.values(sdk)) await c.close();
} finally {
  await rig?.close();
  child.stdin.end();
  child.kill('SIGTERM');
}

// The smoke ends with the soak, shortened, in a browser and servers of its own.
if (smoke && !only) results.soak = await runSoak(soak!, log);
results.totalSeconds = (Date.now() - started) / 1000;
results.bundles = await Promise.all(
  ['sw.js', 'offscreen.js', 'panel.js', 'app-sandbox.js'].map(async (file) => {
    const bytes = await readFile(`${outDir}/${file}`);
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
  }),
);
const md = markdown(results);
await mkdir('bench/results', { recursive: true });
// The smoke run (part of `npm test`) writes outside the tree, so running the tests never leaves
// modified tracked files; only a full run refreshes the committed results.
const dir = smoke || only ? 'test-output/bench' : 'bench/results';
const name = smoke ? 'smoke' : only ? 'only' : 'latest';
await mkdir(dir, { recursive: true });
await writeFile(`${dir}/${name}.json`, JSON.stringify(results, null, 2));
await writeFile(`${dir}/${name}.md`, md);
console.log(`\n${md}`);
log(`done; wrote ${dir}/${name}.json and .md`);
process.exit(0);
