/**
 * CPU profiles for explaining a missed goal (`BENCH_PROFILE=1 npm run bench -- --only concurrency`):
 * the V8 sampling profiler over CDP on each extension context (panel, worker, offscreen document)
 * around one measured run, written as `.cpuprofile` files (open them in DevTools' Performance
 * panel) with a short summary of where each context's time went. A measuring tool only: no test
 * attaches DevTools to the worker.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import type { CDPSession } from 'puppeteer-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** `1`: CPU profiles of each context and CPU time by process; `cpu`: CPU time by process only (no profiler running). */
export const profiling = process.env.BENCH_PROFILE === '1' || process.env.BENCH_PROFILE === 'cpu';
export const withProfiler = process.env.BENCH_PROFILE === '1';
const OUT = 'test-output/bench/profiles';

/** Starts the profiler on each session; the returned function stops them, writes and summarises. */
export async function profileAround(name: string, sessions: Record<string, CDPSession>, roots: number[]): Promise<() => Promise<string[]>> {
  const cpuBefore = await processCpu(roots);
  const wallStart = performance.now();
  for (const s of Object.values(sessions)) {
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: 200 });
    await s.send('Profiler.start');
  }
  return async () => {
    await mkdir(OUT, { recursive: true });
    const cpuAfter = await processCpu(roots);
    const wall = performance.now() - wallStart;
    const cpu = [...cpuAfter.entries()]
      .map(([kind, ms]) => [kind, ms - (cpuBefore.get(kind) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => `${kind} ${ms.toFixed(0)} ms`);
    const lines = [
      `${name} · CPU by process over ${wall.toFixed(0)} ms of wall time (2 cores = ${(2 * wall).toFixed(0)} ms): ${cpu.join('; ')}`,
    ];
    for (const [context, s] of Object.entries(sessions)) {
      const { profile } = (await s.send('Profiler.stop')) as unknown as { profile: Profile };
      await writeFile(`${OUT}/${name}-${context}.cpuprofile`, JSON.stringify(profile));
      lines.push(`${name} · ${context}: ${summarize(profile)}`);
    }
    return lines;
  };
}

/** Busy share of the wall time and the heaviest functions by self time (sample weights summed). */
function summarize(p: Profile): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  const samples = p.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!);
    const us = p.timeDeltas?.[i + 1] ?? 0;
    if (!node) continue;
    const fn = node.callFrame.functionName || '(anonymous)';
    if (fn !== '(idle)' && fn !== '(program)') busy += us;
    const file = node.callFrame.url.split('/').pop() || '';
    const key = `${fn} ${file}${file ? `:${node.callFrame.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + us);
  }
  const wall = p.endTime - p.startTime;
  const top = [...self.entries()]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)} ms`);
  return `busy ${((busy / wall) * 100).toFixed(0)} % of ${(wall / 1000).toFixed(0)} ms; top self: ${top.join('; ')}`;
}

/**
 * CPU time (user + system, ms) of Chromium's processes by kind and of the bench's server child,
 * from /proc (Linux): which process the machine's cores went to during a run.
 */
async function processCpu(roots: number[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (process.platform !== 'linux') return out;
  const procs: { pid: number; ppid: number; ms: number; cmd: string[] }[] = [];
  for (const pid of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command name: ppid is the 2nd field; utime and stime the 12th and 13th, in 1/100 s.
      procs.push({
        pid: Number(pid),
        ppid: Number(fields[1]),
        ms: (Number(fields[11]) + Number(fields[12])) * 10,
        cmd: (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0'),
      });
    } catch {
      // The process ended between listing and reading.
    }
  }
  // Only the given processes and their descendants: other browsers on the machine are not ours.
  const ours = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs)
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
  }
  for (const p of procs) {
    const kind = ours.has(p.pid) ? processKind(p.cmd) : undefined;
    if (kind) out.set(kind, (out.get(kind) ?? 0) + p.ms);
  }
  return out;
}

function processKind(cmd: string[]): string | undefined {
  const line = cmd.join(' ');
  if (line.includes('bench/server-child.ts')) return 'bench MCP servers (Node)';
  if (line.includes('bench/run.ts')) return 'bench (Node SDK clients)';
  if (!/chrom/i.test(cmd[0] ?? '')) return undefined;
  const type = /--type=([\w-]+)/.exec(line)?.[1];
  if (!type) return 'Chromium browser process';
  if (type === 'utility') return /NetworkService/i.test(line) ? 'Chromium network service' : 'Chromium other utility';
  if (type === 'renderer') return /--extension-process/.test(line) ? 'Chromium extension renderer' : 'Chromium other renderer';
  return `Chromium ${type}`;
}
