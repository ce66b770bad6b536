/**
 * The worker-sleep step of the matrix (test/e2e/worker-sleep-*.test.ts): with the panel open, the
 * worker is stopped as Chrome's idle timer stops it (no DevTools on it, worker-lifecycle.ts) and
 * waited for until it is really gone, while the panel's document stays as it was. A feature used
 * next then runs against a new worker instance, which `assertNewWorker` proves.
 */
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { until, type ExtensionBrowser } from './browser.js';
import { evaluateInWorker, stopWorker, workerRunning } from './worker-lifecycle.js';

const WORKER_MARK = 'globalThis.__beforeSleep';
const PANEL_MARK = 'globalThis.__panelBeforeSleep';

/** Stops the worker, waits until it is gone, and checks that the panel's document is the one that was open. */
export async function sleepWorker(ext: ExtensionBrowser, panel: Page): Promise<void> {
  // Only the instance that goes to sleep carries the mark; a worker already stopped has nothing to mark.
  if (await workerRunning(ext)) await evaluateInWorker(ext, `${WORKER_MARK} = true`).catch(() => undefined);
  await panel.evaluate(`${PANEL_MARK} = true`);
  await stopWorker(ext);
  await until('the worker to be gone', async () => !(await workerRunning(ext)));
  assert.equal(panel.isClosed(), false, 'the panel stays open');
  assert.equal(await panel.evaluate(`${PANEL_MARK} === true`), true, 'the same panel document, not a reload');
}

/** The worker that answered since `sleepWorker` is a new instance (or has already stopped again). */
export async function assertNewWorker(ext: ExtensionBrowser): Promise<void> {
  if (!(await workerRunning(ext))) return;
  const marked = await evaluateInWorker<boolean>(ext, `${WORKER_MARK} === true`).catch(() => false);
  assert.equal(marked, false, 'a new worker instance did the work after the sleep');
}
