/** The bench's Markdown report: medians with spread, ratios with their per-round range, goals met or not. */
import type { ChatBench } from './chat.js';
import type { Summary } from './stats.js';
import { soakMarkdown, type SoakResult } from './soak.js';

/** Filter keystrokes: `p50` etc. are input → layout done; `toFrame` is input → next frame painted. */
type PanelFilter = Summary & { toFrame: Summary; rowsChanged: Summary; longTasks: number[]; rowsMin: number; rowsMax: number };

/**
 * One big tool list: the server detail's (`detail`) or the Tools view (`tools`) with one server of
 * 1,000 tools, or the Tools view with many servers (`tools10k`: 20 × 500).
 */
interface PanelList {
  kind: 'detail' | 'tools' | 'tools10k';
  /** Servers handed to the element (absent in results from before `tools10k`: one). */
  servers?: number;
  tools: number;
  /** What the filter keystrokes type, a key at a time. */
  word?: string;
  rowsAtFirstFrame: number;
  /** Data set → next frame painted. */
  firstRender: Summary;
  /** Data set → every row the element will attach is in. */
  complete: Summary;
  renderLongTasks: number[];
  filter: PanelFilter | undefined;
  /** A push with equal content: time to the next frame, and row elements that were not reused. */
  samePush: Summary & { replaced: number; rows: number };
}

interface ColdSplit {
  workerStart: Summary;
  startup: Summary;
  firstResult: Summary;
  /** Worker start → its script begins to run (loaded, compiled), → evaluated, → configuration read, → document claimed (marks in sw/). */
  scriptStart?: Summary;
  evaluated?: Summary;
  config?: Summary;
  claimed?: Summary;
}

export interface Results {
  smoke: boolean;
  startedAt: string;
  params: Record<string, number>;
  latency: ({ key: string; what: string; cpuMsPerCall: number | undefined } & Summary)[];
  ratios: { name: string; ratio: number; min: number; max: number; goal?: string; limit?: number }[];
  cold?: {
    extension: Summary;
    nodeSdk: Summary;
    goal: string;
    /** The goal's p50 limit (absent in older results: 50 ms). */
    limitMs?: number;
    /** Worker start → script runs (loaded and compiled), p50 limit. */
    scriptGoal?: string;
    scriptLimitMs?: number;
    /** Wake → worker script start; worker start → start-up done (claim, adopt); wake → first tool result. */
    adopt?: ColdSplit;
    /** The same with the offscreen document closed too: new document, `initialize`, catalog. */
    reconnect?: ColdSplit;
    /**
     * The browser's floor beside the adopted call (absent in older results): one bare fetch of the
     * same echo from the offscreen document after the same idle (worker stopped the same way), and
     * the same fetch again at once.
     */
    isolatedFetch?: Summary;
    backToBackFetch?: Summary;
    /** Per iteration: adopted first result − (wake → worker script starts) − isolated bare fetch. */
    ourShare?: Summary;
  };
  /** AgentTool.call in the worker vs the bare offscreen fetch, per-round p50 differences. */
  chat?: ChatBench;
  agentPath?: {
    addedMsP50: number;
    panelAddedMsP50: number;
    agentP50: number;
    fetchP50: number;
    goal: string;
    maxMs: number;
    panelGoal?: string;
    panelMaxMs?: number;
    /** The SDK's own Client.callTool alone in the offscreen document (bench/sdk-floor-entry.ts). */
    sdkP50?: number;
    /** The SDK's share: its Client alone over the bare fetch, median of per-round differences. */
    sdkAddedMsP50?: number;
    /** Our share: the agent path over the SDK's Client alone, median of per-round differences. */
    agentOverSdkMsP50?: number;
    /** The agent path's shape with no extension code (worker → document on a bench MessageChannel → bare fetch → back). */
    relayP50?: number;
    /** Chromium's cost of the worker ↔ document hops: that relay over the bare fetch, median of per-round differences. */
    relayAddedMsP50?: number;
    /** The path's whole floor with no extension code: the relay to the SDK's own Client in the document. */
    floorP50?: number;
    /** That floor over the bare fetch, median of per-round differences. */
    floorAddedMsP50?: number;
    /** The extension's own code: the agent path over that floor, median of per-round differences. */
    agentOverFloorMsP50?: number;
  };
  concurrencyH2?: Concurrency & { nodeSdk: { errors: string[] } };
  concurrency?: Concurrency;
  socketCap?: {
    calls: number;
    slowMs: number;
    extensionWallMs: number;
    nodeSdkWallMs: number;
    predictedCappedMs: number;
    allCompleted: boolean;
  };
  memory?: Record<string, unknown> & { connected: number; baseConnected?: number; perServerBytes: number; servers2: { usedBytes: number } };
  panel?: {
    lists: PanelList[];
    chat: {
      rate: number;
      tokens: number;
      chars: number;
      shownChars: number;
      wallMs: number;
      longTasks: number[];
      lateP50: number;
      /** The machine's 1-minute load average and core count when the stream ended. */
      load?: { avg1: number; cores: number };
    };
  };
  extensionErrors?: string[];
  /** `--soak`, and the smoke's shortened run (bench/soak.ts). */
  soak?: SoakResult;
  /** Minified bytes of each built bundle (and gzipped: what a download costs). */
  bundles?: { file: string; bytes: number; gzipBytes: number }[];
  notes: string[];
  totalSeconds?: number;
}

