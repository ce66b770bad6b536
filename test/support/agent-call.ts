/**
 * An agent's call in the worker (README "AgentTool") started without DevTools on the worker
 * (worker-lifecycle.ts): its outcome lands in a worker global that the test polls, so the call may
 * wait for an approval card in between.
 */
import { until, type ExtensionBrowser } from './browser.js';
import { evaluateInWorker } from './worker-lifecycle.js';

export interface AgentOutcome {
  ok: boolean;
  /** The text parts of the result, joined by newlines. */
  text?: string;
  message?: string;
}

/** Starts `agentTools.call(name, args)`; its outcome goes to `globalThis[key]`. */
export async function startAgentCall(ext: ExtensionBrowser, name: string, args: unknown, key: string): Promise<void> {
  const slot = JSON.stringify(key);
  await evaluateInWorker(
    ext,
    `(() => { const g = globalThis; g[${slot}] = undefined;
      void g.remoteMcp.agentTools.call(${JSON.stringify(name)}, ${JSON.stringify(args)}).then(
        (r) => (g[${slot}] = { ok: true, text: r.result.content.map((c) => c.text ?? '').join('\\n') }),
        (e) => (g[${slot}] = { ok: false, message: e.message }));
      return true; })()`,
  );
}

/** The outcome of the call started under `key`, once there is one. */
export function agentOutcome(ext: ExtensionBrowser, key: string, timeoutMs = 20_000): Promise<AgentOutcome> {
  return until(
    `the outcome of ${key}`,
    () => evaluateInWorker<AgentOutcome | null>(ext, `globalThis[${JSON.stringify(key)}] ?? null`).then((v) => v ?? undefined),
    timeoutMs,
  );
}
