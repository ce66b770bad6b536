/**
 * The Chromium side of the bench: the built extension (OUT_DIR) launched by the e2e launcher,
 * servers configured the way `npm start` does (written to `chrome.storage.local`), and handles on
 * the panel page and the offscreen document with {@link BENCH_CODE} installed in both.
 */
import { TargetType, type CDPSession, type Page, type Target, type WebWorker } from 'puppeteer-core';
import { launchExtension, type ExtensionBrowser } from '../test/support/browser.js';
import { evaluateInWorker, stopWorker as stopWorkerBriefly } from '../test/support/worker-lifecycle.js';
import { BENCH_CODE } from './browser-code.js';

export interface BenchServer {
  id: string;
  url: string;
}

export interface Rig {
  ext: ExtensionBrowser;
  panel: Page;
  close(): Promise<void>;
}

/**
 * `spki`: base64 SHA-256 of the bench certificate's public key. Chromium trusts exactly that key
 * for this throwaway profile (`--ignore-certificate-errors-spki-list`), nothing else.
 */
export async function startRig({ spki, workerDevTools }: { spki?: string; workerDevTools?: false } = {}): Promise<Rig> {
  const ext = await launchExtension({
    ...(spki ? { extraArgs: [`--ignore-certificate-errors-spki-list=${spki}`] } : {}),
    ...(workerDevTools === false ? { workerDevTools } : {}),
  });
  const panel = await ext.openPanel();
  await panel.evaluate(BENCH_CODE);
  return { ext, panel, close: () => ext.close() };
}

/**
 * Adds servers (connect on startup, no auth) to the stored configuration, written from the panel
 * page (extension pages share `chrome.storage.local`), so it attaches nothing to the worker.
 */
export async function addServers(rig: Rig, servers: BenchServer[]): Promise<void> {
  // Written straight to storage, beside the worker's own writes (the pins of a first listing): a
  // worker write that read the list before this one lands drops what was added, so it is checked
  // and written again until every entry is there.
  for (let attempt = 0; attempt < 20; attempt++) {
    const missing = await rig.panel.evaluate(async (list: BenchServer[]) => {
      const got = await chrome.storage.local.get('mcp_servers');
      const stored = Array.isArray(got.mcp_servers) ? got.mcp_servers : [];
      const absent = list.filter((s) => !stored.some((e: { id?: unknown }) => e.id === s.id));
      for (const s of absent)
        stored.push({ id: s.id, name: s.id, url: s.url, auth: { kind: 'none' }, enabled: true, disabledTools: [], connectOnStartup: true });
      if (absent.length > 0) await chrome.storage.local.set({ mcp_servers: stored });
      return absent.length;
    }, servers);
    if (missing === 0 && attempt > 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the bench servers could not be stored: ${servers.map((s) => s.id).join(', ')}`);
}

interface StateServer {
  id: string;
  status: string;
  tools: unknown[];
}

/** Polls the worker's state until every id is ready (and has at least `minTools` tools). */
export async function waitReady(rig: Rig, ids: string[], minTools = 1, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await rig.panel.evaluate(() => (globalThis as never as { __bench: { state(): Promise<unknown> } }).__bench.state())) as {
      servers: StateServer[];
    };
    const ready = ids.filter((id) => state.servers.some((s) => s.id === id && s.status === 'ready' && s.tools.length >= minTools));
    if (ready.length === ids.length) return;
    if (Date.now() > deadline)
      throw new Error(`servers not ready after ${timeoutMs} ms: ${ids.filter((id) => !ready.includes(id)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const isOffscreen = (t: Target) => t.url().endsWith('/offscreen.html');

/** The current offscreen document, with the bench code installed. */
export async function offscreenPage(rig: Rig): Promise<Page> {
  const target = await rig.ext.browser.waitForTarget(isOffscreen, { timeout: 15_000 });
  const page = await target.asPage();
  await page.evaluate(BENCH_CODE);
  return page;
}

/** The service worker, with the bench code installed (for the agent's own path). */
export async function workerWithBench(rig: Rig): Promise<WebWorker> {
  const worker = await rig.ext.serviceWorker();
  await worker.evaluate(BENCH_CODE);
  return worker;
}

/** JS heap of the offscreen document after a full GC (CDP Runtime.getHeapUsage). */
export async function offscreenHeap(rig: Rig): Promise<{ usedBytes: number; totalBytes: number }> {
  const page = await offscreenPage(rig);
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const h = await cdp.send('Runtime.getHeapUsage');
    return { usedBytes: h.usedSize, totalBytes: h.totalSize };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * Stops the service worker the way Chrome's idle eviction would, attaching only for the stop
 * (`test/support/worker-lifecycle.ts`). The offscreen document and its sessions outlive it; with
 * `closeDocument` the document is closed first, so the next worker has to reconnect (the path a
 * cold wake took before sessions outlived the worker).
 */
export async function stopWorker(rig: Rig, { closeDocument = false } = {}): Promise<void> {
  if (closeDocument) {
    await evaluateInWorker(rig.ext, 'chrome.offscreen.closeDocument()');
    const until = Date.now() + 10_000;
    while (rig.ext.browser.targets().some(isOffscreen)) {
      if (Date.now() > until) throw new Error('the offscreen document did not close');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await stopWorkerBriefly(rig.ext);
}

type WorkerMarks = {
  origin: number;
  readyMs?: number;
  scriptStartMs?: number;
  evaluatedMs?: number;
  configMs?: number;
  claimedMs?: number;
};

/**
 * When the current worker started (epoch ms) and how long after that its script began to run, was evaluated,
 * its configuration read, the document claimed, and its start-up (claim, adopt) done.
 */
export async function workerMarks(rig: Rig): Promise<WorkerMarks> {
  return await evaluateInWorker<WorkerMarks>(
    rig.ext,
    `(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return { origin: performance.timeOrigin, readyMs: at('mcp:ready'), scriptStartMs: at('mcp:script-start'), evaluatedMs: at('mcp:evaluated'), configMs: at('mcp:config'), claimedMs: at('mcp:claimed') };
  })()`,
  );
}

/** CDP sessions on the panel, the service worker and the offscreen document (for profiles only). */
export async function contextSessions(rig: Rig, panel: Page): Promise<Record<string, CDPSession>> {
  const sw = rig.ext.browser.targets().find((t) => t.type() === TargetType.SERVICE_WORKER && t.url().endsWith('/sw.js'));
  const off = await offscreenPage(rig);
  return {
    panel: await panel.createCDPSession(),
    ...(sw ? { worker: await sw.createCDPSession() } : {}),
    offscreen: await off.createCDPSession(),
  };
}