interface Concurrency {
  servers: number;
  perServer: number;
  slowMs: number;
  sent: number;
  serverRan: number;
  noneLost: boolean;
  idealCappedMs: number;
  extension: ConcurrencySide & { errors: string[] };
  /** The same calls made from the worker with AgentTool.call ("always" grants): what an agent pays. */
  agent?: ConcurrencySide & { errors: string[] };
  nodeSdk: ConcurrencySide;
  /** The browser's floor: the same calls as bare fetches from the offscreen document (h2 only). */
  offscreenFetch?: ConcurrencySide & { errors: string[] };
  /** The SDK's own Client alone in the offscreen document, one per server (h2 only; bench/sdk-floor-entry.ts). */
  offscreenSdk?: ConcurrencySide & { errors: string[] };
}

interface ConcurrencySide {
  callsPerSecond: number;
  wallMs: number[];
  ok: number[];
  p50: number;
  max: number;
}

const f = (n: number | undefined, d = 2) => (n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(d));
const pct = (n: number) => `±${(n * 50).toFixed(0)} %`;
const mib = (n: number) => (n / 1048576).toFixed(1);

export function markdown(r: Results): string {
  const out = [
    `# Bench ${r.smoke ? '(smoke: too few samples to trust)' : ''}`,
    '',
    `${r.startedAt}, ${r.totalSeconds?.toFixed(0)} s. Spread = half the interquartile range relative to the median.`,
    '',
    '## Latency of one `tools/call` echo (sequential, after warm-up, rounds interleaved)',
    '',
    '| Variant | What it measures | n | p50 ms | p95 ms | spread | client CPU ms/call |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...r.latency.map(
      (l) =>
        `| ${l.key} | ${l.what} | ${l.n} | ${f(l.p50)} | ${f(l.p95)} | ${pct(l.spread)} | ${l.cpuMsPerCall === undefined ? 'n/a' : f(l.cpuMsPerCall, 3)} |`,
    ),
    '',
    '| Ratio (median of per-round ratios) | value | per-round range | goal | met |',
    '|---|---:|---:|---|---|',
    ...r.ratios.map(
      (x) =>
        `| ${x.name} | ${f(x.ratio)}× | ${f(x.min)}–${f(x.max)} | ${x.goal ?? ''} | ${x.limit !== undefined ? (x.ratio <= x.limit ? 'yes' : '**no**') : ''} |`,
    ),
  ];
  if (r.agentPath) {
    const a = r.agentPath;
    out.push(
      '',
      `Agent path (AgentTool.call in the worker, "always" approval) adds ${f(a.addedMsP50)} ms at p50 over the bare offscreen fetch ` +
        `(${f(a.agentP50)} vs ${f(a.fetchP50)} ms; median of per-round differences); goal ${a.goal}: ${a.addedMsP50 <= a.maxMs ? 'met' : '**not met**'}. ` +
        `The panel path adds ${f(a.panelAddedMsP50)} ms` +
        (a.panelMaxMs !== undefined ? `; goal ${a.panelGoal}: ${a.panelAddedMsP50 <= a.panelMaxMs ? 'met' : '**not met**'}.` : '.'),
    );
    if (
      a.sdkAddedMsP50 !== undefined &&
      a.relayAddedMsP50 !== undefined &&
      a.floorAddedMsP50 !== undefined &&
      a.agentOverFloorMsP50 !== undefined
    )
      out.push(
        '',
        `Where the agent path's ${f(a.addedMsP50)} ms over the bare fetch go (medians of per-round differences; no extension code in the first three): ` +
          `the SDK's own Client.callTool in the same document adds ${f(a.sdkAddedMsP50)} ms; the worker asking the document for the bare fetch ` +
          `on a MessageChannel (the path's two hops) adds ${f(a.relayAddedMsP50)} ms; both together, the path's floor, add ${f(a.floorAddedMsP50)} ms. ` +
          `The extension's own code (approval, request log, dispatcher, bounds, checks, fences) is the rest: ${f(a.agentOverFloorMsP50)} ms over that floor.`,
      );
  }
  if (r.chat) {
    const c = r.chat;
    const row = (name: string, x: Summary) => `| ${name} | ${x.n} | ${f(x.p50)} | ${f(x.p95)} | ${pct(x.spread)} |`;
    out.push(
      '',
      '## Chat (scripted OpenAI-compatible provider on loopback)',
      '',
      '| Measure | n | p50 ms | p95 ms | spread |',
      '|---|---:|---:|---:|---:|',
      row('first token, direct fetch from the panel page', c.firstToken.direct),
      row('first token, Enter in the chat view → token shown', c.firstToken.extension),
      ...(c.remote
        ? [
            row('first token, provider 240 ms away: direct fetch from the panel page', c.remote.direct),
            row('first token, provider 240 ms away: Enter in the chat view → token shown', c.remote.extension),
          ]
        : []),
      row('request reaches the provider, direct fetch', c.requestArrives.direct),
      row('request reaches the provider, chat (from the key press)', c.requestArrives.extension),
      row(`per tool step: loop overhead (tool-call answer end → next request, minus the call; ${c.tool}, "always")`, c.toolStepOverhead),
      row('per tool step: the MCP call itself', c.mcpCall),
    );
  }
  if (r.cold) {
    const met = r.cold.extension.p50 <= (r.cold.limitMs ?? 50);
    const script = r.cold.scriptLimitMs;
    const row = (name: string, x: Summary) => `| ${name} | ${x.n} | ${f(x.p50, 0)} | ${f(x.p95, 0)} | ${pct(x.spread)} |`;
    const marks = (s: ColdSplit) =>
      (
        [
          ['worker start → script runs (loaded and compiled)', s.scriptStart],
          ['worker start → script evaluated', s.evaluated],
          ['worker start → configuration read', s.config],
          ['worker start → document claimed', s.claimed],
        ] as const
      ).flatMap(([name, x]) => {
        if (!x?.n) return [];
        // The script's load and compile has a goal of its own (r.cold.scriptGoal), shown on its row.
        const goal =
          script !== undefined && x === s.scriptStart ? ` (goal ≤ ${script} ms: ${x.p50 <= script ? 'met' : '**not met**'})` : '';
        return [row(`  … ${name}${goal}`, x)];
      });
    out.push(
      '',
      '## Cold wake (service worker stopped; server already configured)',
      '',
      '| Path | n | p50 ms | p95 ms | spread |',
      '|---|---:|---:|---:|---:|',
      row('extension: first tool result after a stopped worker (wake, config, claim + adopt the live session, call)', r.cold.extension),
      ...(r.cold.adopt
        ? [
            row('… of which: wake → worker script starts', r.cold.adopt.workerStart),
            row('… of which: worker start → start-up done (claim, adopt; no reconnect)', r.cold.adopt.startup),
            ...marks(r.cold.adopt),
          ]
        : []),
      ...(r.cold.isolatedFetch
        ? [row('browser floor: one isolated bare fetch from the offscreen document after the same idle', r.cold.isolatedFetch)]
        : []),
      ...(r.cold.backToBackFetch ? [row('… the same bare fetch again at once (back to back)', r.cold.backToBackFetch)] : []),
      ...(r.cold.reconnect
        ? [
            row(
              'reconnect path (document closed too): first tool result (new document, initialize, catalog, call)',
              r.cold.reconnect.firstResult,
            ),
            row('… of which: wake → worker script starts', r.cold.reconnect.workerStart),
            row('… of which: worker start → start-up done (nothing to adopt)', r.cold.reconnect.startup),
            ...marks(r.cold.reconnect),
          ]
        : []),
      row('Node SDK: new Client, connect, call', r.cold.nodeSdk),
      '',
      ...(r.cold.reconnect
        ? [`Reconnect ÷ adopt, first tool result p50: ${f(r.cold.reconnect.firstResult.p50 / r.cold.extension.p50)}×.`, '']
        : []),
      `Goal ${r.cold.goal}: ${met ? 'met' : '**not met**'}.`,
      ...(r.cold.ourShare && r.cold.isolatedFetch && r.cold.adopt
        ? ['', ourShare(r.cold.extension, r.cold.adopt, r.cold.isolatedFetch, r.cold.ourShare)]
        : []),
    );
  }
  for (const [c, title] of [
    [r.concurrency, ''],
    [r.concurrencyH2, ' over HTTPS + HTTP/2'],
  ] as const) {
    if (!c) continue;
    const row = (name: string, x: ConcurrencySide) =>
      `| ${name} | ${f(x.callsPerSecond, 0)} | ${x.wallMs.map((w) => w.toFixed(0)).join(', ')} | ${f(x.p50, 0)} | ${f(x.max, 0)} | ${x.ok.join(', ')} of ${c.servers * c.perServer} |`;
    const errors = [...c.extension.errors, ...(c.agent?.errors ?? [])];
    out.push(
      '',
      `## Concurrency${title}: ${c.servers} servers × ${c.perServer} calls in flight, slow(1 step × ${c.slowMs} ms)`,
      '',
      '| Path | calls/s | wall ms per run | p50 call ms | max call ms | completed per run |',
      '|---|---:|---|---:|---:|---|',
      row('extension (panel → worker → offscreen)', c.extension),
      ...(c.agent ? [row('agent (worker → offscreen)', c.agent)] : []),
      row('Node SDK, one client per server', c.nodeSdk),
      ...(c.offscreenFetch ? [row('bare fetch from the offscreen document (the browser’s floor)', c.offscreenFetch)] : []),
      ...(c.offscreenSdk ? [row('the SDK’s own Client alone in the offscreen document', c.offscreenSdk)] : []),
      '',
      ...(c.offscreenFetch ? [floorRatios(c, c.offscreenFetch), ''] : []),
      `Throughput ratio extension ÷ Node SDK: ${f(c.extension.callsPerSecond / c.nodeSdk.callsPerSecond)}×${title ? ` (goal ≥ 0.8, ${c.extension.callsPerSecond / c.nodeSdk.callsPerSecond >= 0.8 && c.noneLost ? 'met' : '**not met**'})` : ''}. ` +
        (c.agent
          ? `Agent throughput ÷ Node SDK: ${f(c.agent.callsPerSecond / c.nodeSdk.callsPerSecond)}× (what an agent calling from the worker pays; the goal above is measured on the panel path). `
          : '') +
        `Calls sent ${c.sent}, run by the servers ${c.serverRan}: ${c.noneLost ? 'no call lost' : '**calls lost or failed**'}${errors.length ? ` (${errors.join('; ')})` : ''}. ` +
        (title
          ? 'HTTP/2 multiplexes every call of a server on one connection: no per-host socket cap.'
          : `Chrome's 6 sockets per host, one held by each session's GET event stream (these servers declare list changes), leave 5 for calls: ${c.perServer} calls per server need ⌈${c.perServer}/5⌉ waves ≈ ${c.idealCappedMs} ms of server time alone, vs ${c.slowMs} ms uncapped.`),
    );
  }
  if (r.socketCap) {
    const s = r.socketCap;
    out.push(
      '',
      `Socket cap alone (one server, ${s.calls} calls of ${s.slowMs} ms in flight): extension ${f(s.extensionWallMs, 0)} ms, Node SDK ${f(s.nodeSdkWallMs, 0)} ms ` +
        `(${f(s.extensionWallMs / s.nodeSdkWallMs)}×); 5 usable sockets predict ${s.predictedCappedMs} ms: the extra calls wait, queued, in Chrome's socket pool` +
        `; ${s.allCompleted ? 'every call completed' : '**some calls did not complete**'}.`,
    );
  }
  if (r.memory) {
    const m = r.memory as unknown as Record<string, { usedBytes: number; totalBytes: number }> & {
      connected: number;
      perServerBytes: number;
    };
    const n = m[`servers${m.connected}`]!;
    out.push(
      '',
      '## Offscreen document JS heap (after a forced GC, CDP Runtime.getHeapUsage)',
      '',
      `${r.memory.baseConnected ?? 2} servers connected: ${mib(m.servers2!.usedBytes)} MiB used; ${m.connected} connected: ${mib(n.usedBytes)} MiB used (${mib(n.totalBytes)} MiB allocated); ≈ ${(m.perServerBytes / 1024).toFixed(0)} KiB per extra session.`,
    );
  }
  if (r.panel) {
    const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
    const tasks = (l: number[]) => (l.length ? `${l.length}, longest ${f(Math.max(...l), 0)} ms` : 'none');
    const big = r.panel.lists.find((l) => l.kind === 'tools10k');
    const name = (l: PanelList) =>
      l.kind === 'detail'
        ? 'server detail (mcp-server-detail → mcp-tool-list)'
        : l.kind === 'tools'
          ? 'Tools view (mcp-tools-view)'
          : `Tools view (mcp-tools-view) with ${l.tools.toLocaleString('en')} tools: ${l.servers} real bench servers × ${Math.round(l.tools / (l.servers ?? 1))}, connected through the extension (filter "${l.word}")`;
    out.push(
      '',
      `## Panel: a server with ${r.panel.lists[0]?.tools ?? 0} tools` +
        (big ? `; the Tools view with ${big.servers} servers × ${Math.round(big.tools / (big.servers ?? 1))} tools` : ''),
      '',
    );
    out.push('| List | measure | n | p50 ms | p95 ms | spread | goal | met |', '|---|---|---:|---:|---:|---:|---|---|');
    for (const l of r.panel.lists) {
      const fl = l.filter;
      out.push(
        `| ${name(l)} | first render: data set → next frame painted (${l.rowsAtFirstFrame} rows attached by then) | ${l.firstRender.n} | ${f(l.firstRender.p50, 1)} | ${f(l.firstRender.p95, 1)} | ${pct(l.firstRender.spread)} | ≤ 60 ms | ${yes(l.firstRender.p50 <= 60)} |`,
        `| | … until every row it attaches is in (long tasks: ${tasks(l.renderLongTasks)}) | ${l.complete.n} | ${f(l.complete.p50, 1)} | ${f(l.complete.p95, 1)} | ${pct(l.complete.spread)} | | |`,
      );
      if (fl)
        out.push(
          `| | filter keystroke: input event → style + layout done (rows shown ${fl.rowsMin}–${fl.rowsMax}) | ${fl.n} | ${f(fl.p50, 1)} | ${f(fl.p95, 1)} | ${pct(fl.spread)} | < 16 ms | ${yes(fl.p50 < 16)} |`,
          `| | … only the keystrokes that changed the shown rows | ${fl.rowsChanged.n} | ${f(fl.rowsChanged.p50, 1)} | ${f(fl.rowsChanged.p95, 1)} | ${pct(fl.rowsChanged.spread)} | < 16 ms | ${yes(fl.rowsChanged.p50 < 16)} |`,
          `| | … input event → next frame painted (includes the wait for vsync; long tasks: ${tasks(fl.longTasks)}) | ${fl.toFrame.n} | ${f(fl.toFrame.p50, 1)} | ${f(fl.toFrame.p95, 1)} | ${pct(fl.toFrame.spread)} | | |`,
        );
      out.push(
        `| | a push that changes nothing: → next frame (${l.samePush.replaced} of ${l.samePush.rows * l.samePush.n} row elements not reused) | ${l.samePush.n} | ${f(l.samePush.p50, 1)} | ${f(l.samePush.p95, 1)} | ${pct(l.samePush.spread)} | no row rebuilt | ${yes(l.samePush.replaced === 0)} |`,
      );
    }
    const c = r.panel.chat;
    out.push(
      '',
      `Chat streaming into mcp-chat-view at ${c.rate} tokens/s (setText with the whole text so far, as pushed): ${c.tokens} tokens, ${c.chars} characters in ${f(c.wallMs / 1000, 1)} s; timer lateness p50 ${f(c.lateP50, 1)} ms; long tasks: ${tasks(c.longTasks)}; goal no long task over 50 ms: ${yes(c.longTasks.every((d) => d <= 50))}${c.load ? ` (load average ${f(c.load.avg1, 1)} on ${c.load.cores} cores: a long task's wall time includes time the page's thread waited for a core)` : ''}.`,
    );
  }
  if (r.bundles?.length) {
    const kib = (b: number) => f(b / 1024, 1);
    out.push(
      '',
      '## Bundles (minified)',
      '',
      '| File | KiB | gzip KiB | goal | met |',
      '|---|---:|---:|---|---|',
      ...r.bundles.map((b) =>
        b.file === 'sw.js'
          ? `| ${b.file} | ${kib(b.bytes)} | ${kib(b.gzipBytes)} | ≤ 100 KiB | ${b.bytes <= 100 * 1024 ? 'yes' : '**no**'} |`
          : `| ${b.file} | ${kib(b.bytes)} | ${kib(b.gzipBytes)} | | |`,
      ),
    );
  }
  if (r.soak) out.push('', ...soakMarkdown(r.soak));
  if (r.extensionErrors?.length) out.push('', `Errors logged by extension contexts: ${r.extensionErrors.join(' | ')}`);
  for (const n of r.notes) out.push('', n);
  return out.join('\n') + '\n';
}

