/**
 * The Node baselines: the bare-fetch code of {@link BENCH_CODE} (run in this process) and the
 * SDK's own `Client` + `StreamableHTTPClientTransport`, which is what a user of the SDK outside a
 * browser would get. CPU per call is this process's `process.cpuUsage()` over a batch: the
 * servers run in a child process, so it is the client's share only.
 */
import { runInThisContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BENCH_CODE } from './browser-code.js';

interface BenchGlobal {
  fetchBatch(url: string, n: number): Promise<number[]>;
}

runInThisContext(BENCH_CODE);
const bench = (globalThis as unknown as { __bench: BenchGlobal }).__bench;

export interface Batch {
  ms: number[];
  /** Client CPU (user + system) per call, ms. */
  cpuMs: number;
}

async function timed(n: number, run: () => Promise<number[]>): Promise<Batch> {
  const before = process.cpuUsage();
  const ms = await run();
  const cpu = process.cpuUsage(before);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 / n };
}

export const nodeFetchBatch = (url: string, n: number) => timed(n, () => bench.fetchBatch(url, n));

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch over HTTP/2 that trusts exactly the bench certificate, or the reason there is none.
 * Node 20's global fetch speaks HTTP/1.1 only; undici's own `fetch` with an `Agent({ allowH2 })`
 * negotiates h2. undici is not a dependency of this project: it is used when another package
 * brought it into node_modules (hence the import by a variable name), else the h2 rows say why not.
 */
export async function h2Fetch(ca: string): Promise<{ fetch: FetchLike; version: string } | { reason: string }> {
  const name = 'undici';
  try {
    const undici = (await import(name)) as {
      Agent: new (o: object) => unknown;
      fetch: (url: string | URL, init: object) => Promise<Response>;
    };
    const { createRequire } = await import('node:module');
    const version = (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
    const dispatcher = new undici.Agent({ allowH2: true, connect: { ca } });
    return { fetch: (url, init) => undici.fetch(url, { ...init, dispatcher }), version };
  } catch (e) {
    return { reason: `undici is not importable from node_modules (${String(e).slice(0, 120)}), and Node 20's fetch speaks HTTP/1.1 only` };
  }
}

export async function sdkClient(url: string, fetch?: FetchLike): Promise<Client> {
  const client = new Client({ name: 'bench-sdk', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  return client;
}

async function sdkEcho(client: Client): Promise<void> {
  const r = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
  const first = (r.content as { text?: string }[] | undefined)?.[0];
  if (first?.text !== 'echo: x') throw new Error(`unexpected SDK answer ${JSON.stringify(r).slice(0, 200)}`);
}

export function nodeSdkBatch(client: Client, n: number): Promise<Batch> {
  return timed(n, async () => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await sdkEcho(client);
      out.push(performance.now() - t0);
    }
    return out;
  });
}

/** A fresh SDK client: connect (initialize + initialized) and one call, as a cold start would. */
export async function sdkColdCall(url: string): Promise<number> {
  const t0 = performance.now();
  const client = await sdkClient(url);
  await sdkEcho(client);
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

/** perServer `slow` calls in flight on each of the clients at once (undici: no per-host socket cap). */
export async function sdkConcurrent(clients: Client[], perServer: number, args: Record<string, unknown>) {
  const t0 = performance.now();
  const jobs = clients.flatMap((c) =>
    Array.from({ length: perServer }, () => {
      const s = performance.now();
      // Asks for progress, as the extension does (see fetchConcurrent in browser-code.ts).
      return c.callTool({ name: 'slow', arguments: args }, undefined, { onprogress: () => undefined }).then(
        () => ({ ok: true, ms: performance.now() - s }),
        () => ({ ok: false, ms: performance.now() - s }),
      );
    }),
  );
  const results = await Promise.all(jobs);
  return { wallMs: performance.now() - t0, ok: results.filter((r) => r.ok).length, latencies: results.map((r) => r.ms) };
}
