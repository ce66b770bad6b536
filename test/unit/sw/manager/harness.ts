/**
 * A controllable fake of the manager's ports: every offscreen request is recorded with a
 * deferred answer. A responder answers the routine ones at once; anything it leaves alone
 * stays pending until the test settles it, so tests choose the order of every interleaving.
 */
import { McpManager, type ManagerOptions, type ManagerPorts } from '../../../../src/sw/manager/mcp-manager.js';
import type { McpServerConfig } from '../../../../src/storage/config-schema.js';
import { deferred as deferredOf } from '../../../support/deferred.js';

/** Deferred answers default to `unknown`: offscreen replies carry values of many shapes. */
const deferred = <T = unknown>() => deferredOf<T>();

/** Lets every queued promise callback run (several rounds, the manager chains a few awaits). */
export async function flush(rounds = 10) {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

interface Req {
  method: string;
  params: Record<string, unknown>;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** What the responder returns to leave a request pending. */
export const PENDING = Symbol('pending');
export type Responder = (method: string, params: Record<string, unknown>) => unknown;

export const TOOL = (name: string) => ({ name, inputSchema: { type: 'object' } });

/** Default catalog: one tool, one prompt, nothing else. */
export const CATALOG: Record<string, unknown[]> = {
  tools: [TOOL('echo')],
  prompts: [{ name: 'greet' }],
  resources: [],
  resourceTemplates: [],
};

/** Answers connect, list-category (from {@link CATALOG}) and close at once. */
export const routine: Responder = (method, params) => {
  switch (method) {
    case 'offscreen:connect':
      return { capabilities: {} };
    case 'offscreen:list-category':
      return { category: params.category, items: CATALOG[params.category as string] };
    case 'offscreen:close':
      return { closed: true };
    default:
      return PENDING;
  }
};

/** Refreshes are not paced unless a test asks for it (`options.refreshIntervalMs`). */
export function harness(
  responder: Responder = routine,
  options: ManagerOptions = { refreshIntervalMs: 0 },
  extra: Partial<ManagerPorts> = {},
) {
  const requests: Req[] = [];
  const delays: number[] = [];
  let next = 0;
  const ports: ManagerPorts = {
    request: ((method: string, params: Record<string, unknown>) => {
      const d = deferred();
      const req: Req = {
        method,
        params,
        settled: false,
        resolve: (v) => {
          req.settled = true;
          d.resolve(v);
        },
        reject: (e) => {
          req.settled = true;
          d.reject(e);
        },
      };
      requests.push(req);
      try {
        const answer = responder(method, params);
        if (answer !== PENDING) req.resolve(answer);
      } catch (e) {
        req.reject(e);
      }
      return d.promise;
    }) as ManagerPorts['request'],
    hasHostPermission: async () => true,
    headersFor: async () => ({}),
    newId: () => `c${++next}`,
    delay: async (ms) => {
      delays.push(ms);
    },
    ...extra,
  };
  const manager = new McpManager(ports, options);
  return {
    manager,
    requests,
    delays,
    /** Requests of one method, optionally only those still pending. */
    of: (method: string, pendingOnly = false) => requests.filter((r) => r.method === `offscreen:${method}` && (!pendingOnly || !r.settled)),
    /** connectionIds that were opened / closed. */
    opened: () => requests.filter((r) => r.method === 'offscreen:connect').map((r) => r.params.connectionId),
    closed: () => requests.filter((r) => r.method === 'offscreen:close').map((r) => r.params.connectionId),
    view: (id: string) => manager.views().find((v) => v.id === id)!,
  };
}

export function cfg(id: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    id,
    name: id,
    url: `http://127.0.0.1:9/${id}`,
    auth: { kind: 'none' },
    enabled: true,
    disabledTools: [],
    connectOnStartup: false,
    ...over,
  };
}

/** Resolves to 'pending' if `p` has not settled after a flush. */
export async function settledState(p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let s: 'pending' | 'resolved' | 'rejected' = 'pending';
  p.then(
    () => (s = 'resolved'),
    () => (s = 'rejected'),
  );
  await flush();
  return s;
}