/**
 * What of the adopted first result is left once Chromium's own parts are taken out: its wake of the
 * worker (→ script starts) and the call's fetch, as one isolated bare fetch after the same idle.
 */
function ourShare(first: Summary, adopt: ColdSplit, fetch: Summary, share: Summary): string {
  const fromP50s = first.p50 - adopt.workerStart.p50 - fetch.p50;
  const load = adopt.scriptStart?.n
    ? ` It still holds worker start → script runs (loaded and compiled, ${f(adopt.scriptStart.p50, 1)} ms at p50): Chromium's work, on our bundle.`
    : '';
  return (
    `Our share of the adopted first result: first result − (wake → script starts) − (isolated bare fetch) = ${f(share.p50, 1)} ms at p50 ` +
    `(the median of the ${share.n} per-iteration differences; from the p50s: ${f(first.p50, 1)} − ${f(adopt.workerStart.p50, 1)} − ${f(fetch.p50, 1)} = ${f(fromP50s, 1)} ms).${load}`
  );
}

/** Our share at this concurrency: the extension's and the agent's throughput over the browser's own (goal ≥ 0.8 each). */
function floorRatios(c: Concurrency, floor: ConcurrencySide): string {
  const ratio = (x: ConcurrencySide) => x.callsPerSecond / floor.callsPerSecond;
  const verdict = (x: ConcurrencySide) => (ratio(x) >= 0.8 && c.noneLost ? 'met' : '**not met**');
  const agent = c.agent ? ` Agent ÷ bare fetch: ${ratio(c.agent).toFixed(2)}× (goal ≥ 0.8, ${verdict(c.agent)}).` : '';
  const sdk = c.offscreenSdk
    ? ` The SDK's own Client alone in the document ÷ bare fetch: ${ratio(c.offscreenSdk).toFixed(2)}×; extension ÷ that Client: ` +
      `${(c.extension.callsPerSecond / c.offscreenSdk.callsPerSecond).toFixed(2)}×${c.agent ? `, agent ÷ that Client: ${(c.agent.callsPerSecond / c.offscreenSdk.callsPerSecond).toFixed(2)}×` : ''}.`
    : '';
  return `Extension ÷ bare offscreen fetch at the same concurrency: ${ratio(c.extension).toFixed(2)}× (goal ≥ 0.8, ${verdict(c.extension)}).${agent}${sdk}`;
}
