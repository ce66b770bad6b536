/**
 * Reaching the extension's service worker without keeping it alive. A browser launched with
 * `workerDevTools: false` never attaches to the worker, so Chrome stops it when idle as it does
 * for users; these helpers attach for one step (evaluate, stop) and detach again at once, and a
 * watcher counts the worker's starts and stops from target events, which attach to nothing.
 */
import { TargetType, type CDPSession, type Target } from 'puppeteer-core';
import type { ExtensionBrowser } from './browser.js';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function swUrl(ext: ExtensionBrowser) {
  return `chrome-extension://${ext.extensionId}/sw.js`;
}

async function browserSession(ext: ExtensionBrowser): Promise<CDPSession> {
  return ext.browser.target().createCDPSession();
}

/** The worker's target id, or undefined while Chrome has it stopped. */
export async function workerTargetId(ext: ExtensionBrowser): Promise<string | undefined> {
  const session = await browserSession(ext);
  try {
    const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    return targetInfos.find((t) => t.type === 'service_worker' && t.url === swUrl(ext))?.targetId;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** Whether the worker is running right now. */
export async function workerRunning(ext: ExtensionBrowser): Promise<boolean> {
  return (await workerTargetId(ext)) !== undefined;
}

/**
 * Evaluates `expression` (a string: tsx-compiled functions do not survive serialisation) in the
 * running worker, waking none: fails if the worker is stopped. Attaches only for this call.
 */
export async function evaluateInWorker<T>(ext: ExtensionBrowser, expression: string): Promise<T> {
  const targetId = await workerTargetId(ext);
  if (!targetId) throw new Error('The service worker is not running');
  const session = await browserSession(ext);
  const { sessionId } = await session.send('Target.attachToTarget', { targetId, flatten: true });
  try {
    const worker = session.connection()?.session(sessionId);
    if (!worker) throw new Error('Could not reach the worker session');
    const answer = (await worker.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
    return answer.result.value as T;
  } finally {
    await session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    await session.detach().catch(() => undefined);
  }
}

/**
 * Stops the worker as Chrome's idle timer would: attach, close the target, detach. A close right
 * after start is sometimes ignored, so retry (bounded) until the target is gone. Resolves with the
 * milliseconds it took; resolves at once if the worker was already stopped.
 */
export async function stopWorker(ext: ExtensionBrowser): Promise<number> {
  if (puppeteerWorker(ext)) return stopAttachedWorker(ext);
  const started = Date.now();
  for (let attempt = 0; attempt < 20; attempt++) {
    const targetId = await workerTargetId(ext);
    if (!targetId) return Date.now() - started;
    const session = await browserSession(ext);
    try {
      const { sessionId } = await session.send('Target.attachToTarget', { targetId, flatten: true });
      await session.send('Target.closeTarget', { targetId }).catch(() => undefined);
      await session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    } catch {
      // The target may already be going away.
    } finally {
      await session.detach().catch(() => undefined);
    }
    const deadline = Date.now() + 500;
    while ((await workerTargetId(ext)) === targetId && Date.now() < deadline) await sleep(20);
    if ((await workerTargetId(ext)) !== targetId) return Date.now() - started;
  }
  throw new Error('The service worker did not stop after 20 attempts');
}

/** The worker's target as Puppeteer holds it: only in a browser launched with DevTools on the worker. */
function puppeteerWorker(ext: ExtensionBrowser): Target | undefined {
  return ext.browser.targets().find((t) => t.type() === TargetType.SERVICE_WORKER && t.url() === swUrl(ext));
}

/**
 * A browser that keeps DevTools on the worker (the default of launchExtension) stops it through
 * Puppeteer's own session: closing the target from a second session leaves Puppeteer's attachment
 * holding a worker that no longer answers. Bounded retries, as above.
 */
async function stopAttachedWorker(ext: ExtensionBrowser): Promise<number> {
  const started = Date.now();
  for (let attempt = 0; attempt < 20; attempt++) {
    const target = puppeteerWorker(ext);
    if (!target) return Date.now() - started;
    await (await target.worker())?.close().catch(() => undefined);
    const deadline = Date.now() + 500;
    while (puppeteerWorker(ext) === target && Date.now() < deadline) await sleep(10);
    if (puppeteerWorker(ext) !== target) return Date.now() - started;
  }
  throw new Error('The service worker did not stop after 20 attempts');
}

export interface WorkerWatch {
  /** Times the worker target appeared (including one already running when watching began). */
  readonly starts: number;
  /** Times the worker target went away: idle stops by Chrome and test stops alike. */
  readonly stops: number;
  close(): Promise<void>;
}

/** Counts worker starts and stops from target discovery events, which never attach to it. */
export async function watchWorker(ext: ExtensionBrowser): Promise<WorkerWatch> {
  const session = await browserSession(ext);
  const live = new Set<string>();
  const counts = { starts: 0, stops: 0 };
  session.on('Target.targetCreated', (e: { targetInfo: TargetInfo }) => {
    if (e.targetInfo.type !== 'service_worker' || e.targetInfo.url !== swUrl(ext) || live.has(e.targetInfo.targetId)) return;
    live.add(e.targetInfo.targetId);
    counts.starts++;
  });
  session.on('Target.targetDestroyed', (e: { targetId: string }) => {
    if (!live.delete(e.targetId)) return;
    counts.stops++;
  });
  await session.send('Target.setDiscoverTargets', { discover: true });
  return {
    get starts() {
      return counts.starts;
    },
    get stops() {
      return counts.stops;
    },
    close: () => session.detach().catch(() => undefined),
  };
}
