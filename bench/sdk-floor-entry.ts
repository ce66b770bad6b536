/**
 * The SDK's own floor inside the offscreen document: the official `Client` + its
 * `StreamableHTTPClientTransport` (the same SDK build the extension's document runs for a 2025
 * server), called directly in the page with the browser's `fetch` and none of the extension's
 * code around it: no worker, no channel, no dispatcher, no bounds. Bundled by `sdk-floor.ts` and
 * installed with DevTools `evaluate` as `globalThis.__sdkFloor`. It splits "over a bare fetch"
 * into the SDK's share (this minus the bare fetch) and ours (the extension minus this).
 */
(globalThis as { __zod_globalConfig?: { jitless: boolean } }).__zod_globalConfig = { jitless: true };
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';

const clients = new Map<string, Promise<Client>>();

function clientFor(url: string): Promise<Client> {
  let c = clients.get(url);
  if (!c) {
    const client = new Client({ name: 'bench-sdk-floor', version: '1' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    c = client.connect(new StreamableHTTPClientTransport(new URL(url))).then(() => client);
    clients.set(url, c);
  }
  return c;
}

async function check(r: Promise<unknown>): Promise<void> {
  const text = JSON.stringify(await r);
  if (!text.includes('echo: x')) throw new Error('unexpected SDK answer: ' + text.slice(0, 200));
}

/** The same tools/call echo as the bench's bare fetch (browser-code.ts `echoBody`). */
const echo = (client: Client) => client.callTool({ name: 'echo', arguments: { text: 'x' } });

interface Outcome {
  ok: boolean;
  ms: number;
  error?: string;
}

(globalThis as unknown as { __sdkFloor: unknown }).__sdkFloor = {
  /** One `callTool` echo, as JSON text (the worker relay's document side; its worker end checks it, browser-code.ts). */
  async once(url: string): Promise<string> {
    return JSON.stringify(await echo(await clientFor(url)));
  },
  /** n sequential `callTool` echo; ms per call. */
  async batch(url: string, n: number): Promise<number[]> {
    const client = await clientFor(url);
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await check(echo(client));
      out.push(performance.now() - t0);
    }
    return out;
  },
  /**
   * perServer `callTool` of `slow` in flight at once on every server, one client per server (as
   * the bench's fetchConcurrent and the Node SDK's run); wall time and every outcome.
   */
  async concurrent(urls: string[], perServer: number, args: Record<string, unknown>) {
    const all = await Promise.all(urls.map((u) => clientFor(u)));
    const t0 = performance.now();
    const jobs: Promise<Outcome>[] = [];
    for (const client of all)
      for (let i = 0; i < perServer; i++) {
        const s = performance.now();
        jobs.push(
          // Asks for progress, as the extension does (see fetchConcurrent in browser-code.ts).
          client.callTool({ name: 'slow', arguments: args }, undefined, { onprogress: () => undefined }).then(
            (r) => ({ ok: !r.isError, ms: performance.now() - s }),
            (e: unknown) => ({ ok: false, ms: performance.now() - s, error: String(e).slice(0, 200) }),
          ),
        );
      }
    const results = await Promise.all(jobs);
    return {
      wallMs: performance.now() - t0,
      ok: results.filter((r) => r.ok).length,
      latencies: results.map((r) => r.ms),
      errors: results
        .filter((r) => !r.ok)
        .slice(0, 3)
        .map((r) => r.error),
    };
  },
};
