/**
 * Runs demo MCP servers (test/support/demo-server.ts) in a process of their own, so the server's
 * CPU never competes with the measuring process's event loop. Started by bench/run.ts; argv[2] is
 * a JSON list of groups `{ jsonResponse, count, extraTools, listChanged, tls, delayMs }`; the TLS key and
 * certificate (PEM) come in the BENCH_TLS environment variable as `{ key, cert }`. Prints one JSON line with the URLs
 * per group, then lives until stdin closes (the parent exited or killed it).
 * Its own tsx process also keeps the demo server's dependencies out of the measuring process.
 */
import { startDemoServer, type DemoServer } from '../test/support/demo-server.js';

interface Group {
  jsonResponse: boolean;
  count: number;
  /** Extra no-op tools registered on every session (for the 1,000-tool panel test). */
  extraTools?: number;
  /** false: the servers declare no list changes. */
  listChanged?: boolean;
  /** HTTPS with HTTP/2, with the BENCH_TLS certificate. */
  tls?: boolean;
  /** Added delay before every request is handled (a network round trip). */
  delayMs?: number;
}

const groups = JSON.parse(process.argv[2] ?? '[]') as Group[];
const tls = process.env['BENCH_TLS'] ? (JSON.parse(process.env['BENCH_TLS']) as { key: string; cert: string }) : undefined;
const all: DemoServer[] = [];
const urls: string[][] = [];
for (const g of groups) {
  const list: string[] = [];
  for (let i = 0; i < g.count; i++) {
    const s = await startDemoServer({
      jsonResponse: g.jsonResponse,
      name: `bench-${all.length}`,
      ...(g.listChanged === false ? { listChanged: false } : {}),
      ...(g.tls && tls ? { tls } : {}),
      ...(g.delayMs ? { delayMs: g.delayMs } : {}),
    });
    for (let t = 0; t < (g.extraTools ?? 0); t++) s.addTool(`tool_${String(t).padStart(4, '0')}`);
    all.push(s);
    list.push(s.url);
  }
  urls.push(list);
}
process.stdout.write(JSON.stringify({ urls }) + '\n');

const stop = async () => {
  await Promise.allSettled(all.map((s) => s.close()));
  process.exit(0);
};
// A line "stats" on stdin answers with the tool calls the servers ran (to prove none was lost) and
// the sessions they opened (a reconnect is a new session); "echoes" with every server's `echo`
// texts (the soak tags each call, to find one run twice or never).
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += String(chunk);
  for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (line === 'stats')
      process.stdout.write(
        JSON.stringify({
          toolCalls: all.map((s) => s.stats.toolCalls.length),
          sessionsOpened: all.map((s) => s.stats.sessionsOpened),
          initializeRequests: all.map((s) => s.stats.initializeRequests),
          eventStreams: all.map((s) => s.stats.eventStreams),
        }) + '\n',
      );
    if (line === 'echoes') process.stdout.write(JSON.stringify({ echoes: all.map((s) => s.stats.echoTexts) }) + '\n');
  }
});
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
