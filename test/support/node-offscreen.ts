/**
 * The real offscreen host (src/offscreen/host.ts, with the real SDK client) running in Node, wired
 * to a real McpManager through a real McpWorkerClient: tests of the manager against a real server
 * process. The host reaches its worker through `chrome.runtime.connect`, which is faked here by a
 * Port pair passing structured clones, as Chrome does. One host per test process.
 */
import { McpManager, type ManagerOptions } from '../../src/sw/manager/mcp-manager.js';
import { McpWorkerClient, type PortLike } from '../../src/sw/offscreen-link/worker-client.js';

type Listeners = { message: ((m: unknown) => void)[]; disconnect: (() => void)[] };

function end(mine: Listeners, other: () => Listeners) {
  return {
    postMessage: (m: unknown) => {
      const copy = structuredClone(m);
      queueMicrotask(() => other().message.forEach((cb) => cb(copy)));
    },
    onMessage: { addListener: (cb: (m: unknown) => void) => void mine.message.push(cb) },
    onDisconnect: { addListener: (cb: () => void) => void mine.disconnect.push(cb) },
    disconnect() {},
  };
}

/** Starts the host once and returns a manager talking to it (ids `c1`, `c2` …, no recovery waits). */
export async function managerOverRealHost(options: ManagerOptions = {}): Promise<{ manager: McpManager; client: McpWorkerClient }> {
  const host: Listeners = { message: [], disconnect: [] };
  const worker: Listeners = { message: [], disconnect: [] };
  (globalThis as unknown as { chrome: unknown }).chrome = { runtime: { connect: () => end(host, () => worker) } };
  const { startOffscreenHost } = await import('../../src/offscreen/host.js');
  startOffscreenHost();
  const port: PortLike = end(worker, () => host);
  const client = new McpWorkerClient(async () => port);
  let n = 0;
  const manager = new McpManager(
    {
      request: (method, params) => client.request(method, params),
      hasHostPermission: async () => true,
      headersFor: async () => ({}),
      newId: () => `c${++n}`,
      delay: async () => undefined,
    },
    options,
  );
  client.onEvent((e) => manager.handleEvent(e));
  return { manager, client };
}

/** Polls (real time: sessions talk HTTP) until `check` holds. */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
